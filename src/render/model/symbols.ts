/**
 * Characters of the Symbol and Wingdings fonts (as w:sym and bullet level texts use them,
 * often in the U+F0xx private range) mapped to Unicode, so any text font can draw them.
 */

const WINGDINGS: Record<number, string> = {
  0x6c: "●",
  0x6e: "■",
  0x6f: "□",
  0x71: "❑",
  0x72: "❒",
  0x73: "⬧",
  0x74: "⧫",
  0x75: "◆",
  0x76: "❖",
  0x77: "⬥",
  0x9f: "•",
  0xa1: "○",
  0xa7: "▪",
  0xa8: "◻",
  0xaa: "✦",
  0xab: "★",
  0xd8: "➢",
  0xe0: "➔",
  0xe8: "➔",
  0xef: "⇦",
  0xf0: "⇨",
  0xfb: "✗",
  0xfc: "✓",
  0xfd: "☒",
  0xfe: "☑",
  0x6d: "❍",
  0x70: "◻",
  0x46: "☞",
  0x4a: "☺",
  0x4c: "☹",
  0x28: "☎",
  0x2a: "✉",
  0x3f: "✍",
  0xa2: "◉",
  0x9e: "·",
};

const SYMBOL: Record<number, string> = {
  // Adobe's Symbol encoding (the letters are GREEK/greek below, ASCII punctuation maps to itself).
  0x20: " ",
  0x22: "∀",
  0x24: "∃",
  0x27: "∋",
  0x2a: "∗",
  0x2d: "−",
  0x40: "≅",
  0x5c: "∴",
  0x5e: "⊥",
  0x60: "‾",
  0x7e: "∼",
  0xa0: "€",
  0xa1: "ϒ",
  0xa2: "′",
  0xa3: "≤",
  0xa4: "⁄",
  0xa5: "∞",
  0xa6: "ƒ",
  0xa7: "♣",
  0xa8: "♦",
  0xa9: "♥",
  0xaa: "♠",
  0xab: "↔",
  0xac: "←",
  0xad: "↑",
  0xae: "→",
  0xaf: "↓",
  0xb0: "°",
  0xb1: "±",
  0xb2: "″",
  0xb3: "≥",
  0xb4: "×",
  0xb5: "∝",
  0xb6: "∂",
  0xb7: "•",
  0xb8: "÷",
  0xb9: "≠",
  0xba: "≡",
  0xbb: "≈",
  0xbc: "…",
  0xbd: "⏐",
  0xbe: "⎯",
  0xbf: "↵",
  0xc0: "ℵ",
  0xc1: "ℑ",
  0xc2: "ℜ",
  0xc3: "℘",
  0xc4: "⊗",
  0xc5: "⊕",
  0xc6: "∅",
  0xc7: "∩",
  0xc8: "∪",
  0xc9: "⊃",
  0xca: "⊇",
  0xcb: "⊄",
  0xcc: "⊂",
  0xcd: "⊆",
  0xce: "∈",
  0xcf: "∉",
  0xd0: "∠",
  0xd1: "∇",
  0xd2: "®",
  0xd3: "©",
  0xd4: "™",
  0xd5: "∏",
  0xd6: "√",
  0xd7: "⋅",
  0xd8: "¬",
  0xd9: "∧",
  0xda: "∨",
  0xdb: "⇔",
  0xdc: "⇐",
  0xdd: "⇑",
  0xde: "⇒",
  0xdf: "⇓",
  0xe0: "◊",
  0xe1: "〈",
  0xe2: "®",
  0xe3: "©",
  0xe4: "™",
  0xe5: "∑",
  0xf1: "〉",
  0xf2: "∫",
  // Pieces of tall brackets, braces and integrals (Equation Editor builds big delimiters from them).
  0xe6: "⎛",
  0xe7: "⎜",
  0xe8: "⎝",
  0xe9: "⎡",
  0xea: "⎢",
  0xeb: "⎣",
  0xec: "⎧",
  0xed: "⎨",
  0xee: "⎩",
  0xef: "⎪",
  0xf3: "⌠",
  0xf4: "⎮",
  0xf5: "⌡",
  0xf6: "⎞",
  0xf7: "⎟",
  0xf8: "⎠",
  0xf9: "⎤",
  0xfa: "⎥",
  0xfb: "⎦",
  0xfc: "⎫",
  0xfd: "⎬",
  0xfe: "⎭",
};
const GREEK = "ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ";
const greek = "αβχδεφγηιϕκλμνοπθρστυϖωξψζ";

/** Whether the font is a symbol font whose characters we remap. */
export function isSymbolFont(font: string | undefined): boolean {
  if (!font) return false;
  const f = font.toLowerCase();
  return f === "symbol" || f.startsWith("wingdings") || f === "webdings" || f === "zapfdingbats";
}

/**
 * Whether LibreOffice draws this symbol font's bullets and w:sym characters with OpenSymbol, its own
 * symbol font (its recoding of Symbol and Wingdings code points; measured: the bullet's width and a
 * line as tall as OpenSymbol's, also where fontconfig maps the font name to another face).
 */
export function drawnWithOpenSymbol(font: string | undefined): boolean {
  const f = font?.toLowerCase() ?? "";
  return f === "symbol" || f.startsWith("wingdings");
}

/** One symbol-font character → Unicode; undefined when we know no mapping. */
export function mapSymbolChar(font: string, code: number): string | undefined {
  const c = code >= 0xf000 && code <= 0xf0ff ? code - 0xf000 : code;
  const f = font.toLowerCase();
  if (f === "symbol") {
    if (SYMBOL[c]) return SYMBOL[c];
    if (c >= 0x41 && c <= 0x5a) return GREEK[c - 0x41];
    if (c >= 0x61 && c <= 0x7a) return greek[c - 0x61];
    if (c >= 0x20 && c < 0x7f) return String.fromCharCode(c);
    return undefined;
  }
  if (f.startsWith("wingdings") || f === "webdings" || f === "zapfdingbats") return WINGDINGS[c];
  return undefined;
}

/** Maps a whole string written in a symbol font; unknown private-use characters become a bullet. */
export function mapSymbolText(font: string, text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    const mapped = mapSymbolChar(font, code);
    out += mapped ?? (code >= 0xf000 && code <= 0xf0ff ? "•" : ch);
  }
  return out;
}
