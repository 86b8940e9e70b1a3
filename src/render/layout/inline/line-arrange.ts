/**
 * A fitted line's pieces arranged: placed along the line between its tab stops, aligned or
 * justified (spaces stretched, or Arabic words by kashidas), and put in visual order. Positions
 * are from the paragraph box's left edge; right-to-left pieces are reordered by the bidi rule L2
 * and a bidi paragraph's line is mirrored.
 */
import type { Paragraph } from "../../model/types";
import { visualOrderOfLevels } from "./bidi";
import { planKashidas, type KashidaPlan } from "./kashida-stretch";
import { isEastAsian } from "../../fonts/east-asian";
import type { Piece } from "./piece";
import { TabCursor, type ResolvedStop, type TabContext } from "./tabs";

/** The pieces [start, end) of one line, placed. */
export interface ArrangedLine {
  start: number;
  end: number;
  /** The pieces drawn, in visual order (trailing spaces, floats and the break are not). */
  order: number[];
  /** x and width of piece k at [k - start]. */
  xs: number[];
  ws: number[];
  /** The stop each tab went to (piece index → stop), for leaders. */
  stops: Map<number, ResolvedStop>;
  /** Justification stretched the line's spaces or words: text pieces are drawn one by one. */
  stretched: boolean;
  kashidas: KashidaPlan | null;
  /** Space added after each character of a piece (East Asian justification), by piece index. */
  charStretch: Map<number, number>;
  /** The explicit break that ends the line, if any. */
  breakKind: Piece["breakKind"];
}

/** Where a line may go: from `left` to `right`, in a box `width` wide (for mirroring). */
export interface LineSpan {
  left: number;
  right: number;
  width: number;
}

/** Where the justification's free room goes. */
interface Justification {
  shift: number;
  /** Added to each space character, and to each slot of `slots`, from piece `stretchFrom` on. */
  stretch: number;
  stretchFrom: number;
  kashidas: KashidaPlan | null;
  /**
   * East Asian justification (LibreOffice's lcl_AddSpace): piece index → the slots it stretches
   * besides its spaces, and whether they are after each of its characters (an East Asian piece)
   * or one after the piece (a piece followed by East Asian text).
   */
  slots: Map<number, { count: number; perChar: boolean }>;
}

export function arrangeLine(
  pieces: Piece[],
  start: number,
  end: number,
  span: LineSpan,
  tabs: TabContext,
  p: Paragraph,
): ArrangedLine {
  const cursor = new TabCursor(span.left, tabs, span.right);
  let breakKind: Piece["breakKind"];
  for (let k = start; k < end; k++) {
    // Floats take no width but keep their slot, so positions stay indexed from the line start.
    cursor.add(pieces[k]!, k);
    if (pieces[k]!.kind === "break") breakKind = pieces[k]!.breakKind;
  }
  cursor.resolve();

  // Trailing spaces (and the break) neither count for alignment nor are drawn, except before a
  // line break (w:br): LibreOffice keeps those spaces in the line, so they move a centred or
  // right-aligned line and take their share of justification (measured on minimal documents).
  const spacesCount = breakKind === "line";
  let lastVisible = end - 1;
  while (
    lastVisible >= start &&
    ((pieces[lastVisible]!.kind === "space" && !spacesCount) ||
      pieces[lastVisible]!.kind === "break" ||
      pieces[lastVisible]!.kind === "float")
  )
    lastVisible--;
  const contentEnd =
    lastVisible >= start ? cursor.xs[lastVisible - start]! + cursor.ws[lastVisible - start]! : span.left;
  // A line ending in a line break is not the paragraph's last: the mark's line follows it.
  const isLast = end >= pieces.length && breakKind === undefined;
  const justified = justification(
    pieces,
    start,
    lastVisible,
    span.right - contentEnd,
    p.style.align,
    isLast,
    breakKind,
  );

  const { xs, ws, charStretch } = finalPositions(pieces, start, end, lastVisible, cursor, justified);
  const visible: number[] = [];
  for (let k = start; k <= lastVisible; k++)
    if (pieces[k]!.kind !== "float" && pieces[k]!.kind !== "break") visible.push(k);
  const order = visualOrder(pieces, start, visible, xs, ws, p.style.bidi, span.width);
  return {
    start,
    end,
    order,
    xs,
    ws,
    stops: cursor.stops,
    stretched: justified.stretch > 0 || justified.kashidas !== null,
    kashidas: justified.kashidas,
    charStretch,
    breakKind,
  };
}

/**
 * Alignment of the line's content. In a bidi paragraph Word reads left/right as start/end:
 * positions here are from the start edge.
 */
function justification(
  pieces: Piece[],
  start: number,
  lastVisible: number,
  free: number,
  align: Paragraph["style"]["align"],
  isLast: boolean,
  breakKind: Piece["breakKind"],
): Justification {
  const out: Justification = { shift: 0, stretch: 0, stretchFrom: start, kashidas: null, slots: new Map() };
  if (align === "center") out.shift = free / 2;
  else if (align === "right") out.shift = free;
  else if (
    (align === "justify" && !isLast && breakKind !== "page" && breakKind !== "column") ||
    align === "distribute"
  ) {
    // Only spaces after the line's last tab stretch (the tab absorbs what comes before it).
    let lastTab = start - 1;
    for (let k = start; k <= lastVisible; k++) if (pieces[k]!.kind === "tab") lastTab = k;
    out.stretchFrom = lastTab + 1;
    if (align === "justify" && free > 0) out.kashidas = planKashidas(pieces, out.stretchFrom, lastVisible, free);
    let spaces = 0;
    for (let k = out.stretchFrom; k <= lastVisible; k++) if (pieces[k]!.kind === "space") spaces += pieces[k]!.chars;
    if (!out.kashidas) spaces += eastAsianSlots(pieces, out.stretchFrom, lastVisible, out.slots);
    if (!out.kashidas && spaces > 0 && free > 0) out.stretch = free / spaces;
  }
  return out;
}

/**
 * LibreOffice justifies East Asian text (Chinese, Japanese; not Korean, which stretches its spaces)
 * by a share after every character, except the line's last; text just before East Asian text
 * takes one share after it (sw lcl_AddSpace). Returns the number of such slots, recorded in `out`.
 */
function eastAsianSlots(
  pieces: Piece[],
  from: number,
  lastVisible: number,
  out: Map<number, { count: number; perChar: boolean }>,
): number {
  const asian = (k: number) => {
    const pc = pieces[k]!;
    return pc.kind === "text" && pc.style.cjkTypography !== "ko" && isEastAsian(pc.text.codePointAt(0) ?? 0);
  };
  let total = 0;
  for (let k = from; k <= lastVisible; k++) {
    if (asian(k)) {
      const count = pieces[k]!.chars - (k === lastVisible ? 1 : 0);
      if (count > 0) out.set(k, { count, perChar: true });
      total += Math.max(0, count);
    } else if (k < lastVisible && asian(k + 1) && pieces[k]!.kind !== "tab" && pieces[k]!.kind !== "float") {
      out.set(k, { count: 1, perChar: false });
      total++;
    }
  }
  return total;
}

/** Positions from the start edge with the alignment shift and the stretched spaces and words. */
function finalPositions(
  pieces: Piece[],
  start: number,
  end: number,
  lastVisible: number,
  placed: TabCursor,
  j: Justification,
): { xs: number[]; ws: number[]; charStretch: Map<number, number> } {
  const xs: number[] = new Array(end - start);
  const ws: number[] = new Array(end - start);
  const charStretch = new Map<number, number>();
  let extra = 0;
  for (let k = start; k < end; k++) {
    const o = k - start;
    const pc = pieces[k]!;
    xs[o] = placed.xs[o]! + j.shift + extra;
    ws[o] = k > lastVisible ? 0 : placed.ws[o]!;
    if (j.stretch > 0 && k >= j.stretchFrom && k <= lastVisible) {
      const slot = j.slots.get(k);
      let add = pc.kind === "space" ? j.stretch * pc.chars : 0;
      if (slot?.perChar) {
        // A share after each East Asian character is whole twips (LibreOffice's CJKJustify divides
        // away the precision its spaces keep; measured: 191 twips over 36 ideographs, 5 each).
        const each = Math.floor(j.stretch * 20 + 1e-6) / 20;
        add += each * slot.count;
        if (each > 0) charStretch.set(k, each);
      } else if (slot) add += j.stretch * slot.count;
      ws[o]! += add;
      extra += add;
    }
    const places = j.kashidas?.at.get(k);
    if (places) {
      ws[o]! += j.kashidas!.add * places.length;
      extra += j.kashidas!.add * places.length;
    }
  }
  return { xs, ws, charStretch };
}

/**
 * The visible pieces in drawing order: right-to-left runs reordered (rule L2) and a bidi
 * paragraph's line mirrored in the box, their `xs` moved to match. Unchanged without bidi text.
 */
function visualOrder(
  pieces: Piece[],
  start: number,
  visible: number[],
  xs: number[],
  ws: number[],
  bidi: boolean,
  boxWidth: number,
): number[] {
  const needsBidi = bidi || visible.some((k) => pieces[k]!.rtl);
  if (!needsBidi || visible.length === 0) return visible;
  const off = (k: number) => k - start;
  // Pieces made here (label suffix) have no level of their own: the paragraph's.
  const order = visualOrderOfLevels(visible.map((k) => pieces[k]!.level ?? (pieces[k]!.rtl || bidi ? 1 : 0)));
  const startX = xs[off(visible[0]!)]!;
  const last = visible[visible.length - 1]!;
  const endX = xs[off(last)]! + ws[off(last)]!;
  let x = bidi ? boxWidth - endX : startX;
  const vis: number[] = [];
  for (const o of order) {
    const k = visible[o]!;
    xs[off(k)] = x;
    x += ws[off(k)]!;
    vis.push(k);
  }
  return vis;
}
