/**
 * Script classes of characters, as far as paragraph layout needs them: which of a run's three
 * fonts (Latin, East Asian, complex) draws a character. Bidi classes and levels are in bidi.ts.
 */

/** Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms: right-to-left letters. */
export function isRtlChar(cp: number): boolean {
  return (
    (cp >= 0x0590 && cp <= 0x08ff) ||
    (cp >= 0xfb1d && cp <= 0xfdff) ||
    (cp >= 0xfe70 && cp <= 0xfefe) ||
    (cp >= 0x10800 && cp <= 0x10fff) ||
    (cp >= 0x1e800 && cp <= 0x1efff)
  );
}

/** Complex scripts Word draws with the run's w:cs font (RTL scripts, Indic, Thai, Lao...). */
export function isComplexScript(cp: number): boolean {
  return isRtlChar(cp) || (cp >= 0x0900 && cp <= 0x0eff) || (cp >= 0x1780 && cp <= 0x17ff);
}

/** A code unit drawn with the character before it: a combining mark, ZWJ, a variation selector or a low surrogate. */
export function isMark(c: number): boolean {
  return (c >= 0x300 && c <= 0x36f) || c === 0x200d || (c >= 0xfe00 && c <= 0xfe0f) || (c >= 0xdc00 && c <= 0xdfff);
}

/** An alef right after a lam: drawn in one ligature glyph with it. */
export function isLamAlefTail(t: string, i: number): boolean {
  const c = t.charCodeAt(i);
  return t.charCodeAt(i - 1) === 0x644 && (c === 0x622 || c === 0x623 || c === 0x625 || c === 0x627);
}
