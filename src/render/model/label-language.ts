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
import { scriptClass, type ScriptClass } from "./script-class";

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
