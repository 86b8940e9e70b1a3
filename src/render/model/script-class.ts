/**
 * LibreOffice's script class of a character (i18npool's BreakIterator getScriptClass): Latin, East
 * Asian, complex or weak, by Unicode block, then by the character's script. It decides which of a
 * run's three fonts and languages a character takes (weak ones take their neighbours').
 */

export type ScriptClass = "weak" | "latin" | "asian" | "complex";

// Unicode blocks, as i18npool's table gives them a class; code points in none of them fall back
// to their script (below).
const BLOCKS: [from: number, to: number, cls: ScriptClass][] = [
  [0x0000, 0x02ff, "latin"], // Basic Latin to Spacing Modifier Letters
  [0x0370, 0x058f, "latin"], // Greek to Armenian
  [0x0590, 0x109f, "complex"], // Hebrew to Myanmar
  [0x10a0, 0x10ff, "latin"], // Georgian
  [0x1100, 0x11ff, "asian"], // Hangul Jamo
  [0x1200, 0x137f, "complex"], // Ethiopic
  [0x13a0, 0x16ff, "latin"], // Cherokee to Runic
  [0x1780, 0x18af, "complex"], // Khmer to Mongolian
  [0x1e00, 0x1fff, "latin"], // Latin Extended Additional, Greek Extended
  [0x2150, 0x218f, "weak"], // Number Forms
  [0x2c60, 0x2c7f, "latin"], // Latin Extended-C
  [0x2c80, 0x2ce3, "latin"], // Coptic
  [0x2e80, 0xa4cf, "asian"], // CJK Radicals Supplement to Yi Radicals
  [0xa720, 0xa7ff, "latin"], // Latin Extended-D
  [0xac00, 0xd7af, "asian"], // Hangul Syllables
  [0xf900, 0xfaff, "asian"], // CJK Compatibility Ideographs
  [0xfb50, 0xfdff, "complex"], // Arabic Presentation Forms-A
  [0xfe30, 0xfe4f, "asian"], // CJK Compatibility Forms
  [0xfe70, 0xfeff, "complex"], // Arabic Presentation Forms-B
  [0xff00, 0xffef, "asian"], // Halfwidth and Fullwidth Forms
  [0x20000, 0x2fa1f, "asian"], // CJK Extension B to Compatibility Ideographs Supplement
];

/** Characters always weak: spaces (U+0020, U+00A0), field marks, and Bopomofo tone marks. */
const ALWAYS_WEAK = new Set([0x01, 0x02, 0x20, 0xa0, 0x2c7, 0x2ca, 0x2cb, 0x2d9]);

const SCRIPT_LATIN = /\p{Script=Latin}|\p{Script=Greek}|\p{Script=Cyrillic}/u;
const SCRIPT_ASIAN = /\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}|\p{Script=Hangul}|\p{Script=Bopomofo}/u;
const SCRIPT_COMPLEX = /\p{Script=Arabic}|\p{Script=Hebrew}|\p{Script=Syriac}|\p{Script=Thaana}|\p{Script=Devanagari}/u;

/** LibreOffice's script class of a code point (i18npool BreakIteratorImpl::getScriptClass). */
export function scriptClass(cp: number): ScriptClass {
  if (ALWAYS_WEAK.has(cp)) return "weak";
  for (const [from, to, cls] of BLOCKS) {
    if (cp < from) break;
    if (cp <= to) return cls;
  }
  const ch = String.fromCodePoint(cp);
  if (SCRIPT_LATIN.test(ch)) return "latin";
  if (SCRIPT_ASIAN.test(ch)) return "asian";
  if (SCRIPT_COMPLEX.test(ch)) return "complex";
  return "weak"; // Common and Inherited: punctuation, symbols, combining marks
}
