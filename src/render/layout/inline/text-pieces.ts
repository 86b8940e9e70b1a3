/**
 * A run's text cut into pieces: which of the run's fonts (Latin, East Asian, complex script) and
 * which face (the font's own, a glyph fallback, a stand-in's script face) draws each stretch, at
 * what size and rise, and where its words and spaces end.
 */
import { LIMITS } from "../../../limits";
import { hasEastAsian, isEastAsian, isEastAsianShared } from "../../fonts/east-asian";
import type { FontBook, FontFace } from "../../fonts/types";
import type { RunStyle } from "../../model/types";
import { shapeFlags, shapedWidth } from "./shaping";
import { bidiClass } from "./bidi";
import { isBreakingSpace, PULLED_BACK } from "./line-break";
import { SMALL_CAPS_SCALE, SUPERSCRIPT_SCALE, type Atom, type Piece } from "./piece";
import { isComplexScript, isLamAlefTail, isMark, isRtlChar } from "./script";
import { scriptClass } from "../../model/script-class";

export function baseOf(style: RunStyle, face?: FontFace): { size: number; rise: number } {
  const position = positionRise(style, face);
  if (style.vertAlign === "baseline") return { size: style.size, rise: position };
  const size = style.size * SUPERSCRIPT_SCALE;
  if (!face) return { size, rise: position };
  if (style.vertAlign === "superscript") return { size, rise: face.ascent(style.size) - face.ascent(size) + position };
  return { size, rise: -(face.descent(style.size) - face.descent(size)) + position };
}

/**
 * w:position as LibreOffice draws it: imported as a whole percentage of the run size, applied to
 * the font's line height (measured: +3 pt at 12 pt Carlito raises 3.6 pt, -2 pt lowers 2.5 pt).
 */
function positionRise(style: RunStyle, face?: FontFace): number {
  if (!style.position || !face || style.size <= 0) return style.position;
  const percent = Math.round((style.position / style.size) * 100);
  return (percent / 100) * face.lineHeight(style.size);
}

/**
 * Characters LibreOffice sets as complex script whatever they are (SwScriptInfo::InitScriptInfo):
 * those at a right-to-left bidi level, and those at an embedded left-to-right level holding no
 * letter (numbers in right-to-left text). Not `w:rtl`: its digits in a left-to-right paragraph are
 * Latin (measured: "25" of a w:rtl run takes w:sz and the Latin font, "36" in a bidi paragraph
 * w:szCs and the complex font, and so do a non-w:rtl run's Arabic letters).
 */
export function complexByLevel(text: string, levels: Uint8Array): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length;) {
    const level = levels[i]!;
    let j = i + 1;
    while (j < text.length && levels[j] === level) j++;
    if (level % 2 === 1 || (level > 0 && !/\p{L}/u.test(text.slice(i, j)))) out.fill(1, i, j);
    i = j;
  }
  return out;
}

/**
 * Which of the run's fonts draws a code point: 0 Latin, 1 East Asian, 2 complex script.
 * `asianAround`: the text around it is East Asian (see `eastAsianContext`).
 */
function fontSlot(cp: number, style: RunStyle, asianAround: boolean): 0 | 1 | 2 {
  if (isComplexScript(cp)) return 2;
  // East Asian text is always in the East Asian slot (its face also gives the line metrics, as in
  // LibreOffice), even when the run names one font for all scripts. Shared punctuation and symbols
  // with w:hint="eastAsia" go there only among East Asian text: LibreOffice 7.4 gives them the
  // script of the text around them (measured: a hinted “ or ☐ beside Latin text or alone is drawn
  // with the Latin font and keeps its line, beside ideographs with the East Asian one).
  if (isEastAsian(cp) || (style.eastAsiaHint && isEastAsianShared(cp) && asianAround)) return 1;
  return 0;
}

const LETTER = /\p{L}/u;

/**
 * 1 where the nearest letter before a character (after it, at the paragraph's start) is East
 * Asian: the script LibreOffice gives the shared characters there (digits are shared too).
 * Undefined when the paragraph has no East Asian letter (every such character is Latin then).
 */
export function eastAsianContext(text: string): Uint8Array | undefined {
  if (!hasEastAsian(text)) return undefined;
  const out = new Uint8Array(text.length);
  let last = -1; // -1 before the first letter, then 1 East Asian, 0 other
  let leading = 0; // code units before the first letter
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i)!;
    const asian = isEastAsian(cp);
    if (asian || (cp < 0x80 ? (cp | 0x20) >= 0x61 && (cp | 0x20) <= 0x7a : LETTER.test(String.fromCodePoint(cp)))) {
      if (last === -1 && asian) out.fill(1, 0, leading);
      last = asian ? 1 : 0;
    } else if (last === -1) leading = i + (cp > 0xffff ? 2 : 1);
    if (last === 1) out[i] = 1;
    if (cp > 0xffff) out[++i] = out[i - 1]!;
  }
  return out;
}

// Private-use and unassigned code points (script Unknown) are left out: not measured (LibreOffice
// draws the private-use ones of Chinese documents with OpenSymbol).
const COMMON = /\p{Script=Common}/u;

/**
 * 1 for each weak character (LibreOffice's script class: symbols, math operators, arrows, general
 * punctuation, not spaces) whose paragraph's last strong character before it is East Asian: it is
 * East Asian text to LibreOffice (SwScriptInfo gives a weak character the script before it, across
 * runs) and is set with the run's East Asian font. Measured: the − of "〒１２３−４５６７", also with
 * "１２３" and "−４５６７" in two runs, and ℃ ※ … — → ① ■ ★ between ideographs; after "abc", or at
 * the paragraph's start, − stays Latin. Undefined when the paragraph has no East Asian character.
 */
export function weakAfterAsian(text: string): Uint8Array | undefined {
  if (!hasEastAsian(text)) return undefined;
  const out = new Uint8Array(text.length);
  let asian = false;
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i)!;
    const cls = scriptClass(cp);
    if (cls !== "weak") asian = cls === "asian";
    else if (asian && cp >= 0x590 && COMMON.test(String.fromCodePoint(cp))) out[i] = 1;
    if (cp > 0xffff) out[++i] = out[i - 1]!;
  }
  return out;
}

export function textPieces(
  atom: Atom,
  breaks: Uint8Array,
  levels: Uint8Array,
  complex: Uint8Array,
  latin: Uint8Array,
  asianContext: Uint8Array | undefined,
  asianWeak: Uint8Array | undefined,
  fonts: FontBook,
  out: Piece[],
  bidi: boolean,
): void {
  const { text } = atom;
  const style = atom.style;
  // 1. Script runs (which family), 2. faces (fallback for missing glyphs), 3. words and spaces.
  let runStart = 0;
  let runSlot = -1;
  const flushRun = (endIdx: number) => {
    if (endIdx <= runStart) return;
    const family =
      runSlot === 2
        ? (style.fontComplex ?? style.font)
        : runSlot === 1
          ? (style.fontEastAsia ?? style.font)
          : style.font;
    let offset = runStart;
    const req = { family, bold: style.bold, italic: style.italic, eastAsian: runSlot === 1 };
    const runText = text.slice(runStart, endIdx);
    // Most runs need no fallback face: skip the font book's per-character split for them.
    const primary = fonts.face(req);
    // Complex-script characters take w:szCs, the others w:sz, whatever the run's w:rtl.
    const size =
      runSlot === 2 ? (style.rtl ? style.size : (style.sizeComplex ?? style.size)) : (style.sizeLatin ?? style.size);
    const base = baseOf(size === style.size ? style : { ...style, size }, primary);
    // East Asian text takes the line of the face fontconfig matches its font and language with;
    // shared punctuation and symbols put there by w:hint="eastAsia" alone take the Latin face's
    // (LibreOffice 7.4 gives them the script of the text around them: a hinted ☐ before Latin text
    // or alone keeps a 10 pt Calibri line at 12.2 pt).
    const metrics =
      runSlot !== 1
        ? primary
        : hasEastAsian(runText)
          ? fonts.eastAsianLineFace(req, style.eastAsiaLang)
          : fonts.face({ family: style.font, bold: style.bold, italic: style.italic });
    // Digits and punctuation with no letter in a bidi paragraph are complex script to LibreOffice:
    // a stand-in draws them with its right-to-left face (measured: "93" in IRNazli, DejaVu Sans).
    const weak = bidi && !/\p{L}/u.test(runText) ? bidiStandIn(family, style, primary, fonts) : undefined;
    if (weak) {
      // Characters neither face has (﴾ ﴿) still fall back (Noto Sans Arabic, as in LibreOffice).
      const own = coversAll(primary, runText) ? [{ text: runText, face: primary }] : fonts.split(runText, req);
      for (const part of wholeRunInScriptFace(own, primary, weak)) {
        wordPieces(atom, offset, part.text, part.face, weak, base, breaks, levels, out);
        offset += part.text.length;
      }
      return;
    }
    if (coversAll(primary, runText)) {
      wordPieces(atom, offset, runText, primary, metrics, base, breaks, levels, out);
      return;
    }
    const parts = fonts.split(runText, req);
    const script = isStandIn(family, primary) ? scriptFaceOf(parts, primary) : undefined;
    const from = out.length;
    const at0 = atom.start + offset;
    for (const part of script
      ? wholeRunInScriptFace(parts, primary, script, (i) => latin[at0 + i] === 1)
      : spacesInPrimary(parts, primary)) {
      wordPieces(
        atom,
        offset,
        part.text,
        part.face,
        script && !("latin" in part && part.latin) ? script : metrics,
        base,
        breaks,
        levels,
        out,
      );
      offset += part.text.length;
    }
    const portion = {};
    // East Asian text's own face is the one LibreOffice's Asian font resolves to (its line face):
    // where that is not Droid Sans Fallback, the ideographs Droid draws are its glyph fallback and
    // are written after it (measured: "□供应商" after 宋体 text, □ DejaVu Sans then 供应商 Droid).
    const own = script ?? (runSlot === 1 && metrics !== primary && hasEastAsian(runText) ? metrics : primary);
    for (let i = from; i < out.length; i++) {
      out[i]!.portion = portion;
      if (out[i]!.face !== own) out[i]!.fallback = true;
    }
  };
  const oneFont =
    !style.fontComplex &&
    style.sizeComplex === undefined &&
    style.sizeLatin === undefined &&
    !style.eastAsiaHint &&
    !hasEastAsian(text);
  if (oneFont) {
    runSlot = 0;
    flushRun(text.length);
    return;
  }
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i)!;
    // Spaces and punctuation stay in the current run's font.
    const slot = complex[atom.start + i]
      ? 2
      : cp < 0x590
        ? 0
        : asianWeak?.[atom.start + i] === 1
          ? 1
          : runSlot >= 0 && !isLetterOrDigit(cp) && cp !== 0x3000
            ? runSlot
            : fontSlot(cp, style, asianContext?.[atom.start + i] === 1);
    if (slot !== runSlot) {
      flushRun(i);
      runStart = i;
      runSlot = slot;
    }
    if (cp > 0xffff) i++;
  }
  flushRun(text.length);
}

/**
 * The face standing in for a stand-in's right-to-left run: the one drawing most of its letters
 * (others only fill in glyphs it lacks, such as Quranic marks, and do not change the line height).
 */
function scriptFaceOf(parts: { text: string; face: FontFace }[], primary: FontFace): FontFace | undefined {
  let best: FontFace | undefined;
  let most = 0;
  const count = new Map<FontFace, number>();
  for (const part of parts) {
    if (part.face === primary || !RTL_LETTER.test(part.text)) continue;
    const n = (count.get(part.face) ?? 0) + part.text.length;
    count.set(part.face, n);
    if (n > most) [best, most] = [part.face, n];
  }
  return best;
}

/** The face a stand-in gets for right-to-left text (the one drawing Arabic letters), if `primary` is a stand-in. */
export function bidiStandIn(family: string, style: RunStyle, primary: FontFace, fonts: FontBook): FontFace | undefined {
  if (!isStandIn(family, primary)) return undefined;
  return fonts.split("\u0627", { family, bold: style.bold, italic: style.italic }).find((part) => part.face !== primary)
    ?.face;
}

const RTL_LETTER = /[\u0590-\u08ff\ufb1d-\ufefe]/;

/**
 * A stand-in's run with right-to-left letters: digits, spaces and punctuation are drawn by the
 * face that draws the letters too (where it has them), as LibreOffice substitutes the whole run.
 * Characters in a left-to-right level run holding a Latin letter (`latin`, from `latinRuns`) keep
 * the run's own face: LibreOffice gives text at an even level its own script's font, and only
 * right-to-left runs and the numbers embedded in them the complex-script one (measured:
 * "www.aqeedeh.com 12" in an IRMitra run among Persian words is Noto Sans, the Persian DejaVu Sans).
 */
function wholeRunInScriptFace(
  parts: { text: string; face: FontFace }[],
  primary: FontFace,
  script: FontFace,
  latin?: (i: number) => boolean,
): { text: string; face: FontFace; latin?: boolean }[] {
  const out: { text: string; face: FontFace; latin?: boolean }[] = [];
  let at = 0;
  for (const part of parts) {
    if (part.face !== primary || !latin) {
      const face =
        part.face === primary && [...part.text].every((c) => script.covers(c.codePointAt(0)!)) ? script : part.face;
      const last = out[out.length - 1];
      if (last && last.face === face && !last.latin) last.text += part.text;
      else out.push({ text: part.text, face });
      at += part.text.length;
      continue;
    }
    for (const ch of part.text) {
      const keep = latin(at);
      const face = !keep && script.covers(ch.codePointAt(0)!) ? script : primary;
      const last = out[out.length - 1];
      if (last && last.face === face && !last.latin === !keep) last.text += ch;
      else out.push(keep ? { text: ch, face, latin: true } : { text: ch, face });
      at += ch.length;
    }
  }
  return out;
}

/**
 * 1 for each character in a left-to-right level run (an even level) that holds a strong
 * left-to-right character: there LibreOffice chooses the font by the characters' own script.
 */
export function latinRuns(text: string, levels: Uint8Array): Uint8Array {
  const out = new Uint8Array(text.length);
  let start = 0;
  while (start < text.length) {
    let end = start;
    let strong = false;
    while (end < text.length && levels[end] === levels[start]) {
      if (!strong && bidiClass(text.codePointAt(end)!) === "L") strong = true;
      end++;
    }
    if (strong && levels[start]! % 2 === 0) out.fill(1, start, end);
    start = end;
  }
  return out;
}

/**
 * Spaces between right-to-left words another face draws stay in the run's own (known) face when
 * it has them, as in LibreOffice (measured: Arabic in a Times New Roman run is drawn with DejaVu Sans,
 * its spaces with Tinos, 3.0 pt at 12 pt where DejaVu Sans's would be 3.8 pt).
 */
function spacesInPrimary(
  parts: { text: string; face: FontFace }[],
  primary: FontFace,
): { text: string; face: FontFace }[] {
  if (!primary.covers(0x20)) return parts;
  const out: { text: string; face: FontFace }[] = [];
  for (const part of parts) {
    if (
      part.face === primary ||
      !part.text.includes(" ") ||
      !isRtlChar(part.text.codePointAt(part.text.search(/[^ ]/))!)
    ) {
      out.push(part);
      continue;
    }
    for (const bit of part.text.split(/( +)/))
      if (bit) out.push({ text: bit, face: bit[0] === " " ? primary : part.face });
  }
  return out;
}

/**
 * A family we do not know, drawn with the generic Noto face. For its right-to-left text
 * LibreOffice's font substitution picks a face for the text's language (DejaVu Sans for Arabic and
 * Persian here) and takes everything from it, line height and spaces too, where a known family
 * without the script only has its letters fall back. Measured on poi__stress004 (IRNazli, 14 pt):
 * LibreOffice's lines are 16.3 pt apart, DejaVu Sans's height; Noto Sans's would be 19.1 pt.
 */
function isStandIn(family: string, primary: FontFace): boolean {
  return /^Noto(Sans|Serif)-/.test(primary.id) && !/^noto/i.test(family);
}

/** Faces known to have every printable ASCII glyph (then only other characters are looked up). */
const asciiFaces = new WeakMap<FontFace, boolean>();

function coversAll(face: FontFace, text: string): boolean {
  let ascii = asciiFaces.get(face);
  if (ascii === undefined) {
    ascii = true;
    for (let cp = 0x20; cp < 0x7f && ascii; cp++) ascii = face.covers(cp);
    asciiFaces.set(face, ascii);
  }
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i)!;
    if (cp < 0x7f && (ascii || cp < 0x20)) continue;
    if (cp > 0xffff) i++;
    if (!face.covers(cp)) return false;
  }
  return true;
}

function isLetterOrDigit(cp: number): boolean {
  if (cp < 0x80) return (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
  return !(cp >= 0x2000 && cp <= 0x206f) && cp !== 0xa0 && !(cp >= 0xa1 && cp <= 0xbf);
}

/** Cuts one face's text at break opportunities, space/non-space boundaries, bidi level changes and small-caps case changes. */
function wordPieces(
  atom: Atom,
  offset: number,
  text: string,
  face: FontFace,
  metrics: FontFace,
  base: { size: number; rise: number },
  breaks: Uint8Array,
  levels: Uint8Array,
  out: Piece[],
): void {
  const smallCaps = atom.style.smallCaps && !atom.style.caps;
  const abs = atom.start + offset;
  let start = 0;
  let kindSpace = false;
  let lower = false;
  let chars = 0;
  // Opportunities after a solidus that LibreOffice pulls back do not cut the word (it is drawn
  // whole): the piece keeps where they are (line-fit.ts).
  let pulled: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xdc00 && code <= 0xdfff) continue; // low surrogate: counted with its high half
    const space = isBreakingSpace(code);
    const isLower = smallCaps && text[i] !== text[i]!.toUpperCase();
    // A word longer than maxPieceChars is cut into pieces with no break opportunity between them:
    // it still breaks by characters only where a line is full, but breaking it measures one piece
    // at a time, not the rest of the word on every line (linear, not quadratic, in its length).
    const overlong =
      !kindSpace && i - start >= LIMITS.paragraph.maxPieceChars && !isMark(code) && !isLamAlefTail(text, i);
    if (
      i > start &&
      (overlong ||
        space !== kindSpace ||
        (breaks[abs + i] !== 0 && breaks[abs + i] !== PULLED_BACK) ||
        isLower !== lower ||
        levels[abs + i] !== levels[abs + start])
    ) {
      pushPiece(
        atom,
        offset + start,
        text.slice(start, i),
        face,
        metrics,
        base,
        lower,
        kindSpace,
        chars,
        levels[abs + start]!,
        breaks[abs + i]!,
        out,
        pulled,
      );
      start = i;
      chars = 0;
      pulled = [];
    } else if (i > start && breaks[abs + i] === PULLED_BACK) pulled.push(i - start);
    if (i === start) {
      kindSpace = space;
      lower = isLower;
    }
    chars++;
  }
  if (start < text.length)
    pushPiece(
      atom,
      offset + start,
      text.slice(start),
      face,
      metrics,
      base,
      lower,
      kindSpace,
      chars,
      levels[abs + start]!,
      breaks[abs + text.length]!,
      out,
      pulled,
    );
}

/**
 * `at`: where `t` starts in the atom's text. `breakKind` after the piece: 0 none, 1 a break
 * opportunity, 2 a soft hyphen, 3 one after a solidus LibreOffice pulls back (line-break.ts).
 */
function pushPiece(
  atom: Atom,
  at: number,
  t: string,
  face: FontFace,
  metrics: FontFace,
  base: { size: number; rise: number },
  lower: boolean,
  space: boolean,
  chars: number,
  level: number,
  breakKind: number,
  out: Piece[],
  pulledBackAt: number[],
): void {
  const style = atom.style;
  const size = lower ? base.size * SMALL_CAPS_SCALE : base.size;
  const drawn = lower ? t.toUpperCase() : t;
  const width = (cachedWidth(face, drawn, size, !!style.kern) * style.scale) / 100 + style.charSpacing * chars;
  // One literal, the optional fields set after it: conditional spreads here cost a third of the
  // time text took to cut into pieces (every piece an object of its own shape).
  const piece: Piece = {
    kind: space ? "space" : "text",
    text: drawn,
    face,
    metrics,
    size,
    width,
    style,
    rise: base.rise,
    breakAfter: breakKind !== 0,
    link: atom.link,
    noteRef: atom.noteRef,
    label: atom.label,
    chars,
    rtl: level % 2 === 1,
    level,
  };
  if (breakKind === 2) piece.softHyphen = true;
  if (breakKind === PULLED_BACK) piece.pulledBack = true;
  if (pulledBackAt.length) piece.pulledBackAt = pulledBackAt;
  if (atom.noteLabelOf) piece.noteLabelOf = atom.noteLabelOf;
  if (atom.typed !== undefined && !lower) {
    const typed = atom.typed.slice(at, at + t.length);
    if (typed !== drawn) piece.typed = typed;
  }
  out.push(piece);
}

/**
 * Words recur: their width is cached per face and size (bounded, cleared when full). Not a width at
 * size 1 scaled: advances are rounded at the size itself (font-face.ts).
 */
const widthCache = new WeakMap<FontFace, Map<string, number>>();

function cachedWidth(face: FontFace, text: string, size: number, kern: boolean): number {
  let cache = widthCache.get(face);
  if (!cache) {
    cache = new Map();
    widthCache.set(face, cache);
  }
  const key = `${kern ? "k" : ""}${size}\u0000${text}`;
  let w = cache.get(key);
  if (w === undefined) {
    w = shapedWidth(face, text, size, shapeFlags({ style: { kern } }));
    if (cache.size >= LIMITS.paragraph.widthCacheEntries) cache.clear();
    cache.set(key, w);
  }
  return w;
}
