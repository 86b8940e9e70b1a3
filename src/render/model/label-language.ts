/**
 * The language of a paragraph's list label. LibreOffice writes a label's numbers in the language of
 * the paragraph's first character that is not weak: a Latin character takes the run's w:lang w:val,
 * an East Asian one w:eastAsia, a complex-script one w:bidi. The script class of a character is
 * i18npool's (BreakIterator getScriptClass): by Unicode block, with spaces, no-break spaces, general
 * punctuation and number forms weak. Measured, LibreOffice 7.4: "Hello" under w:val="ja-JP", and
 * " こんにちは", "「こんにちは" or "—こんにちは" under w:eastAsia="ja-JP" take Japanese; "1こんにちは",
 * "(こんにちは" and a leading tab take the Latin language; an empty paragraph takes its mark's. A tab
 * or line break counts as a Latin character; fields, pictures and note marks are weak.
 */
import { hasNativeDigits } from "./number-format";

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

/** A run's languages (w:lang w:val, w:eastAsia, w:bidi) as its properties give them. */
export interface RunLanguages {
  latin?: string;
  eastAsia?: string;
  complex?: string;
}

/**
 * Whether text of script class `cls` in a run of these languages writes full-width decimal numbers
 * full-width. Languages the runs do not set are LibreOffice's defaults here: English for Latin text
 * (ASCII digits), simplified Chinese for East Asian text and a native-digit language for complex
 * text (both full-width; measured).
 */
export function nativeDigitsFor(cls: Exclude<ScriptClass, "weak">, langs: RunLanguages): boolean {
  if (cls === "latin") return langs.latin !== undefined && hasNativeDigits(langs.latin);
  if (cls === "asian") return hasNativeDigits(langs.eastAsia ?? "zh-CN");
  return langs.complex === undefined || hasNativeDigits(langs.complex);
}

/** `nativeDigitsFor` the first character of `text` that is not weak; undefined when all are weak. */
export function nativeDigitsOfText(text: string, langs: RunLanguages): boolean | undefined {
  for (const ch of text) {
    const cls = scriptClass(ch.codePointAt(0)!);
    if (cls !== "weak") return nativeDigitsFor(cls, langs);
  }
  return undefined;
}
