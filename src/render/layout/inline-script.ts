/**
 * Script classes of characters, as far as paragraph layout needs them: which of a run's three
 * fonts (Latin, East Asian, complex) draws a character, and its bidi strength for the visual
 * reordering of right-to-left text (a simplified UBA: strong L / strong R / numbers / neutrals).
 */

/** Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms: right-to-left letters. */
export function isRtlChar(cp: number): boolean {
  return (cp >= 0x0590 && cp <= 0x08ff) || (cp >= 0xfb1d && cp <= 0xfdff) || (cp >= 0xfe70 && cp <= 0xfefe) || (cp >= 0x10800 && cp <= 0x10fff) || (cp >= 0x1e800 && cp <= 0x1efff);
}

/** Complex scripts Word draws with the run's w:cs font (RTL scripts, Indic, Thai, Lao...). */
export function isComplexScript(cp: number): boolean {
  return isRtlChar(cp) || (cp >= 0x0900 && cp <= 0x0eff) || (cp >= 0x1780 && cp <= 0x17ff);
}

/** Characters Word draws with the run's w:eastAsia font (defined beside the font book, which loads that face). */
export { isEastAsian, isEastAsianShared } from "../fonts/east-asian";

/** Latin-script letters (and other strong left-to-right characters outside the RTL/neutral sets). */
export function isStrongLtr(cp: number): boolean {
  if (cp < 0x80) return (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
  if (isRtlChar(cp)) return false;
  if (cp >= 0x2000 && cp <= 0x2bff) return false; // punctuation, symbols, arrows
  if (cp === 0xa0 || cp === 0xad || (cp >= 0xa1 && cp <= 0xbf) || cp === 0xd7 || cp === 0xf7) return false;
  if (cp >= 0x3000 && cp <= 0x303f) return false;
  if (cp >= 0x0300 && cp <= 0x036f) return false; // combining marks take their base's direction
  return true;
}

export type Direction = "ltr" | "rtl" | "neutral";

/** Direction of a piece of text: its first strong character, or neutral (spaces, digits, punctuation). */
export function directionOf(text: string): Direction {
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i)!;
    if (cp > 0xffff) i++;
    if (isRtlChar(cp)) return "rtl";
    if (isStrongLtr(cp)) return "ltr";
  }
  return "neutral";
}

/**
 * Visual order of a line's pieces (indices into `dirs`, logical order) for a paragraph whose base
 * direction is `base`. Runs of the opposite direction are reversed as a whole; neutrals between two
 * pieces of the same direction join them, other neutrals take the base direction. Numbers are LTR
 * islands inside RTL runs.
 */
export function visualOrder(dirs: Direction[], base: "ltr" | "rtl"): number[] {
  const n = dirs.length;
  // Resolve neutrals.
  const res: ("ltr" | "rtl")[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const d = dirs[i]!;
    if (d !== "neutral") {
      res[i] = d;
      continue;
    }
    let before: Direction = "neutral";
    for (let j = i - 1; j >= 0; j--) if (dirs[j] !== "neutral") { before = dirs[j]!; break; }
    let after: Direction = "neutral";
    for (let j = i + 1; j < n; j++) if (dirs[j] !== "neutral") { after = dirs[j]!; break; }
    res[i] = before === after && before !== "neutral" ? before : base;
  }
  const order: number[] = [];
  if (base === "ltr") {
    let i = 0;
    while (i < n) {
      if (res[i] === "ltr") {
        order.push(i++);
        continue;
      }
      let j = i;
      while (j < n && res[j] === "rtl") j++;
      for (let k = j - 1; k >= i; k--) order.push(k);
      i = j;
    }
    return order;
  }
  // RTL base: the whole line reversed, LTR runs kept in order.
  let i = n - 1;
  while (i >= 0) {
    if (res[i] === "rtl") {
      order.push(i--);
      continue;
    }
    let j = i;
    while (j > 0 && res[j - 1] === "ltr") j--;
    for (let k = j; k <= i; k++) order.push(k);
    i = j - 1;
  }
  return order;
}
