/**
 * Line-break opportunities: a compact subset of Unicode UAX #14, enough for Word-like wrapping of
 * Latin, Cyrillic, Greek, Hebrew, Arabic and CJK text. No dictionary breaking (Thai, Lao, Khmer).
 *
 * Rules, in order of precedence:
 * - never inside a surrogate pair, never before a combining mark or ZWJ;
 * - never next to glue (NBSP U+00A0, non-breaking hyphen U+2011, narrow NBSP U+202F, figure space
 *   U+2007, word joiners U+2060/U+FEFF);
 * - after a zero-width space (U+200B), a tab or an object (U+FFFC);
 * - never before closing punctuation, exclamation/question marks, infix separators or small kana,
 *   even after spaces; never after opening punctuation, even after spaces (UAX #14 LB14), but a
 *   quotation mark after a space is QU to LibreOffice: a line may start with it, and end after the
 *   spaces that follow it (`from “|spouse`, `name|” and`, measured); between closing punctuation (or , . ; : ! ?
 *   % -) and an opening bracket (`a,|(b)`), but not after a closing quotation mark; after ! and \
 *   before a letter or digit;
 * - after a run of spaces (before the next non-space);
 * - after a vertical line (|), as after a tab (UAX #14 BA; LibreOffice wraps get|set);
 * - after a hyphen (U+002D, U+2010) only between letters or digits (LibreOffice breaks 10-|12, unlike
 *   UAX #14); after en/em dashes (and before em dashes);
 * - after an ellipsis (… ‥, UAX #14 IN) before a letter, a digit, an ideograph or an opening
 *   bracket, and before one after closing punctuation (`end.|…`), not after a letter;
 * - before and after ideographs (CJK, kana); Korean (Hangul) breaks at spaces like Latin, as
 *   Word and LibreOffice wrap it;
 * - after a solidus before a letter or digit (UAX #14 SY; not inside numbers, 1/2, nor before a
 *   Hebrew letter, LB21b). Where whitespace stands in the 65 characters before it the opportunity
 *   is of its own kind (`PULLED_BACK`): LibreOffice's break iterator, having chosen it as the
 *   line's last opportunity, takes the break after that whitespace instead (i#17155: paths and
 *   URLs, `w/o`), passing over any hyphen between them, and chops the word at the edge when that
 *   whitespace is not on the line (line-fit.ts). So `x Nurse/care` wraps before `Nurse` (and char-breaks it on a
 *   line of its own), `at http://www.ecma-international.org/…` moves the whole address down,
 *   while a long path wraps after a `/`.
 */

/** Kinds of `lineBreakOpportunities` entries: none, an opportunity, one LibreOffice pulls back. */
export const NO_BREAK = 0;
export const BREAK = 1;
/** Kind 2 is a soft hyphen's (pieces.ts). */
export const PULLED_BACK = 3;

/** Break classes (a subset of UAX #14's). */
const enum C {
  AL = 0, // letters, digits and everything without a special rule
  SP, // breaking spaces
  GL, // glue: no break on either side
  ZW, // zero-width space: break after
  CM, // combining marks, ZWJ, variation selectors: attach to what precedes
  HY, // hyphens: break after, between letters or digits
  BA, // break after (en dash, tab)
  B2, // break before and after (em dash)
  ID, // ideographs: break before and after
  OP, // opening punctuation: no break after
  CL, // closing punctuation and the like: no break before
  CB, // objects (U+FFFC): break before and after
  QI, // initial quotes ‘ “ «: opening at a word's start, closing after a word (German „…“)
  QU, // a quotation mark after a space (UAX #14 QU): a break before it, none after it but after the spaces that follow
  IN, // inseparable: the ellipsis … ‥ ․ (UAX #14 IN): no break before it after a letter, a break after it before one
}

/** Classes of the first 0x3000 code points, computed once (the common case is a table lookup). */
let table: Uint8Array | null = null;
function classOf(cp: number): C {
  if (cp < 0x3000) {
    if (!table) {
      table = new Uint8Array(0x3000);
      for (let c = 0; c < 0x3000; c++) table[c] = computeClass(c);
    }
    return table[cp] as C;
  }
  return computeClass(cp);
}

function computeClass(cp: number): C {
  if (cp < 0x80) {
    if (cp === 0x20) return C.SP;
    if (cp === 0x09) return C.BA;
    if (cp === 0x2d) return C.HY;
    if (cp === 0x7c) return C.BA;
    // ( [ {  opening; ) ] } , . : ; ! ? / closing-like (UAX #14 CL, CP, IS, EX, SY).
    if (cp === 0x28 || cp === 0x5b || cp === 0x7b) return C.OP;
    if (
      cp === 0x29 ||
      cp === 0x5d ||
      cp === 0x7d ||
      cp === 0x2c ||
      cp === 0x2e ||
      cp === 0x3a ||
      cp === 0x3b ||
      cp === 0x21 ||
      cp === 0x3f ||
      cp === 0x2f
    )
      return C.CL;
    return C.AL;
  }
  if (cp === 0xa0 || cp === 0x2011 || cp === 0x202f || cp === 0x2007 || cp === 0x2060 || cp === 0xfeff || cp === 0x0f0c)
    return C.GL;
  if (cp === 0x200b) return C.ZW;
  if (
    cp === 0x200d ||
    cp === 0x200c ||
    (cp >= 0x0300 && cp <= 0x036f) ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    (cp >= 0x1ab0 && cp <= 0x1aff) ||
    (cp >= 0x20d0 && cp <= 0x20ff) ||
    (cp >= 0x0591 && cp <= 0x05bd) ||
    (cp >= 0x064b && cp <= 0x065f) ||
    cp === 0x0670
  )
    return C.CM;
  if (cp === 0x2010) return C.HY;
  if (cp === 0x2013 || cp === 0x058a || cp === 0x1680 || cp === 0x2012) return C.BA;
  if (cp === 0x2014) return C.B2;
  if ((cp >= 0x2000 && cp <= 0x200a) || cp === 0x205f || cp === 0x3000) return C.SP;
  if (cp === 0xfffc) return C.CB;
  if (cp === 0x2024 || cp === 0x2025 || cp === 0x2026 || cp === 0xfe19) return C.IN;
  // Quotes: „ ‚ open, ’ ” » close (European usage; good enough for wrapping); ‘ “ « open or
  // close depending on what precedes them (see quoteClass).
  if (cp === 0x2018 || cp === 0x201c || cp === 0xab) return C.QI;
  if (cp === 0x201a || cp === 0x201e) return C.OP;
  if (cp === 0x2019 || cp === 0x201d || cp === 0xbb || cp === 0x203c || cp === 0x2047 || cp === 0x2048 || cp === 0x2049)
    return C.CL;
  if (cp >= 0x3000 && cp <= 0x303f) {
    // CJK punctuation: 〈《「『【〔〖〘〚〝 open; 、。〉》」』】〕〗〙〛〞〟 々 〻 close / non-starters.
    if (
      cp === 0x3008 ||
      cp === 0x300a ||
      cp === 0x300c ||
      cp === 0x300e ||
      cp === 0x3010 ||
      cp === 0x3014 ||
      cp === 0x3016 ||
      cp === 0x3018 ||
      cp === 0x301a ||
      cp === 0x301d
    )
      return C.OP;
    if (
      cp === 0x3001 ||
      cp === 0x3002 ||
      cp === 0x3009 ||
      cp === 0x300b ||
      cp === 0x300d ||
      cp === 0x300f ||
      cp === 0x3011 ||
      cp === 0x3015 ||
      cp === 0x3017 ||
      cp === 0x3019 ||
      cp === 0x301b ||
      cp === 0x301e ||
      cp === 0x301f ||
      cp === 0x3005 ||
      cp === 0x303b
    )
      return C.CL;
    return C.ID;
  }
  if (cp >= 0x3040 && cp <= 0x30ff) {
    // Small kana, the prolonged sound mark and iteration marks do not start a line.
    if (
      SMALL_KANA.has(cp) ||
      cp === 0x30fc ||
      cp === 0x309d ||
      cp === 0x309e ||
      cp === 0x30fd ||
      cp === 0x30fe ||
      cp === 0x30fb
    )
      return C.CL;
    return C.ID;
  }
  if (cp >= 0xff00 && cp <= 0xffef) {
    // Fullwidth forms: （［｛｢ open; ）］｝，．：；！？｣ close; the rest (letters, digits) ideographic.
    if (cp === 0xff08 || cp === 0xff3b || cp === 0xff5b || cp === 0xff62) return C.OP;
    if (
      cp === 0xff09 ||
      cp === 0xff3d ||
      cp === 0xff5d ||
      cp === 0xff0c ||
      cp === 0xff0e ||
      cp === 0xff1a ||
      cp === 0xff1b ||
      cp === 0xff01 ||
      cp === 0xff1f ||
      cp === 0xff63 ||
      cp === 0xff61 ||
      cp === 0xff64
    )
      return C.CL;
    if (cp >= 0xff61) return C.AL; // halfwidth katakana behave like letters here
    return C.ID;
  }
  if (
    (cp >= 0x2e80 && cp <= 0x2fff) ||
    (cp >= 0x3100 && cp <= 0x31ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  )
    return C.ID;
  return C.AL;
}

const SMALL_KANA = new Set([
  0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085, 0x3087, 0x308e, 0x3095, 0x3096, 0x30a1, 0x30a3,
  0x30a5, 0x30a7, 0x30a9, 0x30c3, 0x30e3, 0x30e5, 0x30e7, 0x30ee, 0x30f5, 0x30f6,
]);

/** A letter or a digit (what a hyphen must stand between to end a line). */
function isAlphanumeric(cls: C, cp: number): boolean {
  return (
    cls === C.AL &&
    ((cp >= 0x30 && cp <= 0x39) || (cp > 0x40 && !(cp >= 0x5b && cp <= 0x60) && !(cp >= 0x7b && cp <= 0xbf)))
  );
}

/**
 * Break opportunities of `text`: `result[i]` is `BREAK` when a line may end before code unit `i`
 * (0 < i < text.length), `PULLED_BACK` after a solidus LibreOffice moves back to the whitespace
 * before it. Index 0 and text.length are never set: the caller decides what happens at the ends
 * of the text. One pass, no allocation besides the result.
 */
export function lineBreakOpportunities(text: string, from = 0): Uint8Array {
  const n = text.length;
  const out = new Uint8Array(n + 1);
  // State about what precedes position i: the class of the last non-CM character before any
  // spaces, whether spaces followed it, and the character before that (for hyphen rules).
  let prevCls: C | -1 = -1; // class of the previous base character (spaces included)
  let beforeSpaces: C | -1 = -1; // class of the last non-space base character
  let prevCp = -1;
  let prevPrevAlnum = false; // the character before a hyphen was a letter or digit
  let prevPrevDigit = false;
  let prevAt = -1; // index of the previous base character
  let i = 0;
  while (i < n) {
    const cp = text.codePointAt(i)!;
    const len = cp > 0xffff ? 2 : 1;
    let cls = classOf(cp);
    if (cls === C.QI) {
      cls = quoteClass(prevCls, prevCp);
      if (cls === C.OP && prevCls === C.SP) cls = C.QU;
    } else if (cls === C.CL && (cp === 0x201d || cp === 0x2019 || cp === 0xbb) && (prevCls === C.SP || prevCls === -1))
      cls = LETTER_AT.test(text.slice(i + 1, i + 3)) ? C.OP : prevCls === C.SP ? C.QU : C.CL;
    if (prevCls !== -1 && cls !== C.CM) {
      out[i] = allowed(prevCls, beforeSpaces, cls, prevPrevAlnum, isAlphanumeric(cls, cp)) ? BREAK : NO_BREAK;
      if (prevCp === 0x2f && isAlphanumeric(cls, cp) && !isHebrewLetter(cp) && !(prevPrevDigit && isDigit(cp)))
        out[i] = whitespaceBefore(text, prevAt, from) ? PULLED_BACK : BREAK;
      // UAX #14 LB31: closing punctuation, infix separators and ! ? may end a line before an
      // opening bracket (`Profile,|(2000)`, `end.|(note)`, `a)|(b)`), as LibreOffice wraps; not a
      // closing quotation mark (QU) or a solidus (see above).
      else if (
        cls === C.OP &&
        (prevCls === C.CL || prevCp === 0x25 || prevCp === 0x2d) &&
        !QUOTE_OR_SOLIDUS.has(prevCp)
      )
        out[i] = BREAK;
      // After ! ? (UAX #14 EX) and after a backslash (PR), before a letter or digit (LibreOffice wraps
      // `Wow!|Next`, `C:\Program|Files` without spaces so).
      else if ((prevCp === 0x21 || prevCp === 0x3f || prevCp === 0x5c) && isAlphanumeric(cls, cp)) out[i] = BREAK;
    }
    if (cls !== C.CM) {
      if (cls === C.SP) {
        if (prevCls !== C.SP) beforeSpaces = prevCls;
      } else beforeSpaces = -1;
      prevPrevAlnum = prevCls !== -1 && prevCp >= 0 && isAlphanumeric(prevCls as C, prevCp);
      prevPrevDigit = isDigit(prevCp);
      prevCls = cls;
      prevCp = cp;
      prevAt = i;
    }
    i += len;
  }
  return out;
}

/** Characters of our CL class that UAX #14 keeps glued to an opening bracket after them: quotes (QU), the solidus. */
const QUOTE_OR_SOLIDUS = new Set([0x2f, 0x2019, 0x201d, 0xbb, 0x2018, 0x201c, 0xab]);

/** UAX #14 HL: a solidus before a Hebrew letter is no break (LB21b). */
function isHebrewLetter(cp: number): boolean {
  return (cp >= 0x05d0 && cp <= 0x05f2) || (cp >= 0xfb1d && cp <= 0xfb4f);
}

function isDigit(cp: number): boolean {
  return cp >= 0x30 && cp <= 0x39;
}

/** Whitespace among the 65 characters before the solidus at `slash` (not before `from`), as LibreOffice looks for it. */
function whitespaceBefore(text: string, slash: number, from: number): boolean {
  for (let j = slash - 1; j >= Math.max(from, slash - 65); j--) {
    const c = text.charCodeAt(j);
    if (
      c === 0x20 ||
      c === 0x09 ||
      c === 0x0a ||
      c === 0x0d ||
      c === 0x3000 ||
      (c >= 0x2000 && c <= 0x200a && c !== 0x2007) ||
      c === 0x2028 ||
      c === 0x2029
    )
      return true;
  }
  return false;
}

/**
 * ” ’ » after a space and before a letter open a quotation (Arabic text types ” first; German
 * »so«): a line may end before them, as ICU lets LibreOffice (UAX #14 LB15b: a final quote keeps
 * off the line start only when it closes, before a space, punctuation or the end).
 */
const LETTER_AT = /^\p{L}/u;

/**
 * ‘ “ « (UAX #14 QU, initial punctuation) right after a word or its full stop close it, as German
 * writes „so“ and »so«: a line may then end after the spaces that follow, as LibreOffice wraps
 * them. Anywhere else (after a space, an opening bracket, an ideograph) they open a quotation.
 */
function quoteClass(prevCls: C | -1, prevCp: number): C {
  return prevCls === C.AL || prevCls === C.IN || (prevCls === C.CL && prevCp < 0x3000) ? C.CL : C.OP;
}

/** May a line end between a character of class `a` and the next one of class `b`? */
function allowed(a: C, beforeSp: C | -1, b: C, hyphenAfterAlnum: boolean, nextIsAlnum: boolean): boolean {
  if (a === C.GL || b === C.GL) return false;
  if (b === C.SP) return false; // spaces stay on the line they follow (after a zero-width space too)
  if (a === C.ZW) return true;
  if (b === C.CL) return false;
  if (a === C.SP) {
    // Opening punctuation followed by spaces still does not let the next character start a line.
    return beforeSp !== C.OP;
  }
  if (a === C.OP || a === C.QU) return false;
  // The ellipsis (UAX #14 LB22, LibreOffice measured): `Panik…|die`, `…|12`, `end.|…`, `word |…`.
  if (b === C.IN) return a === C.CL || a === C.BA || a === C.B2 || a === C.CB;
  if (a === C.IN) return b === C.AL || b === C.OP || b === C.ID || b === C.B2 || b === C.CB;
  if (a === C.CB || b === C.CB) return true;
  if (a === C.BA) return true;
  if (a === C.B2 || b === C.B2) return true;
  if (a === C.HY) return hyphenAfterAlnum && nextIsAlnum;
  if (a === C.ID || b === C.ID) return true;
  return false;
}

/** True for characters that separate words and stretch under justification. */
export function isBreakingSpace(code: number): boolean {
  return code === 0x20 || code === 0x3000 || (code >= 0x2000 && code <= 0x200a && code !== 0x2007);
}

/**
 * LibreOffice's line-breaking rules for Chinese text (runs whose East Asian language is Chinese),
 * measured on LibreOffice 7.4: it breaks between any two East Asian characters except before the
 * characters that may not start a line and after those that may not end one, lists that differ
 * between simplified (zh-CN) and traditional (zh-TW) Chinese. So `…` `‥` `・` may start a line,
 * while `︰` `･` `•` `·` may not (nor, in simplified Chinese, `～` `’` `”`); ASCII `(` `[` `{` end
 * none in either (measured: `{{name}}` too long for its cell is cut at the edge, not after `{`).
 */
const codes = (s: string) => new Set([...s].map((c) => c.codePointAt(0)!));
const HANGING_MARKS = "!,.:;?、。！，．：；？";
const ZH_RULES = {
  zh: {
    noStart: codes(
      HANGING_MARKS + ")]}¢·'\"〕〗〞﹚﹜）｝～︰︱︳﹐﹒﹔﹕﹖︴︶︸︺︼︾﹀﹂﹄﹏､￠々‖•ˇ―′’”〉》」』】",
    ),
    noEnd: codes("'\"([{£¥〈《「『【〔〖〝﹙﹛（［｛￡￥‵︵︷︹︻︽︿﹁﹃﹝“‘"),
  },
  "zh-Hant": {
    noStart: codes(HANGING_MARKS + ")]}¢·'\"〕〞﹚﹜）｝︰︱︳﹐﹒﹔﹕﹖︴︶︸︺︼︾﹀﹂﹄﹏､•′〉》」』】"),
    noEnd: codes("'\"([{£¥〈《「『【〔〝﹙﹛（｛‵︵︷︹︻︽︿﹁﹃﹝"),
  },
};
/** Characters that, beside an East Asian one, follow the Chinese rules rather than UAX #14's. */
const ZH_CONTEXT = codes("…‥・］［〗〖々’”‘“");

function isChineseContext(cp: number, rules: (typeof ZH_RULES)["zh"]): boolean {
  const cls = classOf(cp);
  return (
    cls === C.ID || cls === C.OP || cls === C.CL || rules.noStart.has(cp) || rules.noEnd.has(cp) || ZH_CONTEXT.has(cp)
  );
}

/**
 * Applies the Chinese rules of `variant` to `breaks` (from `lineBreakOpportunities(text)`) at every
 * position from `start` to `end` (a Chinese run's text; its edges included): between two characters
 * of East Asian text a break is allowed unless the lists forbid it; elsewhere UAX #14 stays.
 */
export function applyChineseBreaks(
  text: string,
  breaks: Uint8Array,
  start: number,
  end: number,
  variant: "zh" | "zh-Hant",
): void {
  const rules = ZH_RULES[variant];
  for (let i = Math.max(1, start); i <= Math.min(end, text.length - 1); i++) {
    const cp = text.codePointAt(i)!;
    if (cp >= 0xdc00 && cp <= 0xdfff) continue;
    const before = text.codePointAt(i - 1)!;
    const prev = before >= 0xdc00 && before <= 0xdfff && i >= 2 ? text.codePointAt(i - 2)! : before;
    if (rules.noStart.has(cp) || rules.noEnd.has(prev)) breaks[i] = 0;
    else if (isChineseContext(cp, rules) && isChineseContext(prev, rules)) breaks[i] = BREAK;
  }
}
