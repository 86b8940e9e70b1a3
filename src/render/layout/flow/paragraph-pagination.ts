/**
 * Pagination of one laid-out paragraph: space before/after, keep-lines, widow/orphan control,
 * explicit breaks inside the paragraph, footnote room per line, and text pushed below
 * top-and-bottom floats. Works on `ParagraphLayout` data, so it is testable without fonts.
 */
import type { LineBox, PaintItem, ParagraphLayout } from "../types";
import type { Pager } from "./pager";
import { translateItem } from "../items";

export interface ParagraphFlowRules {
  /** Space before after contextual spacing (the flow decides). */
  spaceBefore: number;
  spaceAfter: number;
  keepLines: boolean;
  widowControl: boolean;
  pageBreakBefore: boolean;
  /** Space after of the paragraph above: the gap is the larger of it and the space before (LibreOffice). */
  previousAfter?: number;
  /** Proportional-spacing room below the paragraph above's last line (LineBox.extraBelow). */
  previousExtraBelow?: number;
  /**
   * Room of the paragraph's (or its bordered group's) top border, where a part of it that starts a
   * page or column takes it again: a line going on from the page before, or the first line of a
   * paragraph joined to the group above (LibreOffice, measured: the top border and its space come
   * back at the top of each page a bordered paragraph or group runs onto). Zero without one.
   */
  topBorderRoom?: number;
  /** The first line's layout already holds the top border's room (the paragraph opens its group). */
  firstLineHasTopBorder?: boolean;
  /** Likewise the bottom border's room, which a part of the paragraph that a page or column ends must leave. */
  bottomBorderRoom?: number;
}

/** Where each line of the paragraph went. */
export interface PlacedLine {
  page: number;
  top: number;
  left: number;
  /** Room of the top border taken again above this line at the top of its page or column. */
  topBorder?: number;
  /** Room of the bottom border below this line, the last of its page or column with more lines to come. */
  bottomBorder?: number;
}

/** Minimum lines kept together at either end of a split paragraph under widow/orphan control. */
const WIDOW_LINES = 2;

/** Height the first `count` lines of a paragraph need, with its space before. */
export function leadingHeight(layout: ParagraphLayout, rules: ParagraphFlowRules, count: number): number {
  let h = Math.max(0, rules.spaceBefore - (rules.previousAfter ?? 0));
  for (let i = 0; i < Math.min(count, layout.lines.length); i++) h += layout.lines[i]!.height;
  return h;
}

/**
 * Room the first `count` lines need at the bottom of a page: their leading height, less the last
 * line's proportional extra below when they are the whole paragraph (it may run past the bottom,
 * as in `linesThatFit`). Keep-with-next checks use it (LibreOffice: a table row or paragraph kept
 * with a one- or two-line paragraph stays on the page when only that extra does not fit).
 */
export function fitHeight(layout: ParagraphLayout, rules: ParagraphFlowRules, count: number): number {
  const h = leadingHeight(layout, rules, count);
  const last = layout.lines[layout.lines.length - 1];
  return count >= layout.lines.length && last ? h - (last.extraBelow ?? 0) : h;
}

/** Whole height of a paragraph including its spacing. */
export function paragraphHeight(layout: ParagraphLayout, rules: ParagraphFlowRules): number {
  return leadingHeight(layout, rules, layout.lines.length) + rules.spaceAfter;
}

/**
 * How many of `lines` (starting at `from`) to put in the current area, given the room: at least
 * one at the top of an empty area (every call advances), none when the rules move the paragraph on.
 */
export function linesThatFit(
  pager: Pager,
  lines: LineBox[],
  from: number,
  startY: number,
  rules: Pick<ParagraphFlowRules, "keepLines" | "widowControl" | "bottomBorderRoom">,
): number {
  const limit = pager.bottomLimit();
  let y = startY;
  let notes = 0;
  let fit = 0;
  /** Room left below each fitting line. */
  const left: number[] = [];
  for (let i = from; i < lines.length; i++) {
    const line = lines[i]!;
    // The last line's proportional extra below may run past the bottom, as space after does (LibreOffice).
    const need = line.height - (i === lines.length - 1 ? (line.extraBelow ?? 0) : 0);
    // A line needs room for the notes above it and the start of its own (see `noteMinRoom`); the
    // rest of its notes may run on to the next page (LibreOffice), and then nothing more fits here.
    if (y + need > limit - notes - (notes > 0 ? 0 : pager.noteMinRoom(line.noteRefs)) + 0.01) break;
    notes += pager.noteRoom(line.noteRefs);
    y += line.height;
    fit++;
    left.push(limit - notes - y);
    if (line.breakAfter || y > limit - notes + 0.01) break;
  }
  // A part that ends here with lines still to come closes with the bottom border (LibreOffice).
  const room = rules.bottomBorderRoom ?? 0;
  if (room > 0)
    while (fit > 0 && from + fit < lines.length && !lines[from + fit - 1]!.breakAfter && left[fit - 1]! < room - 0.01)
      fit--;
  const rest = lines.length - from;
  const endsWithBreak = fit > 0 && lines[from + fit - 1]!.breakAfter !== undefined;
  if (fit >= rest || endsWithBreak) return fit;
  const atTop = pager.atAreaTop();
  if (rules.keepLines && from === 0 && !atTop) return 0;
  if (rules.widowControl && rest > 1) {
    // Orphan: the first line alone at the bottom; widow: the last line alone at the top.
    let k = fit;
    if (rest - k < WIDOW_LINES) k = rest - WIDOW_LINES;
    if (from === 0 && k < WIDOW_LINES) k = 0;
    if (k > 0 || !atTop) return Math.max(k, 0);
  }
  return atTop ? Math.max(fit, 1) : fit;
}

/** Lays a paragraph out again for an area of another width (see `placeParagraph`). */
export interface Relayout {
  /** Width the layout given to `placeParagraph` was made for. */
  width: number;
  /** The paragraph laid out with line `k` at `widthOf(k)`. */
  at(widthOf: (line: number) => number): ParagraphLayout;
  /** Set by `placeParagraph` to the layout its lines finally came from. */
  latest?: ParagraphLayout;
}

/**
 * Places a paragraph's lines through the pager; returns where each line went. With `relayout`, the
 * lines that go on in a column of another width (or the whole paragraph moved there) are laid out
 * again at that width, as LibreOffice formats each column's part of a paragraph in its column.
 */
export function placeParagraph(
  pager: Pager,
  layout: ParagraphLayout,
  rules: ParagraphFlowRules,
  relayout?: Relayout,
): PlacedLine[] {
  const placed: PlacedLine[] = [];
  if (rules.pageBreakBefore && !(pager.atAreaTop() && pager.columnIndex === 0)) pager.breakArea("page", "hard");

  let lines = layout.lines;
  let width = relayout?.width ?? 0;
  /** Width each placed line was laid out at. */
  const widths: number[] = [];
  const fitArea = () => {
    if (!relayout || Math.abs(pager.area.width - width) < 0.01) return;
    width = pager.area.width;
    const kept = widths.slice(0, i);
    const w = width;
    relayout.latest = relayout.at((k) => (k < kept.length ? kept[k]! : w));
    lines = relayout.latest.lines;
  };
  if (relayout) relayout.latest = layout;
  let spaceBefore = keptSpaceBefore(pager, rules);
  let i = 0;
  // A paragraph always advances: every pass places at least one line or moves to a fresh area.
  while (i < lines.length) {
    fitArea();
    const border = pager.atAreaTop() && !(i === 0 && rules.firstLineHasTopBorder) ? (rules.topBorderRoom ?? 0) : 0;
    const above = pager.y;
    pushBelowFloats(pager, lines[i]!.height + spaceBefore + border);
    // A paragraph pushed below a top-and-bottom float keeps its whole space above there: the larger
    // of its space before and the space after above, the proportional room below the line above,
    // and its first line's own room above, which it otherwise leaves out (LibreOffice, measured).
    if (i === 0 && pager.y > above)
      spaceBefore += (rules.previousAfter ?? 0) + (rules.previousExtraBelow ?? 0) + (lines[0]!.extraWithheld ?? 0);
    const n = linesThatFit(pager, lines, i, pager.y + spaceBefore + border, rules);
    if (n === 0) {
      pager.breakArea("column");
      spaceBefore = i === 0 ? keptSpaceBefore(pager, rules) : 0;
      continue;
    }
    pager.y += spaceBefore + border;
    spaceBefore = 0;
    for (let k = 0; k < n; k++) {
      const line = lines[i]!;
      if (k > 0) pushBelowFloats(pager, line.height);
      // LibreOffice drops a continued line's proportional-spacing extra at the top of a page.
      const trim = i > 0 && pager.atAreaTop() ? (line.extraAbove ?? 0) : 0;
      emitLine(pager, line, placed, trim);
      if (k === 0 && border > 0) placed[placed.length - 1]!.topBorder = border;
      widths[i] = width;
      i++;
      if (line.breakAfter) {
        pager.breakArea(line.breakAfter, "hard");
        // LibreOffice moves a break that ends a paragraph onto the next paragraph: the empty
        // rest of this one (its mark's line) is not shown on the new page. A space or a tab
        // after the break is text: its line is shown (measured).
        if (lines.slice(i).every((l) => l.markOnly)) return placed;
        break;
      }
    }
    if (i < lines.length && !lines[i - 1]!.breakAfter) {
      if (rules.bottomBorderRoom) placed[placed.length - 1]!.bottomBorder = rules.bottomBorderRoom;
      pager.breakArea("column");
    }
  }
  if (lines.length > 0 && lines[lines.length - 1]!.breakAfter) return placed;
  pager.y += rules.spaceAfter;
  if (lines.length === 0) pager.markPlaced();
  return placed;
}

/** Word and LibreOffice drop space before at the top of a page reached by a soft break. */
function keptSpaceBefore(pager: Pager, rules: ParagraphFlowRules): number {
  if (!pager.atAreaTop()) return Math.max(0, rules.spaceBefore - (rules.previousAfter ?? 0));
  return pager.start === "soft" ? 0 : rules.spaceBefore;
}

/** Emits a line at the cursor; `trim` pt are cut from the top of the line box. */
function emitLine(pager: Pager, line: LineBox, placed: PlacedLine[], trim = 0): void {
  const top = pager.y - trim;
  const left = pager.area.left;
  placed.push({ page: pager.pages.length - 1, top, left });
  for (const item of line.items) pager.emit(translateItem(item, left, top) as PaintItem);
  pager.markPlaced();
  if (line.noteRefs?.length) pager.noteRefs(line.noteRefs, top + line.height);
  pager.y = top + line.height;
}

/** Moves the cursor below top-and-bottom floats that a line of `height` at the cursor would overlap. */
export function pushBelowFloats(pager: Pager, height: number): void {
  const area = pager.area;
  for (let guard = 0; guard < 64; guard++) {
    const y = pager.y;
    const hit = pager.page.floats.find(
      (f) =>
        f.wrap === "topAndBottom" &&
        f.y - f.distance.top < y + height &&
        f.y + f.height + f.distance.bottom > y &&
        f.x < area.left + area.width &&
        f.x + f.width > area.left,
    );
    if (!hit) return;
    pager.y = hit.y + hit.height + hit.distance.bottom;
  }
}
