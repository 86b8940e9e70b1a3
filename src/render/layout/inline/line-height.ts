/**
 * Line height, as LibreOffice lays out DOCX (measured): which of a line's pieces size it, its
 * natural height and ascent, and the paragraph's spacing rule applied to them (multiples, exact and
 * at-least heights, a section's line grid).
 */
import type { FontBook } from "../../fonts/types";
import type { ParagraphStyle, RunStyle } from "../../model/types";
import type { Piece } from "./piece";
import type { LineBox } from "../types";

/** LibreOffice puts the baseline of an exact-height line at 80 % of the height. */
const EXACT_ASCENT_RATIO = 0.8;

/** The paragraph's own fonts, for lines its pieces do not size. */
export interface ParagraphFonts {
  fonts: FontBook;
  /** Nothing but spaces and tabs in the paragraph: the paragraph style's font, not the runs', sets the height. */
  blank: boolean;
  /** The paragraph style's own run formatting (Paragraph.styleRun). */
  styleRun: RunStyle | undefined;
  /** The font of a line without text: the paragraph mark's, or the style's for a blank paragraph. */
  emptyLine: RunStyle;
}

export interface NaturalHeight {
  natural: number;
  ascent: number;
  fontHeight: number;
}

/**
 * The height of the line [start, end) before line spacing: its ascent and descent from the
 * pieces that count (see `lineHeightPieces`), objects standing on the baseline, an equation's
 * depth below it; `fontHeight`, the tallest font's line, is what proportional spacing multiplies.
 */
export function naturalHeight(
  pieces: Piece[],
  start: number,
  end: number,
  first: boolean,
  para: ParagraphFonts,
): NaturalHeight {
  // Which pieces set the line's height (LibreOffice's rules, see lineHeightPieces); "style": the
  // paragraph style's font alone.
  const kinds = kindsOnLine(pieces, start, end);
  const counts = lineHeightPieces(kinds, pieces, start, end, first);
  const blankLine = counts === "style" && !!para.styleRun;
  let ascent = 0;
  let below = 0;
  // The tallest font on the line: proportional spacing multiplies this, never an object's height.
  let fontHeight = 0;
  let any = false;
  let hasObject = false;
  let mathDepth = 0;
  // On a paragraph's first line with text or pictures, spaces and tabs do not size the line, on
  // later lines they do; a break beside more never does (LibreOffice, measured: 24 pt tabs, spaces
  // or a break beside 10 pt text leave a first line 10 pt). Pictures with only spaces and breaks
  // make a picture line: pictures at the top, the height of the paragraph style's font (picture,
  // 24 pt break, picture stand on two 11 pt lines).
  const pictureLine = kinds.objects && !kinds.text && !kinds.tabs;
  let blankFontHeight = 0;
  for (let k = start; k < end; k++) {
    const pc = pieces[k]!;
    if (pc.kind === "float" || para.blank || blankLine) continue;
    if (counts !== "style" && !counts(pc)) {
      // ... but their font still sets the proportional spacing of a text line (measured: a 14 pt
      // space between 12 pt words at 1.5 lines adds half of 14 pt's line, not of 12 pt's).
      if (pc.kind === "space" || pc.kind === "tab")
        blankFontHeight = Math.max(blankFontHeight, pc.metrics.lineHeight(pc.size));
      continue;
    }
    any = true;
    if (pc.kind === "object") {
      hasObject = true;
      // An inline object stands on the baseline and brings no descent of its own (LibreOffice, measured).
      const h = pc.object!.height + pc.rise;
      if (h > ascent) ascent = h;
      // An equation has a depth (denominators, subscripts) the line must hold.
      mathDepth = Math.max(mathDepth, (pc.math?.descent ?? 0) - pc.rise);
      continue;
    }
    const m = pc.metrics;
    // A superscript or subscript (automatic escapement) holds the line at its run's full size,
    // however small and high it is drawn (LibreOffice, measured).
    const escaped = pc.style.vertAlign !== "baseline";
    const size = escaped ? pc.style.size : pc.size;
    const rise = escaped ? 0 : pc.rise;
    const a = m.ascent(size) + rise;
    const b = m.lineHeight(size) - m.ascent(size) - rise;
    if (a > ascent) ascent = a;
    if (b > below) below = b;
    if (m.lineHeight(size) > fontHeight) fontHeight = m.lineHeight(size);
  }
  if (fontHeight === 0) {
    // Nothing but objects (or nothing at all): the paragraph's font sets the minimum height and the
    // spacing. For a picture line, a first line of only blanks and the empty line after a last
    // break that is the paragraph style's font, not the mark's or the runs' (LibreOffice, measured:
    // a 24 pt mark leaves an 11 pt style's picture line 11 pt).
    const style = (blankLine || pictureLine) && para.styleRun ? para.styleRun : para.emptyLine;
    const face = para.fonts.face({ family: style.font, bold: style.bold, italic: style.italic });
    const size = style.size;
    fontHeight = face.lineHeight(size);
    if (!any) ascent = face.ascent(size);
    // A picture line's blanks in a larger font make it taller, its pictures still at the top
    // (LibreOffice, measured: picture, 24 pt space, picture on a first line: 24 pt's line).
    if (pictureLine) fontHeight = Math.max(fontHeight, blankFontHeight);
    below = Math.max(0, fontHeight - ascent);
  }
  if (mathDepth > below) below = mathDepth;
  const natural = ascent + below;
  // Without objects the whole line (raised and lowered text included) is the font height.
  if (!hasObject) fontHeight = Math.max(natural, blankFontHeight);
  return { natural, ascent, fontHeight };
}

/**
 * Applies the paragraph's line spacing rule to a line's natural height and ascent, as LibreOffice
 * does for DOCX (measured): a multiple adds its extra space above the text, except on a
 * paragraph's first line, which keeps its natural height (the last line gets extra space below
 * instead, see paragraph.ts); the extra is a share of the line's font height (`fontHeight`), not of an
 * inline image's; a multiple below 1 cuts the ascent.
 * Exact lines put the baseline at 80 % of the height; at-least lines add the extra above.
 */
export function spacedLine(
  style: ParagraphStyle,
  linePitch: number | undefined,
  natural: number,
  ascent: number,
  first: boolean,
  fontHeight = natural,
): { height: number; baseline: number; extraAbove?: number; extraWithheld?: number } {
  const rule = style.line;
  // LibreOffice's line heights are whole twips, rounded (Carlito 11 pt: 13.45 pt, not 13.428;
  // Noto Sans 11 pt: 15 pt, not 14.982; measured on single-spaced pages): the rest goes below the text.
  natural = wholeTwips(natural);
  fontHeight = wholeTwips(fontHeight);
  const pitch = linePitch;
  if (pitch && pitch > 0 && style.snapToGrid !== false) {
    // A line grid (LibreOffice, measured): the line takes whole grid lines, its text centred in
    // them; exact and at-least rules give way to the grid, a multiple multiplies grid lines.
    const grid = Math.max(1, Math.ceil(natural / pitch - 1e-6)) * pitch;
    const gridAscent = ascent + (grid - natural) / 2;
    if (rule.rule !== "auto" || rule.value <= 1) return { height: grid, baseline: gridAscent };
    natural = grid;
    ascent = gridAscent;
    fontHeight = grid;
  }
  if (rule.rule === "exact" && rule.value > 0) return { height: rule.value, baseline: rule.value * EXACT_ASCENT_RATIO };
  if (rule.rule === "atLeast") {
    if (rule.value > natural) return { height: rule.value, baseline: ascent + (rule.value - natural) };
    return { height: natural, baseline: ascent };
  }
  const multiple = rule.value > 0 ? rule.value : 1;
  if (multiple >= 1) {
    const extra = proportionalExtra(fontHeight, multiple);
    if (first) return { height: natural, baseline: ascent, extraAbove: 0, extraWithheld: extra };
    return { height: natural + extra, baseline: ascent + extra, extraAbove: extra };
  }
  const height = natural * multiple;
  return { height, baseline: first ? ascent * multiple : ascent - (natural - height) };
}

/** A height rounded to whole twips, as LibreOffice keeps them. */
export const wholeTwips = (pt: number): number => Math.round(pt * 20) / 20;

/**
 * The extra space proportional line spacing adds to a line of `fontHeight`: LibreOffice works in
 * whole twips and whole percent (w:line 259/240 is 108 %): the font height in twips times the
 * percentage, truncated (Tinos 11 pt at 1.15: 253 tw x 115 % = 290 tw = 14.5 pt, not 14.55).
 */
export function proportionalExtra(fontHeight: number, multiple: number): number {
  const twips = Math.round(fontHeight * 20);
  return Math.floor((twips * Math.round(multiple * 100)) / 100) / 20 - twips / 20;
}

/**
 * Which of a line's pieces set its height, as LibreOffice lays out DOCX (measured; its "whitespace
 * does not make a line taller" rule holds on a paragraph's first line only):
 * - a line with text or objects: on the first line those alone (the blanks' font still sets a
 *   text line's proportional extra and a picture line's height, see naturalHeight); on later lines
 *   spaces and tabs count too; the line break never does;
 * - a line of only spaces and tabs: ended by a line break, they count (the break not); on the
 *   first line, or a later one of spaces alone ending the paragraph, the paragraph style's font
 *   sets the height ("style"), whatever the runs' sizes; a later line with a tab counts its tabs;
 * - a line holding only a break: the break's font; the empty line after a paragraph's last line
 *   break: the style's font ("style"); an empty paragraph's only line: the mark's (no pieces).
 */
function lineHeightPieces(
  kinds: LineKinds,
  pieces: Piece[],
  start: number,
  end: number,
  first: boolean,
): ((pc: Piece) => boolean) | "style" {
  const { spaces, tabs, breaks: broken } = kinds;
  const blank = (pc: Piece) => pc.kind === "space" || pc.kind === "tab";
  if (kinds.text || kinds.objects)
    return first ? (pc) => pc.kind === "text" || pc.kind === "object" : (pc) => pc.kind !== "break";
  if (spaces || tabs) return broken || (!first && tabs) ? blank : "style";
  if (start === end && !first && pieces[start - 1]?.breakKind === "line") return "style";
  return () => true;
}

/** Which kinds of piece stand on the line [start, end). */
interface LineKinds {
  text: boolean;
  objects: boolean;
  spaces: boolean;
  tabs: boolean;
  breaks: boolean;
}

function kindsOnLine(pieces: Piece[], start: number, end: number): LineKinds {
  const kinds = { text: false, objects: false, spaces: false, tabs: false, breaks: false };
  for (let k = start; k < end; k++) {
    const kind = pieces[k]!.kind;
    if (kind === "text") kinds.text = true;
    else if (kind === "object") kinds.objects = true;
    else if (kind === "space") kinds.spaces = true;
    else if (kind === "tab") kinds.tabs = true;
    else if (kind === "break") kinds.breaks = true;
  }
  return kinds;
}

/** A laid-out line's height without its proportional-spacing extras (the height LibreOffice sizes line numbers by). */
export function textHeight(line: LineBox): number {
  return line.height - (line.extraAbove ?? 0) - (line.extraBelow ?? 0);
}
