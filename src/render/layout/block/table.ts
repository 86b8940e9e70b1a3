/**
 * Tables: column widths from the grid, cells laid out as stacks, rows placed top-down at the
 * flow cursor. A row that does not fit moves to the next page, or splits at line boundaries of its
 * cells; header rows repeat at the top of each continued page. Borders take room between rows
 * (as in LibreOffice) and are drawn as lines centred in that room.
 */
import type { Block, Paragraph, Table } from "../../model/types";
import type { FlowCursor, LayoutContext, PaintItem, PlaceTable, StackedBlocks } from "../types";
import { LIMITS } from "../../../limits";
import { stackBlocks } from "./stack";
import { layoutParagraph } from "../inline/paragraph";
import { anchorY, translateItem } from "../items";
import { buildGrid, columnEdges, columnWidths, tableLeft, type GridCell, type TableGrid } from "./table-grid";
import { horizontalEdgeWidth, horizontalLines, thickness, verticalEdge, verticalLines } from "./table-borders";

/** Tables currently being laid out inside each other (cells hold tables). */
let nesting = 0;

export const placeTable: PlaceTable = (t, cursor, ctx) => placeTableKeeping(t, cursor, ctx, 0);

/**
 * Places a table whose last row must share its page with `keepAfter` pt of what follows (the row's
 * paragraphs keep with the next one): a last row that fits only without them moves to the next page.
 */
export function placeTableKeeping(t: Table, cursor: FlowCursor, ctx: LayoutContext, keepAfter: number): void {
  if (nesting >= LIMITS.render.maxNesting) return placeFlattened(t, cursor, ctx);
  nesting++;
  try {
    const prepared = prepareTable(t, cursor.area.left, cursor.area.width, ctx, nesting > 1);
    paginate(prepared, cursor, undefined, keepAfter);
  } finally {
    nesting--;
  }
}

/** Whether a cell of the table's last row starts with a keep-with-next paragraph (LibreOffice keeps the row with what follows). */
export function lastRowKeepsWithNext(t: Table): boolean {
  const row = t.rows[t.rows.length - 1];
  return !!row && row.cells.some((c) => c.blocks[0]?.type === "paragraph" && c.blocks[0].style.keepNext);
}

/**
 * A table laid out without pagination at `top` in a box of `width` starting at x = 0 (for cells,
 * text boxes, headers). Returns the items, the y below the table and the row boundaries.
 */
export function stackTable(t: Table, width: number, ctx: LayoutContext, top: number): { items: PaintItem[]; bottom: number; breakPoints: number[] } {
  const items: PaintItem[] = [];
  const breakPoints: number[] = [];
  const cursor = unboundedCursor(width, top, items);
  if (nesting >= LIMITS.render.maxNesting) {
    placeFlattened(t, cursor, ctx);
    return { items, bottom: cursor.y, breakPoints };
  }
  nesting++;
  try {
    const prepared = prepareTable(t, 0, width, ctx, nesting > 1);
    paginate(prepared, cursor, (y) => breakPoints.push(y));
  } finally {
    nesting--;
  }
  return { items, bottom: cursor.y, breakPoints };
}

/** A cursor with one endless area: nothing ever breaks. */
function unboundedCursor(width: number, top: number, items: PaintItem[]): FlowCursor {
  return {
    area: { left: 0, width, top, bottom: Number.POSITIVE_INFINITY },
    y: top,
    emit: (item) => void items.push(item),
    breakArea: () => {},
    atAreaTop: () => true,
    noteRefs: () => {},
    remaining: () => Number.POSITIVE_INFINITY,
  };
}

/** Beyond the nesting limit a table's paragraphs are shown one after another (text kept, grid lost). */
function placeFlattened(t: Table, cursor: FlowCursor, ctx: LayoutContext): void {
  const paragraphs: Paragraph[] = [];
  const pending: Block[] = [t];
  while (pending.length > 0) {
    const b = pending.shift()!;
    if (b.type === "paragraph") paragraphs.push(b);
    else for (const row of b.rows) for (const cell of row.cells) pending.push(...cell.blocks);
  }
  const stacked = stackBlocks(paragraphs, cursor.area.width, ctx);
  for (const item of stacked.items) cursor.emit(translateItem(item, cursor.area.left, cursor.y));
  cursor.y += stacked.height;
}

interface PreparedTable {
  t: Table;
  grid: TableGrid;
  /**
   * x of each grid line from the table's left grid line, in drawing order: mirrored for
   * right-to-left tables (bidiVisual), where the first column is on the right.
   */
  edges: number[];
  /** x of the table's left border edge (page or stack coordinates). */
  left: number;
  content: Map<GridCell, StackedBlocks>;
  /** Height of each row's cell boxes (without the border room above it). */
  heights: number[];
  /** Room taken by the horizontal edge above row r (r = 0: the table's top). */
  roomAbove: number[];
  /** Footnote references ("footnote:ID") inside each row's cells. */
  notes: string[][];
}

/** Widths, position, cell contents and row heights of a table; `nested` when it sits in a cell or box. */
export function prepareTable(t: Table, areaLeft: number, areaWidth: number, ctx: LayoutContext, nested: boolean): PreparedTable {
  const grid = buildGrid(t);
  const widths = columnWidths(t, grid, areaWidth);
  const edges = columnEdges(widths);
  const firstCol = grid.slots[0]?.findIndex((s) => s !== null) ?? -1;
  const leftBorder = firstCol >= 0 ? thickness(verticalEdge(t, grid, 0, firstCol)) : 0;
  const total = edges[edges.length - 1]!;
  const left = tableLeft(t, grid, total, areaLeft, areaWidth, !nested && !t.indentToBorder, leftBorder);
  const content = new Map<GridCell, StackedBlocks>();
  const cellCtx: LayoutContext = { ...ctx, inTableCell: true };
  for (const g of grid.cells) {
    const w = Math.max(edges[g.col + g.colSpan]! - edges[g.col]! - g.cell.margins.left - g.cell.margins.right, 1);
    const blocks = withoutEndMarkAfterTable(g.cell.blocks);
    content.set(g, withCellEndSpacing(stackBlocks(blocks, w, cellCtx, { inCell: true }), blocks, w, cellCtx));
  }
  const roomAbove = t.rows.map((_, r) => horizontalEdgeWidth(t, grid, r - 1, r));
  const heights = rowHeights(t, grid, content, roomAbove);
  const notes: string[][] = t.rows.map(() => []);
  for (const g of grid.cells) notes[g.row]!.push(...noteRefsOf(g.cell.blocks));
  const drawn = t.bidi ? edges.map((e) => total - e) : edges;
  return { t, grid, edges: drawn, left, content, heights, roomAbove, notes };
}

/**
 * A cell ending in a nested table needs a paragraph after it (Word's cell end mark); LibreOffice's
 * DOCX import drops that paragraph when it is empty, so it takes no room (measured: a cell of
 * [table, empty paragraph] is as tall as [table]; a second empty paragraph, or text, keeps its line).
 */
function withoutEndMarkAfterTable(blocks: Block[]): Block[] {
  const last = blocks[blocks.length - 1];
  if (blocks.length < 2 || blocks[blocks.length - 2]!.type !== "table" || last?.type !== "paragraph" || last.inlines.length > 0) return blocks;
  return blocks.slice(0, -1);
}

/** Line height of LibreOffice's default face (Liberation Serif: hhea 1825 + 443 + 87 of 2048), em. */
const DEFAULT_FACE_LINE_EM = 2355 / 2048;

/**
 * LibreOffice gives the last line of a cell its proportional-spacing extra from the paragraph
 * style's font size in its default face, not from the line's own font (measured: Times New Roman
 * 12 pt at 1.15 under an 11 pt style is 15.65 pt in a cell, 15.85 pt in the body; the style's size
 * moves it, the line's font and the mark's formatting do not). The cell's content height follows.
 */
function withCellEndSpacing(stack: StackedBlocks, blocks: Block[], width: number, ctx: LayoutContext): StackedBlocks {
  const last = blocks[blocks.length - 1];
  if (last?.type !== "paragraph" || last.style.line.rule !== "auto" || !(last.style.line.value > 1)) return stack;
  // The paragraph style's own run size where the model gives it (Paragraph.styleRun), else the mark's.
  const size = (last as { styleRun?: { size: number } }).styleRun?.size ?? last.markStyle.size;
  const line = layoutParagraph(last, width, ctx).lines.at(-1);
  if (!line || !line.extraBelow || !(size > 0)) return stack;
  const natural = line.height - line.extraBelow;
  // Whole twips, truncated, as LibreOffice computes proportional lines.
  const height = Math.floor((natural + (last.style.line.value - 1) * DEFAULT_FACE_LINE_EM * size) * 20 + 1e-6) / 20;
  const delta = height - line.height;
  if (Math.abs(delta) < EPS) return stack;
  const breakPoints = stack.breakPoints.map((bp) => (bp >= stack.height - EPS ? bp + delta : bp));
  return { ...stack, height: stack.height + delta, breakPoints };
}

/** Box height of one cell: margins around its content. */
function cellNeed(g: GridCell, content: Map<GridCell, StackedBlocks>): number {
  return g.cell.margins.top + content.get(g)!.height + g.cell.margins.bottom;
}

/**
 * Row heights: the tallest single-row cell, then the row's rule (atLeast, exact; the border above the
 * row counts in it), then vertically merged cells taller than the rows they span give the difference to their last row.
 */
export function rowHeights(t: Table, grid: TableGrid, content: Map<GridCell, StackedBlocks>, roomAbove: number[]): number[] {
  const tallest: number[] = t.rows.map(() => 0);
  for (const g of grid.cells) if (g.rowSpan === 1) tallest[g.row] = Math.max(tallest[g.row]!, cellNeed(g, content));
  const heights = t.rows.map((row, r) => {
    let h = tallest[r]!;
    const rule = row.height;
    if (rule && Number.isFinite(rule.value) && rule.value > 0) {
      // The row height counts the border above the row (LibreOffice): a 13 pt row under a 0.5 pt rule is 12.5 pt of cell box.
      const box = Math.max(rule.value - roomAbove[r]!, 0);
      h = rule.rule === "exact" ? box : Math.max(h, box);
    }
    return h;
  });
  const merged = grid.cells.filter((g) => g.rowSpan > 1).sort((a, b) => a.row + a.rowSpan - (b.row + b.rowSpan));
  for (const g of merged) {
    const last = g.row + g.rowSpan - 1;
    if (t.rows[last]?.height?.rule === "exact") continue;
    let have = heights[g.row]!;
    for (let r = g.row + 1; r <= last; r++) have += roomAbove[r]! + heights[r]!;
    const need = cellNeed(g, content);
    if (need > have) heights[last]! += need - have;
  }
  return heights;
}

/**
 * Note references in blocks (nested tables included), as "footnote:id" / "endnote:id": footnotes take
 * room on the row's page, endnotes are only collected so they print at the end.
 */
function noteRefsOf(blocks: Block[]): string[] {
  const out: string[] = [];
  const pending = [...blocks];
  while (pending.length > 0) {
    const b = pending.shift()!;
    if (b.type === "table") {
      for (const row of b.rows) for (const cell of row.cells) pending.push(...cell.blocks);
      continue;
    }
    for (const inline of b.inlines) if (inline.type === "noteRef" && !inline.own) out.push(`${inline.kind}:${inline.id}`);
  }
  return out;
}

/** Leading header rows that repeat; none when every row is a header (nothing would follow them). */
function headerRowCount(t: Table): number {
  let n = 0;
  while (n < t.rows.length && t.rows[n]!.header) n++;
  return n === t.rows.length ? 0 : n;
}

/** Tolerance for rounding when comparing heights, pt. */
const EPS = 0.01;

/** A merged cell open on the current page: where its box starts. */
interface OpenMerge {
  top: number;
  /** First row of the span on this page. */
  firstRow: number;
  /** Whether its content was already drawn on an earlier page. */
  drawn: boolean;
}

function paginate(p: PreparedTable, cursor: FlowCursor, onRowBoundary?: (y: number) => void, keepAfter = 0): void {
  const { t, grid } = p;
  const rowCount = t.rows.length;
  if (rowCount === 0) return;
  const headers = headerRowCount(t);
  /** Row above on this page (-1: the next row starts the table's part on this page). */
  let above = -1;
  /** Rows other than repeated headers placed on this page (whole or in part). */
  let bodyRowsHere = 0;
  /** Content already placed of the cells of a row that was split (offset into their stacks). */
  let consumed: Map<GridCell, number> | null = null;
  let fresh = cursor.atAreaTop();
  const open = new Map<GridCell, OpenMerge>();
  const drawnMerges = new Set<GridCell>();

  /**
   * The row part that continues a split row at the top of a page takes the row's bottom border as
   * its top one when its own top edge has none (LibreOffice draws a rule there, measured).
   */
  const continuedTop = (r: number, continuing: boolean) => continuing && horizontalEdgeWidth(t, grid, -1, r) === 0;
  const roomOver = (r: number, continuing = consumed !== null) =>
    above >= 0 ? p.roomAbove[r]! : continuedTop(r, continuing) ? horizontalEdgeWidth(t, grid, r, -1) : horizontalEdgeWidth(t, grid, -1, r);
  const roomUnder = (r: number) => horizontalEdgeWidth(t, grid, r, -1);

  /** Places row r (or what is left of it) with cell boxes of height h; `cut` limits each cell's content. */
  const placeRow = (r: number, h: number, from: Map<GridCell, number> | null, cut: Map<GridCell, number> | null) => {
    const y = cursor.y;
    const continuing = from !== null && above < 0;
    const room = roomOver(r, from !== null);
    const top = y + room;
    const bottom = top + h;
    const rowCells = cellsStartingOrCovering(grid, r);
    // Backgrounds, then content, then borders (painting order).
    for (const g of rowCells) {
      if (g.rowSpan > 1) {
        if (!open.has(g)) open.set(g, { top, firstRow: r, drawn: drawnMerges.has(g) });
        continue;
      }
      drawCell(p, g, cursor, top, bottom, from?.get(g) ?? 0, cut?.get(g) ?? null, from === null && cut === null);
    }
    const topEdge = continuedTop(r, continuing) ? horizontalLines(t, grid, r, -1, y + room / 2, p.edges, p.left) : horizontalLines(t, grid, above, r, y + room / 2, p.edges, p.left);
    for (const line of topEdge) cursor.emit(line);
    for (const line of verticalLines(t, grid, r, y, bottom, p.edges, p.left)) cursor.emit(line);
    cursor.y = bottom;
    above = r;
    if (r >= headers) bodyRowsHere++;
    for (const [g, o] of open) if (g.row + g.rowSpan - 1 === r) closeMerge(g, o, bottom, true);
  };

  const closeMerge = (g: GridCell, o: OpenMerge, bottom: number, complete: boolean) => {
    open.delete(g);
    drawCell(p, g, cursor, o.top, bottom, 0, null, complete && !o.drawn && o.firstRow === g.row, !o.drawn);
    drawnMerges.add(g);
    // Its shading went over the halves of its side borders drawn with the rows: draw them again.
    if (!g.cell.shading) return;
    for (const c of [g.col, g.col + g.colSpan]) {
      const b = verticalEdge(t, grid, o.firstRow, c);
      if (!b) continue;
      const x = p.left + p.edges[c]!;
      cursor.emit({ kind: "line", x1: x, y1: o.top, x2: x, y2: bottom, width: b.width, color: b.color });
    }
  };

  /** Ends the table's part on this page: bottom border, merged cells cut here. */
  const closePage = () => {
    if (above < 0) return;
    for (const [g, o] of open) closeMerge(g, o, cursor.y, false);
    const room = roomUnder(above);
    for (const line of horizontalLines(t, grid, above, -1, cursor.y + room / 2, p.edges, p.left)) cursor.emit(line);
    cursor.y += room;
  };

  const nextPage = (r: number) => {
    closePage();
    cursor.breakArea("page");
    above = -1;
    bodyRowsHere = 0;
    fresh = true;
    if (headers > 0 && r >= headers) {
      let need = 0;
      for (let h = 0; h < headers; h++) need += (h === 0 ? horizontalEdgeWidth(t, grid, -1, 0) : p.roomAbove[h]!) + p.heights[h]!;
      // Headers taking more than half the page would leave little room for the rows they head: drop them.
      if (need + roomUnder(headers - 1) <= cursor.remaining() / 2) for (let h = 0; h < headers; h++) placeRow(h, p.heights[h]!, null, null);
    }
  };

  /**
   * Word's "table row keep" as LibreOffice follows it for DOCX: a row whose first cell starts with a
   * keep-with-next paragraph stays on the page of the row after it. Whether rows r.. that keep, and
   * the first row after them that does not, overflow `available` (r itself fits).
   */
  const keptRowsOverflow = (r: number, available: number): boolean => {
    if (!rowKeepsWithNext(t, r)) return false;
    // `available` is what row r has between its borders; rows below add their own.
    let used = p.heights[r]! - roomUnder(r);
    for (let k = r + 1; k < rowCount; k++) {
      if (!rowKeepsWithNext(t, k - 1)) return false; // all of the chain and the row after it fit
      const room = available - used - p.roomAbove[k]! - roomUnder(k);
      if (p.heights[k]! <= room + EPS) {
        used += p.roomAbove[k]! + p.heights[k]!;
        continue;
      }
      // Row k is the first that does not fit whole: LibreOffice splits it where it can, else the
      // rows keeping with it go on with it.
      return !rowSplitsEverywhere(k, room);
    }
    return false;
  };
  /** Row k splits in `room` (see everyCellStarts); a row that keeps with the next does not. */
  const rowSplitsEverywhere = (k: number, room: number): boolean => {
    const split = canSplit(p, k) && !rowKeepsWithNext(t, k) ? splitRow(p, k, null, room) : null;
    return !!split?.progress && everyCellStarts(k, split.cut);
  };
  /**
   * LibreOffice splits a row only where the first line (or kept group) of every cell fits above the
   * cut; else the row goes on whole (measured).
   */
  const everyCellStarts = (k: number, cut: Map<GridCell, number>): boolean => {
    for (const g of cellsStartingOrCovering(grid, k)) if (g.row === k && p.content.get(g)!.height > EPS && !((cut.get(g) ?? 0) > EPS)) return false;
    return true;
  };

  let r = 0;
  // Every pass places a row, splits one after at least one line, or breaks the page once before doing so.
  let guard = 16;
  for (const c of p.content.values()) guard += 2 * c.breakPoints.length;
  guard += rowCount * 3;
  while (r < rowCount && guard-- > 0) {
    const room = roomOver(r);
    const under = roomUnder(r);
    const left = consumed ? remainingHeight(p, r, consumed) : p.heights[r]!;
    const available = cursor.remaining() - room - under;
    const kept = r === rowCount - 1 && consumed === null && !fresh ? keepAfter : 0;
    if (left <= available + EPS && left + kept > available + EPS) {
      // The last row fits but what it keeps with does not: both go on.
      nextPage(r);
      continue;
    }
    if (left <= available + EPS && consumed === null && bodyRowsHere > 0 && above === r - 1 && !rowKeepsWithNext(t, above) && keptRowsOverflow(r, available)) {
      // Rows that keep with the next one go on with the first row that does not fit whole, when a
      // row without keep stays above them (else LibreOffice splits as if they did not keep).
      nextPage(r);
      continue;
    }
    if (left <= available + EPS) {
      placeRow(r, left, consumed, null);
      if (consumed === null) cursor.noteRefs(p.notes[r]!);
      consumed = null;
      fresh = false;
      onRowBoundary?.(cursor.y);
      r++;
      continue;
    }
    // A row that keeps with the next one is not split where it could go on whole (LibreOffice, measured).
    const keepWhole: boolean = consumed === null && !fresh && rowKeepsWithNext(t, r);
    const split: ReturnType<typeof splitRow> = canSplit(p, r) && !keepWhole ? splitRow(p, r, consumed, available) : null;
    if (split && split.progress && (consumed !== null || everyCellStarts(r, split.cut))) {
      placeRow(r, split.height, consumed, split.cut);
      if (consumed === null) cursor.noteRefs(p.notes[r]!);
      consumed = split.cut;
      nextPage(r);
      // LibreOffice drops a continued line's proportional-spacing extra at the top of a page.
      for (const [g, at] of consumed) consumed.set(g, at + (p.content.get(g)!.continueTrim?.get(at) ?? 0));
      continue;
    }
    if (fresh || cursor.atAreaTop()) {
      // Nothing fits even on an empty page and the row cannot split: place it whole and overflow.
      placeRow(r, left, consumed, null);
      if (consumed === null) cursor.noteRefs(p.notes[r]!);
      consumed = null;
      fresh = false;
      r++;
      continue;
    }
    nextPage(r);
  }
  // Never reached when the pass count above holds; if it did not, the rest still shows (unpaginated).
  for (; r < rowCount; r++) {
    placeRow(r, consumed ? remainingHeight(p, r, consumed) : p.heights[r]!, consumed, null);
    consumed = null;
  }
  closeTable();

  function closeTable() {
    for (const [g, o] of open) closeMerge(g, o, cursor.y, true);
    if (above >= 0) {
      const room = roomUnder(above);
      for (const line of horizontalLines(t, grid, above, -1, cursor.y + room / 2, p.edges, p.left)) cursor.emit(line);
      cursor.y += room;
    }
  }
}

/** The row's first cell starts with a keep-with-next paragraph (LibreOffice looks at that cell only). */
function rowKeepsWithNext(t: Table, r: number): boolean {
  const first = t.rows[r]?.cells[0]?.blocks[0];
  return first?.type === "paragraph" && first.style.keepNext;
}

/** Cells with a box in row r: those starting there and merged cells covering it. */
function cellsStartingOrCovering(grid: TableGrid, r: number): GridCell[] {
  const out: GridCell[] = [];
  // A cell's slots are consecutive: comparing with the previous slot is enough.
  let prev: GridCell | null = null;
  for (const g of grid.slots[r] ?? []) {
    if (g && g !== prev) out.push(g);
    prev = g;
  }
  return out;
}

/**
 * Rows with exact heights or cantSplit stay whole, and so does a row whose minimum height holds all
 * its content: LibreOffice moves it whole (measured). Rows with merged cells split too (LibreOffice,
 * measured), as long as the merged cells' content fits above the cut: see `splitRow`.
 */
function canSplit(p: PreparedTable, r: number): boolean {
  const row = p.t.rows[r]!;
  if (row.cantSplit || row.height?.rule === "exact") return false;
  const cells = cellsStartingOrCovering(p.grid, r).filter((g) => g.row === r);
  if (row.height && Number.isFinite(row.height.value)) {
    const tallest = Math.max(0, ...cells.map((g) => cellNeed(g, p.content)));
    if (tallest <= row.height.value + EPS) return false;
  }
  return true;
}

/** Height of what is left of a split row: its tallest cell's remaining content plus margins. */
function remainingHeight(p: PreparedTable, r: number, consumed: Map<GridCell, number>): number {
  let h = 0;
  for (const g of cellsStartingOrCovering(p.grid, r)) {
    // A merged cell's content went whole onto the first part (splitRow); its box runs on regardless.
    if (g.rowSpan > 1) continue;
    const c = p.content.get(g)!;
    h = Math.max(h, g.cell.margins.top + Math.max(0, c.height - (consumed.get(g) ?? 0)) + g.cell.margins.bottom);
  }
  return h;
}

/**
 * Where each cell of row r breaks so that the row's part fits in `available`: the lowest line
 * boundary of each cell that fits. `progress` says whether any cell placed a line.
 */
function splitRow(p: PreparedTable, r: number, consumed: Map<GridCell, number> | null, available: number): { cut: Map<GridCell, number>; height: number; progress: boolean } | null {
  const cut = new Map<GridCell, number>();
  let height = 0;
  let progress = false;
  for (const g of cellsStartingOrCovering(p.grid, r)) {
    const c = p.content.get(g)!;
    const from = consumed?.get(g) ?? 0;
    const room = available - g.cell.margins.top - g.cell.margins.bottom;
    if (g.rowSpan > 1) {
      // A merged cell keeps its content whole above the cut (its box continues over the next page);
      // one whose content does not fit there keeps the row whole.
      cut.set(g, c.height);
      if (from >= c.height - EPS) continue;
      let over = 0; // its rows above this one
      for (let k = g.row; k < r; k++) over += p.heights[k]! + p.roomAbove[k + 1]!;
      if (c.height - from > room + over + EPS) return null;
      if (g.row === r) height = Math.max(height, g.cell.margins.top + (c.height - from) + g.cell.margins.bottom);
      continue;
    }
    let to = from;
    if (c.height - from <= room + EPS) to = c.height;
    else for (const bp of c.breakPoints) if (bp > from + EPS && bp - from <= room + EPS) to = Math.max(to, bp);
    if (to > from + EPS) progress = true;
    cut.set(g, to);
    height = Math.max(height, g.cell.margins.top + (to - from) + g.cell.margins.bottom);
  }
  // A split that places nothing on the next page either is no split.
  if (![...cut.entries()].some(([g, to]) => to < p.content.get(g)!.height - EPS)) return null;
  return { cut, height, progress };
}

/**
 * Shading and content of one cell box [top, bottom). `from`/`to` select the part of its content
 * drawn here (a split row); `align` applies vAlign (only when the whole content is drawn).
 */
function drawCell(p: PreparedTable, g: GridCell, cursor: FlowCursor, top: number, bottom: number, from: number, to: number | null, align: boolean, content = true): void {
  const { cell } = g;
  const a = p.edges[g.col]!;
  const b = p.edges[g.col + g.colSpan]!;
  const x = p.left + Math.min(a, b);
  const width = Math.abs(b - a);
  if (cell.shading && bottom > top) cursor.emit({ kind: "rect", x, y: top, width, height: bottom - top, fill: cell.shading });
  if (!content) return;
  const stacked = p.content.get(g)!;
  let dy = top + cell.margins.top - from;
  if (align && cell.vAlign !== "top") {
    const free = bottom - top - cell.margins.top - cell.margins.bottom - stacked.height;
    if (free > 0) dy += cell.vAlign === "center" ? free / 2 : free;
  }
  const dx = x + cell.margins.left;
  // Content taller than the box (exact row heights): what starts below the box is cut off, as
  // LibreOffice clips it; a line crossing the bottom edge stays.
  const limit = stacked.height - from > bottom - top - cell.margins.top + EPS ? from + (bottom - top - cell.margins.top) : Number.POSITIVE_INFINITY;
  for (const item of stacked.items) {
    const ay = anchorY(item);
    if (ay < from - EPS) continue;
    if (to !== null && ay >= to - EPS) continue;
    if ((item.kind === "text" ? ay - item.face.ascent(item.size) : ay) >= limit) continue;
    cursor.emit(translateItem(item, dx, dy));
  }
}
