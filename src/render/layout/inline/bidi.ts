/**
 * Embedding levels of a paragraph's characters and the visual order of a line: the part of the
 * Unicode bidirectional algorithm (UAX #9) that Word documents need. The paragraph's base
 * direction is given (w:bidi), not guessed. Explicit embeddings, overrides and isolates
 * (U+202A..202E, U+2066..2069) are ignored (treated as boundary neutrals), so a paragraph is one
 * isolating run sequence: weak types (W1-W7), paired brackets (BD16, N0), neutrals (N1-N2),
 * implicit levels (I1-I2), and the line rules L1 (segment separators and the whitespace before
 * them go to the base level) and L2.
 */

type BidiClass = "L" | "R" | "AL" | "EN" | "ES" | "ET" | "AN" | "CS" | "NSM" | "BN" | "B" | "S" | "WS" | "ON";

const MARK = /[\p{Mn}\p{Me}]/u;
const LETTER_OR_NUMBER = /[\p{L}\p{N}\p{Mc}]/u;

/** Bidi class of a code point (UnicodeData.txt, by ranges; exact for Hebrew, Arabic, Latin and common punctuation). */
export function bidiClass(cp: number): BidiClass {
  if (cp < 0x80) {
    if (cp >= 0x30 && cp <= 0x39) return "EN";
    if ((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) return "L";
    if (cp === 0x20 || cp === 0x0c) return "WS";
    if (cp === 0x09 || cp === 0x0b || cp === 0x1f) return "S";
    if (cp === 0x0a || cp === 0x0d || (cp >= 0x1c && cp <= 0x1e)) return "B";
    if (cp < 0x20 || cp === 0x7f) return "BN";
    if (cp === 0x2b || cp === 0x2d) return "ES";
    if (cp >= 0x23 && cp <= 0x25) return "ET";
    if (cp === 0x2c || cp === 0x2e || cp === 0x2f || cp === 0x3a) return "CS";
    return "ON";
  }
  if (cp >= 0x0590 && cp <= 0x05ff) {
    if (
      (cp >= 0x0591 && cp <= 0x05bd) ||
      cp === 0x05bf ||
      cp === 0x05c1 ||
      cp === 0x05c2 ||
      cp === 0x05c4 ||
      cp === 0x05c5 ||
      cp === 0x05c7
    )
      return "NSM";
    return "R";
  }
  if (cp >= 0x0600 && cp <= 0x08ff && !(cp >= 0x07c0 && cp <= 0x089f)) return arabicClass(cp);
  if (
    (cp >= 0x07c0 && cp <= 0x089f) ||
    (cp >= 0xfb1d && cp <= 0xfb4f) ||
    (cp >= 0x10800 && cp <= 0x10fff) ||
    (cp >= 0x1e800 && cp <= 0x1efff)
  ) {
    if (cp === 0xfb1e || MARK.test(String.fromCodePoint(cp))) return "NSM";
    if (cp === 0xfb29) return "ES";
    return "R";
  }
  if ((cp >= 0xfb50 && cp <= 0xfdff) || (cp >= 0xfe70 && cp <= 0xfefe))
    return cp >= 0xfe00 && cp <= 0xfe0f ? "NSM" : cp === 0xfd3e || cp === 0xfd3f ? "ON" : "AL";
  if (cp === 0x200e) return "L";
  if (cp === 0x200f) return "R";
  if (cp === 0xa0 || cp === 0x202f || cp === 0x2044 || cp === 0xff0c || cp === 0xff0e || cp === 0xff0f || cp === 0xff1a)
    return "CS";
  if (
    cp === 0xad ||
    cp === 0x180e ||
    (cp >= 0x200b && cp <= 0x200d) ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2060 && cp <= 0x206f) ||
    cp === 0xfeff ||
    (cp >= 0x80 && cp <= 0x9f && cp !== 0x85)
  )
    return "BN";
  if (cp === 0x85 || cp === 0x2029) return "B";
  if (cp === 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp === 0x2028 || cp === 0x205f || cp === 0x3000) return "WS";
  if (
    cp === 0xb2 ||
    cp === 0xb3 ||
    cp === 0xb9 ||
    cp === 0x2070 ||
    (cp >= 0x2074 && cp <= 0x2079) ||
    (cp >= 0x2080 && cp <= 0x2089) ||
    (cp >= 0xff10 && cp <= 0xff19) ||
    (cp >= 0x1d7ce && cp <= 0x1d7ff)
  )
    return "EN";
  if (
    cp === 0x207a ||
    cp === 0x207b ||
    cp === 0x208a ||
    cp === 0x208b ||
    cp === 0x2212 ||
    cp === 0xfe62 ||
    cp === 0xfe63 ||
    cp === 0xff0b ||
    cp === 0xff0d
  )
    return "ES";
  if (
    (cp >= 0xa2 && cp <= 0xa5) ||
    cp === 0xb0 ||
    cp === 0xb1 ||
    (cp >= 0x20a0 && cp <= 0x20cf) ||
    (cp >= 0x2030 && cp <= 0x2034) ||
    cp === 0x212e ||
    cp === 0x2213 ||
    cp === 0xfe5f ||
    cp === 0xfe69 ||
    cp === 0xfe6a ||
    (cp >= 0xff03 && cp <= 0xff05) ||
    cp === 0xffe0 ||
    cp === 0xffe1 ||
    cp === 0xffe5 ||
    cp === 0xffe6
  )
    return "ET";
  const ch = String.fromCodePoint(cp);
  if (MARK.test(ch)) return "NSM";
  return LETTER_OR_NUMBER.test(ch) ? "L" : "ON";
}

function arabicClass(cp: number): BidiClass {
  if (
    (cp >= 0x0600 && cp <= 0x0605) ||
    (cp >= 0x0660 && cp <= 0x0669) ||
    cp === 0x066b ||
    cp === 0x066c ||
    cp === 0x06dd ||
    cp === 0x08e2
  )
    return "AN";
  if (cp >= 0x06f0 && cp <= 0x06f9) return "EN";
  if (cp === 0x0609 || cp === 0x060a || cp === 0x066a) return "ET";
  if (cp === 0x060c) return "CS";
  if (cp === 0x061c) return "AL"; // ALM acts as an Arabic letter for the neighbouring numbers
  if (cp === 0x0606 || cp === 0x0607 || cp === 0x060e || cp === 0x060f || cp === 0x06de || cp === 0x06e9) return "ON";
  if (
    (cp >= 0x0610 && cp <= 0x061a) ||
    (cp >= 0x064b && cp <= 0x065f) ||
    cp === 0x0670 ||
    (cp >= 0x06d6 && cp <= 0x06dc) ||
    (cp >= 0x06df && cp <= 0x06e4) ||
    cp === 0x06e7 ||
    cp === 0x06e8 ||
    (cp >= 0x06ea && cp <= 0x06ed) ||
    cp === 0x0711 ||
    (cp >= 0x0730 && cp <= 0x074a) ||
    (cp >= 0x07a6 && cp <= 0x07b0) ||
    (cp >= 0x08d3 && cp <= 0x08ff && cp !== 0x08e2)
  )
    return "NSM";
  return "AL";
}

/**
 * Resolved embedding level of each UTF-16 code unit of `text` (a low surrogate gets its pair's
 * level) for a paragraph of base level 0 (left to right) or 1 (right to left). Paragraph
 * separators inside the text (line breaks are "\n" in our atoms) only reset to the base level.
 */
export function resolveLevels(text: string, base: 0 | 1): Uint8Array {
  const n = text.length;
  const levels = new Uint8Array(n).fill(base);
  if (n === 0) return levels;
  if (base === 0 && !mayHoldRtl(text)) return levels;
  const cls: BidiClass[] = new Array(n);
  let anyStrongRtl = false;
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xdc00 && code <= 0xdfff && i > 0) {
      cls[i] = cls[i - 1]!;
      continue;
    }
    const c = bidiClass(text.codePointAt(i)!);
    cls[i] = c;
    if (c === "R" || c === "AL" || c === "AN") anyStrongRtl = true;
  }
  // Nothing right to left in a left-to-right paragraph: every level is 0.
  if (base === 0 && !anyStrongRtl) return levels;
  const original = cls.slice();
  const sos: BidiClass = base ? "R" : "L";

  // X9 (approximated): boundary neutrals (ZWNJ, ZWJ, soft hyphen) take the class of what precedes
  // them, like marks. W1: marks take the class of the previous character.
  for (let i = 0; i < n; i++) if (cls[i] === "NSM" || cls[i] === "BN") cls[i] = i > 0 ? cls[i - 1]! : sos;
  // W2, W3: European digits after Arabic letters are Arabic numbers; AL becomes R.
  let lastStrong: BidiClass = sos;
  for (let i = 0; i < n; i++) {
    const c = cls[i]!;
    if (c === "L" || c === "R" || c === "AL") lastStrong = c;
    else if (c === "B") lastStrong = sos;
    else if (c === "EN" && lastStrong === "AL") cls[i] = "AN";
  }
  for (let i = 0; i < n; i++) if (cls[i] === "AL") cls[i] = "R";
  // W4: one separator between two numbers of the same kind joins them.
  for (let i = 1; i < n - 1; i++) {
    const c = cls[i]!;
    const a = cls[i - 1]!;
    const b = cls[i + 1]!;
    if (c === "ES" && a === "EN" && b === "EN") cls[i] = "EN";
    else if (c === "CS" && a === b && (a === "EN" || a === "AN")) cls[i] = a;
  }
  // W5: terminators next to European digits are European digits.
  for (let i = 0; i < n; i++) {
    if (cls[i] !== "ET") continue;
    let j = i;
    while (j < n && cls[j] === "ET") j++;
    const touches = (i > 0 && cls[i - 1] === "EN") || (j < n && cls[j] === "EN");
    for (let k = i; k < j; k++) cls[k] = touches ? "EN" : "ON";
    i = j - 1;
  }
  // W6: other separators and terminators are neutral. W7: European digits after L are L.
  lastStrong = sos;
  for (let i = 0; i < n; i++) {
    const c = cls[i]!;
    if (c === "ES" || c === "CS" || c === "ET") cls[i] = "ON";
    else if (c === "L" || c === "R") lastStrong = c;
    else if (c === "B") lastStrong = sos;
    else if (c === "EN" && lastStrong === "L") cls[i] = "L";
  }
  const strongDir = (c: BidiClass): "L" | "R" | null =>
    c === "L" ? "L" : c === "R" || c === "EN" || c === "AN" ? "R" : null;
  pairedBrackets(text, original, cls, base ? "R" : "L", sos, strongDir);
  // N1, N2: a run of neutrals between two strong types of the same direction (numbers count as
  // R) takes it; otherwise the embedding direction.
  for (let i = 0; i < n; i++) {
    if (strongDir(cls[i]!) || cls[i] === "B") continue;
    let j = i;
    while (j < n && !strongDir(cls[j]!) && cls[j] !== "B") j++;
    const before = i > 0 && cls[i - 1] !== "B" ? strongDir(cls[i - 1]!)! : sos;
    const after = j < n && cls[j] !== "B" ? strongDir(cls[j]!)! : sos;
    const dir = before === after ? before : sos;
    for (let k = i; k < j; k++) cls[k] = dir;
    i = j - 1;
  }
  // I1, I2: implicit levels.
  for (let i = 0; i < n; i++) {
    const c = cls[i]!;
    if (base === 0) levels[i] = c === "R" ? 1 : c === "AN" || c === "EN" ? 2 : 0;
    else levels[i] = c === "L" || c === "EN" || c === "AN" ? 2 : 1;
  }
  // L1: separators, and whitespace before them or at the end, go back to the base level.
  let trailing = true;
  for (let i = n - 1; i >= 0; i--) {
    const o = original[i]!;
    if (o === "S" || o === "B") {
      levels[i] = base;
      trailing = true;
    } else if (trailing && (o === "WS" || o === "BN")) levels[i] = base;
    else trailing = false;
  }
  return levels;
}

/** Opening paired brackets (Bidi_Paired_Bracket_Type Open) → their closing bracket. */
const BRACKET_PAIRS = new Map<number, number>([
  [0x28, 0x29],
  [0x5b, 0x5d],
  [0x7b, 0x7d],
  [0x0f3a, 0x0f3b],
  [0x0f3c, 0x0f3d],
  [0x169b, 0x169c],
  [0x2045, 0x2046],
  [0x207d, 0x207e],
  [0x208d, 0x208e],
  [0x2308, 0x2309],
  [0x230a, 0x230b],
  [0x2329, 0x232a],
  [0x27c5, 0x27c6],
  [0xfe59, 0xfe5a],
  [0xfe5b, 0xfe5c],
  [0xfe5d, 0xfe5e],
  [0xff08, 0xff09],
  [0xff3b, 0xff3d],
  [0xff5b, 0xff5d],
  [0xff5f, 0xff60],
  [0xff62, 0xff63],
]);
for (const [from, to] of [
  [0x2768, 0x2775],
  [0x27e6, 0x27ef],
  [0x2983, 0x2998],
  [0x29d8, 0x29db],
  [0x2e22, 0x2e29],
  [0x3008, 0x3011],
  [0x3014, 0x301b],
] as const) {
  for (let c = from; c < to; c += 2) BRACKET_PAIRS.set(c, c + 1);
}
BRACKET_PAIRS.set(0x29fc, 0x29fd);
const CLOSING = new Set(BRACKET_PAIRS.values());
/** U+2329/232A are canonically equivalent to U+3008/3009 (BD16 compares canonical equivalents). */
const canonicalBracket = (cp: number): number => (cp === 0x2329 ? 0x3008 : cp === 0x232a ? 0x3009 : cp);

/**
 * BD16 and N0: a pair of brackets (neutral after the weak rules) takes the embedding direction when
 * a strong type of that direction stands between them; else, when only the opposite direction
 * does, that direction if the text before the opening bracket has it too (else the embedding
 * direction); with no strong type inside they are left to N1/N2. So in a right-to-left paragraph
 * "Context (with hint)" keeps its closing bracket after "hint", as LibreOffice (ICU) lays it out.
 * Marks after a bracket follow it.
 */
function pairedBrackets(
  text: string,
  original: BidiClass[],
  cls: BidiClass[],
  e: "L" | "R",
  sos: BidiClass,
  strongDir: (c: BidiClass) => "L" | "R" | null,
): void {
  const stack: { close: number; at: number }[] = [];
  const pairs: [number, number][] = [];
  for (let i = 0; i < text.length; i++) {
    if (cls[i] !== "ON") continue;
    const cp = text.charCodeAt(i);
    const close = BRACKET_PAIRS.get(cp);
    if (close !== undefined) {
      if (stack.length === 63) break; // BD16: overflow stops the search
      stack.push({ close: canonicalBracket(close), at: i });
    } else if (CLOSING.has(cp)) {
      const want = canonicalBracket(cp);
      for (let k = stack.length - 1; k >= 0; k--) {
        if (stack[k]!.close !== want) continue;
        pairs.push([stack[k]!.at, i]);
        stack.length = k;
        break;
      }
    }
  }
  if (!pairs.length) return;
  pairs.sort((a, b) => a[0] - b[0]);
  const opposite = e === "L" ? "R" : "L";
  for (const [open, close] of pairs) {
    let inside: "L" | "R" | null = null;
    for (let k = open + 1; k < close; k++) {
      const d = strongDir(cls[k]!);
      if (d === e) {
        inside = e;
        break;
      }
      if (d) inside = d;
    }
    if (!inside) continue;
    let dir: "L" | "R" = e;
    if (inside === opposite) {
      let before: "L" | "R" = strongDir(sos)!;
      for (let k = open - 1; k >= 0; k--) {
        if (cls[k] === "B") break;
        const d = strongDir(cls[k]!);
        if (d) {
          before = d;
          break;
        }
      }
      if (before === opposite) dir = opposite;
    }
    for (const at of [open, close]) {
      cls[at] = dir;
      for (let k = at + 1; k < text.length && (original[k] === "NSM" || original[k] === "BN"); k++) cls[k] = dir;
    }
  }
}

/** Cheap screen: no code unit of a right-to-left script or mark (most left-to-right paragraphs). */
function mayHoldRtl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x0590) continue;
    if (
      c <= 0x08ff ||
      c === 0x200f ||
      (c >= 0x202a && c <= 0x202e) ||
      (c >= 0xfb1d && c <= 0xfefe) ||
      c === 0xd802 ||
      c === 0xd803 ||
      c === 0xd83a ||
      c === 0xd83b
    )
      return true;
  }
  return false;
}

/**
 * L2: the visual order (left to right) of a line's runs given their levels in logical order:
 * from the highest level down to the lowest odd level, every stretch at that level or higher is
 * reversed. Returns indices into `levels`.
 */
export function visualOrderOfLevels(levels: readonly number[]): number[] {
  const order = levels.map((_, i) => i);
  if (levels.length === 0) return order;
  let highest = 0;
  let lowestOdd = Infinity;
  for (const l of levels) {
    if (l > highest) highest = l;
    if (l % 2 === 1 && l < lowestOdd) lowestOdd = l;
  }
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < order.length; i++) {
      if (levels[order[i]!]! < level) continue;
      let j = i;
      while (j < order.length && levels[order[j]!]! >= level) j++;
      const stretch = order.slice(i, j).reverse();
      for (let k = 0; k < stretch.length; k++) order[i + k] = stretch[k]!;
      i = j;
    }
  }
  return order;
}

const MIRROR_PAIRS = "()<>[]{}«»‹›⁅⁆⁽⁾₍₎≤≥≦≧≪≫⟨⟩⟪⟫⦃⦄〈〉《》「」『』【】〔〕〖〗〘〙〚〛﹙﹚﹛﹜﹝﹞（）＜＞［］｛｝｢｣";
const MIRROR = new Map<string, string>();
for (let i = 0; i + 1 < MIRROR_PAIRS.length; i += 2) {
  MIRROR.set(MIRROR_PAIRS[i]!, MIRROR_PAIRS[i + 1]!);
  MIRROR.set(MIRROR_PAIRS[i + 1]!, MIRROR_PAIRS[i]!);
}

/** The mirror image of a character drawn at an odd (right-to-left) level (Bidi_Mirroring_Glyph, common pairs), or itself. */
export function mirrorChar(ch: string): string {
  return MIRROR.get(ch) ?? ch;
}
