/**
 * Number → text in the OOXML numbering formats (list labels; layout may reuse it for PAGE fields).
 */
import type { NumberFormat } from "./types";

const KNOWN = new Set<string>([
  "decimal", "upperRoman", "lowerRoman", "upperLetter", "lowerLetter", "ordinal", "bullet", "decimalZero", "none", "arabicAbjad",
  "hebrew1", "russianUpper", "russianLower", "chicago", "cardinalText", "ordinalText",
]);

/** A w:numFmt value as our NumberFormat (unknown formats read as decimal). */
export function toNumberFormat(v: string | undefined): NumberFormat {
  if (v === undefined) return "decimal";
  if (KNOWN.has(v)) return v as NumberFormat;
  if (v === "decimalEnclosedParen" || v === "decimalEnclosedFullstop" || v === "decimalHalfWidth" || v === "decimalFullWidth") return "decimal";
  return "decimal";
}

export function roman(n: number): string {
  if (n <= 0 || n >= 4000) return String(n);
  const table: [number, string][] = [[1000, "m"], [900, "cm"], [500, "d"], [400, "cd"], [100, "c"], [90, "xc"], [50, "l"], [40, "xl"], [10, "x"], [9, "ix"], [5, "v"], [4, "iv"], [1, "i"]];
  let out = "";
  for (const [v, s] of table) while (n >= v) { out += s; n -= v; }
  return out;
}

/** Word's letters: a..z, then aa..zz, aaa.. (the letter repeated, not base 26). */
function letters(n: number, alphabet: string): string {
  // Word stops repeating letters long before this; a hostile start value must not build huge strings.
  if (n <= 0 || n > alphabet.length * 20) return String(n);
  const size = alphabet.length;
  const ch = alphabet[(n - 1) % size]!;
  return ch.repeat(Math.floor((n - 1) / size) + 1);
}

const ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
const ORD: Record<string, string> = { one: "first", two: "second", three: "third", five: "fifth", eight: "eighth", nine: "ninth", twelve: "twelfth" };

function cardinal(n: number): string {
  if (n < 0 || n >= 1_000_000) return String(n);
  if (n < 20) return ONES[n]!;
  if (n < 100) return TENS[Math.floor(n / 10)]! + (n % 10 ? "-" + ONES[n % 10]! : "");
  if (n < 1000) return ONES[Math.floor(n / 100)]! + " hundred" + (n % 100 ? " " + cardinal(n % 100) : "");
  return cardinal(Math.floor(n / 1000)) + " thousand" + (n % 1000 ? " " + cardinal(n % 1000) : "");
}

function ordinalWord(n: number): string {
  const words = cardinal(n);
  const m = /([a-z]+)$/.exec(words);
  if (!m) return words;
  const last = m[1]!;
  const ord = ORD[last] ?? (last.endsWith("y") ? last.slice(0, -1) + "ieth" : last + "th");
  return words.slice(0, words.length - last.length) + ord;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function ordinalSuffix(n: number): string {
  const t = n % 100;
  if (t >= 11 && t <= 13) return `${n}th`;
  return `${n}${["th", "st", "nd", "rd"][n % 10] ?? "th"}`;
}

const HEBREW_LETTERS = "אבגדהוזחטיכלמנסעפצקרשת";
const RUSSIAN = "абвгдежзиклмнопрстуфхцчшщэюя";
const ABJAD = "أبجدهوزحطيكلمنسعفصقرشتثخذضظغ";

export function formatNumber(n: number, fmt: NumberFormat | string): string {
  switch (fmt) {
    case "none":
      return "";
    case "upperRoman":
      return roman(n).toUpperCase();
    case "lowerRoman":
      return roman(n);
    case "upperLetter":
      return letters(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
    case "lowerLetter":
      return letters(n, "abcdefghijklmnopqrstuvwxyz");
    case "ordinal":
      return ordinalSuffix(n);
    case "cardinalText":
      return capital(cardinal(n));
    case "ordinalText":
      return capital(ordinalWord(n));
    case "decimalZero":
      return n >= 0 && n < 10 ? `0${n}` : String(n);
    case "hebrew1":
      return letters(n, HEBREW_LETTERS);
    case "russianLower":
      return letters(n, RUSSIAN);
    case "russianUpper":
      return letters(n, RUSSIAN.toUpperCase());
    case "arabicAbjad":
      return letters(n, ABJAD);
    case "chicago":
      if (n <= 0 || n > 80) return String(n);
      return ["*", "†", "‡", "§"][(n - 1) % 4]!.repeat(Math.floor((n - 1) / 4) + 1);
    default:
      return String(n);
  }
}
