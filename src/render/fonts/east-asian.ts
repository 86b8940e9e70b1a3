/**
 * Which characters a run draws with its East Asian font (w:rFonts w:eastAsia): shared by the font
 * book (which faces to load) and paragraph layout (which face draws each character).
 */

/** Ideographs, kana, Hangul, CJK punctuation and full-width forms: always the East Asian font. */
export function isEastAsian(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x11ff) ||
    (cp >= 0x2e80 && cp <= 0x9fff) ||
    (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7af) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xffef) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

/** Whether `text` has a character of `isEastAsian` (one regular expression over the same ranges). */
export function hasEastAsian(text: string): boolean {
  return EAST_ASIAN_TEXT.test(text);
}
const EAST_ASIAN_TEXT =
  /[\u1100-\u11ff\u2e80-\u9fff\ua000-\ua4cf\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\u{20000}-\u{3fffd}]/u;

/**
 * Punctuation and symbols both kinds of text use, drawn with the East Asian font when the run has
 * w:hint="eastAsia" (ECMA-376 17.3.2.26): general punctuation (quotes, dashes, ellipsis), letterlike
 * symbols, number forms, arrows, mathematical and technical symbols, enclosed alphanumerics, box
 * drawing, geometric shapes, dingbats. (Latin-1 symbols are left to the Latin font.)
 */
export function isEastAsianShared(cp: number): boolean {
  return (cp >= 0x2010 && cp <= 0x206f) || (cp >= 0x2100 && cp <= 0x23ff) || (cp >= 0x2460 && cp <= 0x27bf);
}
