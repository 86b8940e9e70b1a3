/**
 * A paragraph's inlines cut into measured pieces: the units line breaking works with. A text piece
 * is one face, one size and one style, never containing a break opportunity (so a line ends only
 * between pieces, except when a word longer than the line is broken by characters); runs of spaces
 * are pieces of their own (they stretch under justification and hang at the end of a line).
 */
import { LIMITS } from "../../../limits";
import type { FontBook, FontFace } from "../../fonts/types";
import type { Inline, Paragraph, RunStyle } from "../../model/types";
import { applyChineseBreaks, isBreakingSpace, lineBreakOpportunities } from "./line-break";
import { mathObject } from "../objects/math";
import { joinedWidth, joiningType } from "./arabic-joining";
import { bidiClass, resolveLevels } from "./bidi";
import { isComplexScript, isRtlChar } from "./script";
import { hasEastAsian, isEastAsian, isEastAsianShared } from "../../fonts/east-asian";
import type { LayoutContext, ObjectInline } from "../types";

export interface Piece {
  kind: "text" | "space" | "tab" | "break" | "object" | "float";
  /** Text drawn (caps applied); for spaces the spaces themselves. */
  text: string;
  face: FontFace;
  /**
   * Face whose ascent and descent the line uses: the run's own font even where a fallback face
   * draws the glyphs (LibreOffice's glyph fallback does not change line metrics).
   */
  metrics: FontFace;
  /** Drawing size (after superscript/subscript/small caps). */
  size: number;
  /** Advance in pt including character spacing and horizontal scale (0 for tabs until placed). */
  width: number;
  style: RunStyle;
  /** Baseline shift upwards, pt (superscript, w:position). */
  rise: number;
  /** A line may end after this piece. */
  breakAfter: boolean;
  link?: string;
  /** "footnote:ID" / "endnote:ID" of a note reference mark. */
  noteRef?: string;
  /** "footnote:ID" of a note's number (its reference or its own mark) that layout sets per page. */
  noteLabelOf?: string;
  /** A soft hyphen follows: a line ending here shows a hyphen (paragraph.ts adds it). */
  softHyphen?: boolean;
  object?: ObjectInline;
  breakKind?: "line" | "page" | "column";
  /** Part of the numbering label (never separated from the first line's text). */
  label?: boolean;
  /** Code points of the text (for character spacing and justification). */
  chars: number;
  /** At a right-to-left (odd) embedding level: drawn right to left as a whole. */
  rtl: boolean;
  /** Bidi embedding level (layout/bidi.ts); every character of a piece has the same. Absent: 0, or 1 when `rtl`. */
  level?: number;
  /**
   * The run's stretch of one script (one LibreOffice text portion) this text belongs to, and
   * whether a fallback face, not the portion's own, draws it: paragraph.ts writes a portion's
   * fallback glyphs after its own ones, as LibreOffice's PDF export does.
   */
  portion?: object;
  fallback?: boolean;
  /** Arabic letters joined across a run boundary: the piece's first letter joins the piece before, its last the piece after. */
  joinBefore?: boolean;
  joinAfter?: boolean;
}

/**
 * Superscript/subscript as LibreOffice draws w:vertAlign (automatic escapement): 58 % of the size,
 * raised so its ascent lines up with the run's ascent, or lowered so the descents line up.
 */
export const SUPERSCRIPT_SCALE = 0.58;
/** Small capitals are drawn at 80 % of the size (LibreOffice's and Word's ratio). */
export const SMALL_CAPS_SCALE = 0.8;

interface Atom {
  inline: Inline | null;
  style: RunStyle;
  /** Offset of this atom's text in the paragraph text. */
  start: number;
  text: string;
  link?: string;
  noteRef?: string;
  noteLabelOf?: string;
  label?: boolean;
}

/** Cuts a paragraph (and its numbering label, first) into pieces. */
export function buildPieces(p: Paragraph, ctx: LayoutContext): Piece[] {
  const atoms: Atom[] = [];
  let text = "";
  // Offsets in `text` where a soft hyphen was (displayText drops the character itself).
  const softHyphens: number[] = [];
  const push = (a: Omit<Atom, "start">) => {
    atoms.push({ ...a, start: text.length });
    text += a.text;
  };
  const num = p.numbering;
  if (num && num.image && !num.style.hidden) {
    // A picture bullet: a square as tall as the paragraph's text (its mark's size, not the level's
    // symbol size), on the baseline.
    const size = Math.min(num.style.size, p.markStyle.size);
    push({ inline: { type: "image", image: num.image, width: size, height: size, style: num.style }, style: num.style, text: "\uFFFC", label: true });
  } else if (num && num.text && !num.style.hidden) {
    push({ inline: null, style: num.style, text: displayText(num.text, num.style), label: true });
  }
  for (const inline of p.inlines) {
    if (inline.style.hidden) continue;
    switch (inline.type) {
      case "text":
        if (inline.text.includes("\u00AD")) for (const at of softHyphenOffsets(inline.text)) softHyphens.push(text.length + at);
        push({ inline, style: inline.style, text: displayText(inline.text, inline.style), link: inline.link });
        break;
      case "field": {
        const value = ctx.fieldValue(inline.field, inline.format) ?? inline.fallback;
        push({ inline, style: inline.style, text: displayText(value, inline.style) });
        break;
      }
      case "noteRef":
        push({
          inline, style: inline.style, text: displayText(inline.label, inline.style),
          ...(inline.own ? {} : { noteRef: `${inline.kind}:${inline.id}` }),
          ...(inline.kind === "footnote" ? { noteLabelOf: `footnote:${inline.id}` } : {}),
        });
        break;
      case "tab":
        push({ inline, style: inline.style, text: "\t", link: inline.link });
        break;
      case "break":
        push({ inline, style: inline.style, text: "\n" });
        break;
      case "checkbox":
        push({ inline, style: inline.style, text: "\uFFFC" });
        break;
      case "image":
      case "box":
        // Floats take no room in the text; inline objects are break opportunities on both sides.
        push({ inline, style: inline.style, text: inline.anchor ? "" : "\uFFFC", link: inline.type === "image" ? inline.link : undefined });
        break;
    }
  }

  // The numbering label is not part of the paragraph's text for LibreOffice's break iterator.
  const breaks = lineBreakOpportunities(text, atoms.find((a) => !a.label)?.start ?? 0);
  for (const atom of atoms) {
    const lang = atom.style.cjkTypography;
    if ((lang === "zh" || lang === "zh-Hant") && atom.text) applyChineseBreaks(text, breaks, atom.start, atom.start + atom.text.length, lang);
  }
  // A soft hyphen between letters is a break opportunity of its own kind (2).
  for (const at of softHyphens) if (at > 0 && at < text.length && LETTER.test(text[at - 1]!) && LETTER.test(text[at]!)) breaks[at] = 2;
  const levels = resolveLevels(text, p.style.bidi ? 1 : 0);
  const complex = complexByLevel(text, levels);
  const latin = latinRuns(text, levels);
  const pieces: Piece[] = [];
  for (const atom of atoms) {
    const inline = atom.inline;
    const end = atom.start + atom.text.length;
    const face = ctx.fonts.face({ family: atom.style.font, bold: atom.style.bold, italic: atom.style.italic });
    const base = baseOf(atom.style, face);
    const level = levels[atom.start] ?? 0;
    const common = { style: atom.style, link: atom.link, face, metrics: face, size: base.size, rise: base.rise, breakAfter: breaks[end] !== 0, chars: 1, rtl: level % 2 === 1, level };
    if (inline?.type === "tab" || inline?.type === "break") {
      // A tab (its leader) and a line break in a bidi paragraph take a stand-in's script face too.
      const script = p.style.bidi ? bidiStandIn(atom.style.font, atom.style, face, ctx.fonts) : undefined;
      if (script) common.face = common.metrics = script;
    }
    if (inline?.type === "tab") pieces.push({ ...common, kind: "tab", text: "\t", width: 0 });
    else if (inline?.type === "break") pieces.push({ ...common, kind: "break", text: "", width: 0, breakKind: inline.kind });
    else if (inline?.type === "checkbox") {
      const object = checkboxObject(inline, face, base.size);
      pieces.push({ ...common, kind: "object", text: "", width: object.width, object });
    }
    else if (inline?.type === "image" || inline?.type === "box") {
      if (inline.anchor) pieces.push({ ...common, kind: "float", text: "", width: 0, object: inline, breakAfter: false });
      else {
        const object = mathObject(inline, ctx.fonts);
        pieces.push({ ...common, kind: "object", text: "", width: object.width, object, label: atom.label });
      }
    } else if (atom.text) textPieces(atom, breaks, levels, complex, latin, ctx.fonts, pieces, p.style.bidi);
    void end;
  }
  spaceAsianFromWestern(pieces);
  joinAcrossRuns(pieces);
  return pieces;
}

/**
 * A right-to-left word cut into runs (a colour, a w:hint, a bookmark in the middle of "عقیده")
 * keeps its letters joined across the cut, as LibreOffice shapes each portion with its context:
 * each side is measured (and drawn, paint's tatweel context) in the form it takes joined.
 */
function joinAcrossRuns(pieces: Piece[]): void {
  for (let i = 0; i + 1 < pieces.length; i++) {
    const a = pieces[i]!;
    const b = pieces[i + 1]!;
    if (a.kind !== "text" || b.kind !== "text" || !a.rtl || !b.rtl || a.breakAfter || a.level !== b.level || a.label || b.label) continue;
    if (a.style.smallCaps || b.style.smallCaps || !a.face.covers(TATWEEL) || !b.face.covers(TATWEEL)) continue;
    let k = a.text.length - 1;
    while (k > 0 && joiningType(a.text.charCodeAt(k)) === "T") k--;
    const last = joiningType(a.text.charCodeAt(k));
    const first = joiningType(b.text.charCodeAt(0));
    if ((last !== "D" && last !== "C") || (first !== "D" && first !== "R" && first !== "C")) continue;
    a.joinAfter = true;
    b.joinBefore = true;
    a.width = joinedPieceWidth(a);
    b.width = joinedPieceWidth(b);
  }
}

function joinedPieceWidth(pc: Piece): number {
  const shaped = (pc.joinBefore ? "\u0640" : "") + pc.text + (pc.joinAfter ? "\u0640" : "");
  const unit = joinedWidth(pc.face, shaped, 1) - pc.face.widthOf("\u0640", 1) * (Number(!!pc.joinBefore) + Number(!!pc.joinAfter));
  return (unit * pc.size * pc.style.scale) / 100 + pc.style.charSpacing * pc.chars;
}

const TATWEEL = 0x640;

/**
 * LibreOffice's autospace (measured, with or without w:autoSpaceDE/DN): where an ideograph, kana
 * or Hangul letter meets a Latin, Greek or Cyrillic letter or a digit, one fifth of the East Asian
 * text's size is added between them. Not next to punctuation or spaces.
 */
function spaceAsianFromWestern(pieces: Piece[]): void {
  for (let i = 0; i + 1 < pieces.length; i++) {
    const a = pieces[i]!;
    const b = pieces[i + 1]!;
    if (a.kind !== "text" || b.kind !== "text" || !a.text || !b.text || a.label) continue;
    const lastUnit = a.text.charCodeAt(a.text.length - 1);
    if (lastUnit < 0x1100 && b.text.charCodeAt(0) < 0x1100) continue; // no East Asian text here
    const last = a.text.codePointAt(a.text.length - (lastUnit >= 0xdc00 && lastUnit <= 0xdfff && a.text.length > 1 ? 2 : 1))!;
    const first = b.text.codePointAt(0)!;
    const asianFirst = isAsianLetter(last) && isWesternLetterOrDigit(first);
    if (asianFirst || (isWesternLetterOrDigit(last) && isAsianLetter(first))) a.width += (asianFirst ? a.size : b.size) * AUTOSPACE_EM;
  }
}

const AUTOSPACE_EM = 0.2;
const LETTER = /\p{L}/u;
const LETTER_OR_DIGIT = /[\p{L}\p{Nd}]/u;

function isAsianLetter(cp: number): boolean {
  return isEastAsian(cp) && LETTER.test(String.fromCodePoint(cp));
}

function isWesternLetterOrDigit(cp: number): boolean {
  return (cp < 0x0590 || (cp >= 0x1e00 && cp <= 0x1fff)) && LETTER_OR_DIGIT.test(String.fromCodePoint(cp));
}

/**
 * A check box form field as LibreOffice draws it (measured): a square as wide as the run's line is
 * tall, outlined. Here it stands on the baseline, as tall as the ascent, so the line keeps its height.
 */
function checkboxObject(inline: Extract<Inline, { type: "checkbox" }>, face: FontFace, size: number): ObjectInline {
  const border = { style: "single", width: CHECKBOX_OUTLINE, color: null, space: 0 };
  return { type: "box", blocks: [], width: face.lineHeight(size), height: face.ascent(size), style: inline.style, border };
}
/** Outline of a drawn check box, pt. */
const CHECKBOX_OUTLINE = 0.5;

/** Where the soft hyphens of `raw` fall in its display text (the characters displayText keeps before each). */
function softHyphenOffsets(raw: string): number[] {
  const out: number[] = [];
  let kept = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0xad) out.push(kept);
    else if (c === 0x09 || c >= 0x20) kept++;
  }
  return out;
}

function displayText(text: string, style: RunStyle): string {
  // Soft hyphens are not drawn (we do not hyphenate); control characters other than tab are dropped.
  const clean = text.replace(/[\u00AD\u0000-\u0008\u000A-\u001F]/g, "");
  return style.caps ? clean.toUpperCase() : clean;
}

function baseOf(style: RunStyle, face?: FontFace): { size: number; rise: number } {
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
function complexByLevel(text: string, levels: Uint8Array): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; ) {
    const level = levels[i]!;
    let j = i + 1;
    while (j < text.length && levels[j] === level) j++;
    if (level % 2 === 1 || (level > 0 && !/\p{L}/u.test(text.slice(i, j)))) out.fill(1, i, j);
    i = j;
  }
  return out;
}

/** Which of the run's fonts draws a code point: 0 Latin, 1 East Asian, 2 complex script. */
function fontSlot(cp: number, style: RunStyle): 0 | 1 | 2 {
  if (isComplexScript(cp)) return 2;
  // East Asian text is always in the East Asian slot (its face also gives the line metrics, as in
  // LibreOffice), even when the run names one font for all scripts.
  if (isEastAsian(cp) || (style.eastAsiaHint && isEastAsianShared(cp))) return 1;
  return 0;
}

function tallerFace(a: FontFace, b: FontFace): FontFace {
  return b.lineHeight(1) > a.lineHeight(1) ? b : a;
}


function textPieces(atom: Atom, breaks: Uint8Array, levels: Uint8Array, complex: Uint8Array, latin: Uint8Array, fonts: FontBook, out: Piece[], bidi: boolean): void {
  const { text } = atom;
  const style = atom.style;
  // 1. Script runs (which family), 2. faces (fallback for missing glyphs), 3. words and spaces.
  let runStart = 0;
  let runSlot = -1;
  const flushRun = (endIdx: number) => {
    if (endIdx <= runStart) return;
    const family = runSlot === 2 ? (style.fontComplex ?? style.font) : runSlot === 1 ? (style.fontEastAsia ?? style.font) : style.font;
    let offset = runStart;
    const req = { family, bold: style.bold, italic: style.italic, eastAsian: runSlot === 1 };
    const runText = text.slice(runStart, endIdx);
    // Most runs need no fallback face: skip the font book's per-character split for them.
    const primary = fonts.face(req);
    // Complex-script characters take w:szCs, the others w:sz, whatever the run's w:rtl.
    const size = runSlot === 2 ? (style.rtl ? style.size : (style.sizeComplex ?? style.size)) : (style.sizeLatin ?? style.size);
    const base = baseOf(size === style.size ? style : { ...style, size }, primary);
    // East Asian text: the line is as tall as the taller of the East Asian and the Latin face
    // (LibreOffice, measured: SimSun text in Droid Sans Fallback keeps Noto's 1.36 em lines).
    const metrics = runSlot === 1 ? tallerFace(primary, fonts.face({ family: style.font, bold: style.bold, italic: style.italic })) : primary;
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
    for (const part of script ? wholeRunInScriptFace(parts, primary, script, (i) => latin[at0 + i] === 1) : spacesInPrimary(parts, primary)) {
      wordPieces(atom, offset, part.text, part.face, script && !("latin" in part && part.latin) ? script : metrics, base, breaks, levels, out);
      offset += part.text.length;
    }
    const portion = {};
    const own = script ?? primary;
    for (let i = from; i < out.length; i++) {
      out[i]!.portion = portion;
      if (out[i]!.face !== own) out[i]!.fallback = true;
    }
  };
  const oneFont = !style.fontComplex && style.sizeComplex === undefined && style.sizeLatin === undefined && !style.eastAsiaHint && !hasEastAsian(text);
  if (oneFont) {
    runSlot = 0;
    flushRun(text.length);
    return;
  }
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i)!;
    // Spaces and punctuation stay in the current run's font.
    const slot = complex[atom.start + i] ? 2 : cp < 0x590 ? 0 : runSlot >= 0 && !isLetterOrDigit(cp) && cp !== 0x3000 ? runSlot : fontSlot(cp, style);
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
function bidiStandIn(family: string, style: RunStyle, primary: FontFace, fonts: FontBook): FontFace | undefined {
  if (!isStandIn(family, primary)) return undefined;
  return fonts.split("\u0627", { family, bold: style.bold, italic: style.italic }).find((part) => part.face !== primary)?.face;
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
function wholeRunInScriptFace(parts: { text: string; face: FontFace }[], primary: FontFace, script: FontFace, latin?: (i: number) => boolean): { text: string; face: FontFace; latin?: boolean }[] {
  const out: { text: string; face: FontFace; latin?: boolean }[] = [];
  let at = 0;
  for (const part of parts) {
    if (part.face !== primary || !latin) {
      const face = part.face === primary && [...part.text].every((c) => script.covers(c.codePointAt(0)!)) ? script : part.face;
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
function spacesInPrimary(parts: { text: string; face: FontFace }[], primary: FontFace): { text: string; face: FontFace }[] {
  if (!primary.covers(0x20)) return parts;
  const out: { text: string; face: FontFace }[] = [];
  for (const part of parts) {
    if (part.face === primary || !part.text.includes(" ") || !isRtlChar(part.text.codePointAt(part.text.search(/[^ ]/))!)) {
      out.push(part);
      continue;
    }
    for (const bit of part.text.split(/( +)/)) if (bit) out.push({ text: bit, face: bit[0] === " " ? primary : part.face });
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
function wordPieces(atom: Atom, offset: number, text: string, face: FontFace, metrics: FontFace, base: { size: number; rise: number }, breaks: Uint8Array, levels: Uint8Array, out: Piece[]): void {
  const smallCaps = atom.style.smallCaps && !atom.style.caps;
  const abs = atom.start + offset;
  let start = 0;
  let kindSpace = false;
  let lower = false;
  let chars = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xdc00 && code <= 0xdfff) continue; // low surrogate: counted with its high half
    const space = isBreakingSpace(code);
    const isLower = smallCaps && text[i] !== text[i]!.toUpperCase();
    if (i > start && (space !== kindSpace || breaks[abs + i] !== 0 || isLower !== lower || levels[abs + i] !== levels[abs + start])) {
      pushPiece(atom, text.slice(start, i), face, metrics, base, lower, kindSpace, chars, levels[abs + start]!, breaks[abs + i]!, out);
      start = i;
      chars = 0;
    }
    if (i === start) {
      kindSpace = space;
      lower = isLower;
    }
    chars++;
  }
  if (start < text.length) pushPiece(atom, text.slice(start), face, metrics, base, lower, kindSpace, chars, levels[abs + start]!, breaks[abs + text.length]!, out);
}

/** `breakKind` after the piece: 0 none, 1 a break opportunity, 2 a soft hyphen. */
function pushPiece(atom: Atom, t: string, face: FontFace, metrics: FontFace, base: { size: number; rise: number }, lower: boolean, space: boolean, chars: number, level: number, breakKind: number, out: Piece[]): void {
  const style = atom.style;
  const size = lower ? base.size * SMALL_CAPS_SCALE : base.size;
  const drawn = lower ? t.toUpperCase() : t;
  const width = (cachedWidth(face, drawn, size) * style.scale) / 100 + style.charSpacing * chars;
  out.push({
    kind: space ? "space" : "text",
    text: drawn,
    face,
    metrics,
    size,
    width,
    style,
    rise: base.rise,
    breakAfter: breakKind !== 0,
    ...(breakKind === 2 ? { softHyphen: true } : {}),
    link: atom.link,
    noteRef: atom.noteRef,
    ...(atom.noteLabelOf ? { noteLabelOf: atom.noteLabelOf } : {}),
    label: atom.label,
    chars,
    rtl: level % 2 === 1,
    level,
  });
}

/**
 * Words recur: their width is cached per face and size (bounded, cleared when full). Not a width at
 * size 1 scaled: advances are rounded at the size itself (font-face.ts).
 */
const widthCache = new WeakMap<FontFace, Map<string, number>>();

function cachedWidth(face: FontFace, text: string, size: number): number {
  let cache = widthCache.get(face);
  if (!cache) {
    cache = new Map();
    widthCache.set(face, cache);
  }
  const key = `${size}\u0000${text}`;
  let w = cache.get(key);
  if (w === undefined) {
    w = joinedWidth(face, text, size);
    if (cache.size >= LIMITS.paragraph.widthCacheEntries) cache.clear();
    cache.set(key, w);
  }
  return w;
}
