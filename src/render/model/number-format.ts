/**
 * Numbers written in a WordprocessingML number format (w:numFmt, w:pgNumType/@w:fmt): list labels,
 * footnote marks, and page numbers in headers and footers. Pure, shared by model and layout;
 * follows what Word prints for each format.
 */
import type { NumberFormat } from "./types";

const KNOWN = new Set<string>([
  "decimal",
  "upperRoman",
  "lowerRoman",
  "upperLetter",
  "lowerLetter",
  "ordinal",
  "bullet",
  "decimalZero",
  "none",
  "arabicAbjad",
  "hebrew1",
  "russianUpper",
  "russianLower",
  "chicago",
  "cardinalText",
  "ordinalText",
  "ideographDigital",
  "japaneseCounting",
  "chineseCounting",
  "chineseCountingThousand",
  "taiwaneseCounting",
  "aiueo",
  "aiueoFullWidth",
  "iroha",
  "irohaFullWidth",
  "ganada",
  "chosung",
  "koreanDigital",
  "koreanCounting",
  "ideographTraditional",
  "ideographZodiac",
  "decimalEnclosedCircle",
  "decimalEnclosedCircleChinese",
  "ideographEnclosedCircle",
  "decimalFullWidth",
]);

/** A w:numFmt value as our NumberFormat (unknown formats read as decimal). */
export function toNumberFormat(v: string | undefined): NumberFormat {
  if (v === undefined) return "decimal";
  if (KNOWN.has(v)) return v as NumberFormat;
  if (v === "decimalFullWidth2") return "decimalFullWidth";
  return "decimal";
}

const ROMAN: [number, string][] = [
  [1000, "M"],
  [900, "CM"],
  [500, "D"],
  [400, "CD"],
  [100, "C"],
  [90, "XC"],
  [50, "L"],
  [40, "XL"],
  [10, "X"],
  [9, "IX"],
  [5, "V"],
  [4, "IV"],
  [1, "I"],
];

function roman(n: number): string {
  // Word writes numbers past the roman range as plain digits.
  if (n <= 0 || n >= 4000) return String(n);
  let out = "";
  for (const [value, digits] of ROMAN) {
    while (n >= value) {
      out += digits;
      n -= value;
    }
  }
  return out;
}

/** Word's letter numbering repeats the letter: 1 → a, 26 → z, 27 → aa, 53 → aaa. */
function repeatedLetter(n: number, alphabet: string[]): string {
  // Word stops repeating letters long before this; a hostile start value must not build huge strings.
  if (n <= 0 || n > alphabet.length * 20) return String(n);
  const letter = alphabet[(n - 1) % alphabet.length]!;
  return letter.repeat(Math.floor((n - 1) / alphabet.length) + 1);
}

const LATIN = "abcdefghijklmnopqrstuvwxyz".split("");
// Word's russianLower skips ё, й and ъ, ы, ь (letters that cannot start a word).
const RUSSIAN = "абвгдежзиклмнопрстуфхцчшщэюя".split("");

function ordinalSuffix(n: number): string {
  const mod100 = Math.abs(n) % 100;
  if (mod100 >= 11 && mod100 <= 13) return "th";
  return ["th", "st", "nd", "rd"][Math.abs(n) % 10] ?? "th";
}

const ONES = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];

function cardinalWords(n: number): string {
  if (n < 20) return ONES[n]!;
  if (n < 100) return TENS[Math.floor(n / 10)]! + (n % 10 ? "-" + ONES[n % 10]! : "");
  if (n < 1000) return ONES[Math.floor(n / 100)]! + " hundred" + (n % 100 ? " " + cardinalWords(n % 100) : "");
  if (n < 1_000_000)
    return cardinalWords(Math.floor(n / 1000)) + " thousand" + (n % 1000 ? " " + cardinalWords(n % 1000) : "");
  return String(n);
}

const ORDINAL_WORDS: Record<string, string> = {
  one: "first",
  two: "second",
  three: "third",
  five: "fifth",
  eight: "eighth",
  nine: "ninth",
  twelve: "twelfth",
};

function ordinalWords(n: number): string {
  const cardinal = cardinalWords(n);
  if (/^\d+$/.test(cardinal)) return cardinal + ordinalSuffix(n);
  const m = /^(.*?)([a-z]+)$/.exec(cardinal)!;
  const last = m[2]!;
  const ordinal = ORDINAL_WORDS[last] ?? (last.endsWith("y") ? last.slice(0, -1) + "ieth" : last + "th");
  return m[1] + ordinal;
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

// Hebrew numerals: letters add up (tav = 400 repeats), 15 and 16 are written 9+6 and 9+7.
const HEBREW: [number, string][] = [
  [400, "ת"],
  [300, "ש"],
  [200, "ר"],
  [100, "ק"],
  [90, "צ"],
  [80, "פ"],
  [70, "ע"],
  [60, "ס"],
  [50, "נ"],
  [40, "מ"],
  [30, "ל"],
  [20, "כ"],
  [10, "י"],
  [9, "ט"],
  [8, "ח"],
  [7, "ז"],
  [6, "ו"],
  [5, "ה"],
  [4, "ד"],
  [3, "ג"],
  [2, "ב"],
  [1, "א"],
];

function hebrew(n: number): string {
  if (n <= 0 || n >= 10_000) return String(n);
  let out = "";
  let rest = n % 1000;
  while (rest > 0) {
    if (rest === 15 || rest === 16) {
      out += "ט" + (rest === 15 ? "ו" : "ז");
      break;
    }
    const [value, letter] = HEBREW.find(([v]) => v <= rest)!;
    out += letter;
    rest -= value;
  }
  return out || String(n);
}

// Abjad order of the Arabic alphabet, as Word's arabicAbjad numbering counts 1..28.
const ABJAD = "أبجدهوزحطيكلمنسعفصقرشتثخذضظغ".split("");

const CHICAGO = ["*", "†", "‡", "§"];

// East Asian list numbers as LibreOffice 7.4 writes them (measured for 1-1000): kana and hangul
// letters cycle, one letter a number; the stems and branches and the enclosed circles stop at their
// last sign, then digits.
const AIUEO = [..."アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワヲン"];
const AIUEO_HALF = [..."ｱｲｳｴｵｶｷｸｹｺｻｼｽｾｿﾀﾁﾂﾃﾄﾅﾆﾇﾈﾉﾊﾋﾌﾍﾎﾏﾐﾑﾒﾓﾔﾕﾖﾗﾘﾙﾚﾛﾜｦﾝ"];
const IROHA = [..."イロハニホヘトチリヌルヲワカヨタレソツネナラムウヰノオクヤマケフコエテアサキユメミシヱヒモセスン"];
const IROHA_HALF = [..."ｲﾛﾊﾆﾎﾍﾄﾁﾘﾇﾙｦﾜｶﾖﾀﾚｿﾂﾈﾅﾗﾑｳヰﾉｵｸﾔﾏｹﾌｺｴﾃｱｻｷﾕﾒﾐｼヱﾋﾓｾｽﾝ"];
const GANADA = [..."가나다라마바사아자차카타파하"];
const CHOSUNG = [..."ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ"];
const KOREAN_DIGITS = [..."영일이삼사오육칠팔구"];
const HEAVENLY_STEMS = [..."甲乙丙丁戊己庚辛壬癸"];
const EARTHLY_BRANCHES = [..."子丑寅卯辰巳午未申酉戌亥"];
const CHINESE_DIGITS = [..."零一二三四五六七八九"];
/** Thousands, hundreds, tens and ones, and their signs in counted Chinese and Korean numbers. */
const PLACES = [1000, 100, 10, 1];
const CHINESE_UNITS = ["千", "百", "十", ""];
const KOREAN_UNITS = ["천", "백", "십", ""];

function cycled(n: number, letters: string[]): string {
  return n > 0 ? letters[(n - 1) % letters.length]! : String(n);
}

/** 一 … 九, 十, 十一, 二十, 一百零一, 一百一十, 一千零一 (below 10000). */
function chineseCounting(n: number): string {
  if (n >= 10 && n < 20) return "十" + (n % 10 ? CHINESE_DIGITS[n % 10] : "");
  let out = "";
  let zero = false;
  for (const [place, value] of PLACES.entries()) {
    const unit = CHINESE_UNITS[place]!;
    const d = Math.floor(n / value) % 10;
    if (d === 0) {
      if (out) zero = true;
      continue;
    }
    if (zero) out += "零";
    zero = false;
    out += CHINESE_DIGITS[d]! + unit;
  }
  return out;
}

/** 일 … 구, 십, 십일, 이십, 백, 백일, 천 (below 10000): a 1 before a unit is not written. */
function koreanCounting(n: number): string {
  let out = "";
  for (const [place, value] of PLACES.entries()) {
    const unit = KOREAN_UNITS[place]!;
    const d = Math.floor(n / value) % 10;
    if (d === 0) continue;
    out += (d === 1 && unit ? "" : KOREAN_DIGITS[d]!) + unit;
  }
  return out;
}

/** ① … ⑳, ㉑ … ㉟, ㊱ … ㊿, then digits. */
function enclosedCircle(n: number): string {
  if (n >= 1 && n <= 20) return String.fromCodePoint(0x2460 + n - 1);
  if (n >= 21 && n <= 35) return String.fromCodePoint(0x3251 + n - 21);
  if (n >= 36 && n <= 50) return String.fromCodePoint(0x32b1 + n - 36);
  return String(n);
}

/** Formats `n` as Word writes it in `format`. Unknown or out-of-range input falls back to digits. */
export function formatNumber(n: number, format: NumberFormat): string {
  if (!Number.isFinite(n)) return "";
  n = Math.trunc(n);
  switch (format) {
    case "decimal":
    case "decimalFullWidth":
      return String(n);
    case "decimalZero":
      return n >= 0 && n < 10 ? "0" + n : String(n);
    case "upperRoman":
      return roman(n);
    case "lowerRoman":
      return roman(n).toLowerCase();
    case "upperLetter":
      return repeatedLetter(n, LATIN).toUpperCase();
    case "lowerLetter":
      return repeatedLetter(n, LATIN);
    case "russianLower":
      return repeatedLetter(n, RUSSIAN);
    case "russianUpper":
      return repeatedLetter(n, RUSSIAN).toUpperCase();
    case "ordinal":
      return n + ordinalSuffix(n);
    case "cardinalText":
      return n >= 0 ? capitalize(cardinalWords(n)) : String(n);
    case "ordinalText":
      return n > 0 ? capitalize(ordinalWords(n)) : String(n);
    case "chicago":
      return n > 0 && n <= 80 ? CHICAGO[(n - 1) % 4]!.repeat(Math.floor((n - 1) / 4) + 1) : String(n);
    case "hebrew1":
      return hebrew(n);
    case "arabicAbjad":
      return repeatedLetter(n, ABJAD);
    case "ideographDigital":
    case "japaneseCounting":
    case "chineseCounting":
    case "chineseCountingThousand":
    case "taiwaneseCounting":
      return n > 0 && n < 10000 ? chineseCounting(n) : String(n);
    case "aiueo":
      return cycled(n, AIUEO_HALF);
    case "aiueoFullWidth":
      return cycled(n, AIUEO);
    case "iroha":
      return cycled(n, IROHA_HALF);
    case "irohaFullWidth":
      return cycled(n, IROHA);
    case "ganada":
      return cycled(n, GANADA);
    case "chosung":
      return cycled(n, CHOSUNG);
    case "koreanDigital":
      return n >= 0 ? [...String(n)].map((d) => KOREAN_DIGITS[Number(d)]).join("") : String(n);
    case "koreanCounting":
      return n > 0 && n < 10000 ? koreanCounting(n) : String(n);
    case "ideographTraditional":
      return n > 0 && n <= HEAVENLY_STEMS.length ? HEAVENLY_STEMS[n - 1]! : String(n);
    case "ideographZodiac":
      return n > 0 && n <= EARTHLY_BRANCHES.length ? EARTHLY_BRANCHES[n - 1]! : String(n);
    case "decimalEnclosedCircle":
    case "decimalEnclosedCircleChinese":
    case "ideographEnclosedCircle":
      return enclosedCircle(n);
    case "bullet":
      return "•";
    case "none":
      return "";
    default:
      return String(n);
  }
}

/**
 * Languages whose locale has native digits in LibreOffice (i18npool's natnum1 locales: Chinese,
 * Japanese, Korean, Hebrew, Arabic, Persian, Thai, the Indic and other South and Southeast Asian
 * languages). For them LibreOffice writes a full-width decimal list number (w:numFmt
 * decimalFullWidth) in full-width digits; for any other language, in ASCII digits.
 */
const NATIVE_DIGIT_LANGUAGES = new Set([
  "zh", "ja", "ko", "he", "ar", "th", "hi", "or", "mr", "bn", "pa", "gu", "ta",
  "te", "kn", "ml", "lo", "bo", "my", "km", "mn", "ne", "dz", "fa",
]);

/** Whether a label in a paragraph of language `lang` (BCP 47) writes decimalFullWidth numbers full-width. */
export function hasNativeDigits(lang: string): boolean {
  return NATIVE_DIGIT_LANGUAGES.has(lang.toLowerCase().split(/[-_]/)[0]!);
}

/** ASCII digits as full-width digits (U+FF10-FF19). */
export function fullWidthDigits(s: string): string {
  return s.replace(/[0-9]/g, (d) => String.fromCharCode(0xff10 + d.charCodeAt(0) - 48));
}
