/**
 * Script classes of characters, as far as paragraph layout needs them: which of a run's three
 * fonts (Latin, East Asian, complex) draws a character. Bidi classes and levels are in bidi.ts.
 */

/** Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms: right-to-left letters. */
export function isRtlChar(cp: number): boolean {
  return (cp >= 0x0590 && cp <= 0x08ff) || (cp >= 0xfb1d && cp <= 0xfdff) || (cp >= 0xfe70 && cp <= 0xfefe) || (cp >= 0x10800 && cp <= 0x10fff) || (cp >= 0x1e800 && cp <= 0x1efff);
}

/** Complex scripts Word draws with the run's w:cs font (RTL scripts, Indic, Thai, Lao...). */
export function isComplexScript(cp: number): boolean {
  return isRtlChar(cp) || (cp >= 0x0900 && cp <= 0x0eff) || (cp >= 0x1780 && cp <= 0x17ff);
}

