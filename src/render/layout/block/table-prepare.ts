/**
 * A table measured before it is placed: column widths and edges on the grid, its position, each
 * cell's content stacked in its width (LibreOffice's cell-end rules applied), row heights from
 * the tallest cell and the row's rule, and the footnotes each row references.
 */
import type { Block, Table } from "../../model/types";
import type { LayoutContext, StackedBlocks } from "../types";
import { horizontalEdgeWidth, thickness, verticalEdge } from "./table-borders";
import { buildGrid, columnEdges, columnWidths, tableLeft, type GridCell, type TableGrid } from "./table-grid";

/** Tolerance for rounding when comparing heights, pt. */
export const EPS = 0.01;

/** A table measured for placing: its grid, column edges, cell contents and row heights. */
export interface PreparedTable {
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
  /**
   * Note references ("footnote:ID", "endnote:ID") of each cell by the top of the line making them
   * in its content; those not on a line of the cell's own paragraphs (nested tables) at the top.
   */
  notes: Map<GridCell, { top: number; ids: string[] }[]>;
}

/** Widths, position, cell contents and row heights of a table (nested when `ctx.tableDepth` > 0: it sits in a cell). */
export function prepareTable(t: Table, areaLeft: number, areaWidth: number, ctx: LayoutContext): PreparedTable {
  const nested = ctx.tableDepth > 0;
  const grid = buildGrid(t);
  const widths = columnWidths(t, grid, areaWidth);
  const edges = columnEdges(widths);
  const firstCol = grid.slots[0]?.findIndex((s) => s !== null) ?? -1;
  const leftBorder = firstCol >= 0 ? thickness(verticalEdge(t, grid, 0, firstCol)) : 0;
  const total = edges[edges.length - 1]!;
  const left = tableLeft(t, grid, total, areaLeft, areaWidth, !nested && !t.indentToBorder, leftBorder);
  const content = new Map<GridCell, StackedBlocks>();
  const cellCtx: LayoutContext = { ...ctx, inTableCell: true, tableDepth: ctx.tableDepth + 1, partTables: false };
  // A floating table is a frame of its own in LibreOffice, not the header's (as a text box's tables).
  const endTwice = !nested && ctx.partTables === true && !t.float;
  for (const g of grid.cells) {
    const w = Math.max(edges[g.col + g.colSpan]! - edges[g.col]! - g.cell.margins.left - g.cell.margins.right, 1);
    const blocks = withoutEndMarkAfterTable(g.cell.blocks);
    const shaded = g.cell.shading ? { ...cellCtx, background: g.cell.shading } : cellCtx;
    const stack = ctx.routines.stackBlocks(blocks, w, shaded, { inCell: true });
    content.set(g, withCellEndSpacing(stack, blocks, w, shaded, endTwice));
  }
  const roomAbove = t.rows.map((_, r) => horizontalEdgeWidth(t, grid, r - 1, r));
  const heights = rowHeights(t, grid, content, roomAbove);
  const notes = new Map<GridCell, { top: number; ids: string[] }[]>();
  for (const g of grid.cells) {
    const onLines = content.get(g)!.noteLines ?? [];
    const seen = new Set(onLines.flatMap((n) => n.ids));
    const elsewhere = noteRefsOf(g.cell.blocks).filter((id) => !seen.has(id));
    const all = elsewhere.length ? [{ top: 0, ids: elsewhere }, ...onLines] : onLines;
    if (all.length) notes.set(g, all);
  }
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
  if (
    blocks.length < 2 ||
    blocks[blocks.length - 2]!.type !== "table" ||
    last?.type !== "paragraph" ||
    last.inlines.length > 0
  )
    return blocks;
  return blocks.slice(0, -1);
}

/** Line height of LibreOffice's default face (Liberation Serif: hhea 1825 + 443 + 87 of 2048), em. */
const DEFAULT_FACE_LINE_EM = 2355 / 2048;

/**
 * LibreOffice gives the last line of a cell its proportional-spacing extra from the paragraph
 * style's font size in its default face, not from the line's own font (measured: Times New Roman
 * 12 pt at 1.15 under an 11 pt style is 15.65 pt in a cell, 15.85 pt in the body; the style's size
 * moves it, the line's font and the mark's formatting do not). The cell's content height follows.
 * In a header's or footer's table (`twice`) what the cell adds below its last paragraph, the space
 * after and that extra, counts twice (LibreOffice 7.4, measured: 1.2, 1.5 and 2 lines, 11 pt and a
 * 20 pt run in an 11 pt style, with and without space after, in a header and in a footer).
 */
function withCellEndSpacing(
  stack: StackedBlocks,
  blocks: Block[],
  width: number,
  ctx: LayoutContext,
  twice: boolean,
): StackedBlocks {
  const spaceAfter = stack.spaceBelow ?? 0;
  const line = cellEndLine(blocks, width, ctx);
  const lineExtra = line ? line.height - line.natural : 0;
  let delta = line ? line.height - line.laidHeight : 0;
  if (twice) delta += lineExtra + spaceAfter;
  // What the cell ends with below its last line need not fit above a page bottom where its row is
  // split: its space after, or without one the line's proportional extra (LibreOffice splits a row
  // beside a cell that fits without it, measured).
  const endSlack = spaceAfter > EPS ? spaceAfter : line ? lineExtra : undefined;
  const slack = endSlack === undefined ? {} : { endSlack };
  if (Math.abs(delta) < EPS) return { ...stack, ...slack };
  const breakPoints = stack.breakPoints.map((bp) => (bp >= stack.height - EPS ? bp + delta : bp));
  return { ...stack, height: stack.height + delta, breakPoints, ...slack };
}

/**
 * The last line of a cell ending in a proportionally spaced paragraph: its height as laid out, its
 * natural height, and its height with LibreOffice's cell-end extra (see withCellEndSpacing).
 */
function cellEndLine(
  blocks: Block[],
  width: number,
  ctx: LayoutContext,
): { laidHeight: number; natural: number; height: number } | undefined {
  const last = blocks[blocks.length - 1];
  if (last?.type !== "paragraph" || last.style.line.rule !== "auto" || !(last.style.line.value > 1)) return undefined;
  // The paragraph style's own run size where the model gives it (Paragraph.styleRun), else the mark's;
  // an empty paragraph's line is its mark, and the mark's size counts (measured: a 2.5, 5, 8 and 20 pt
  // mark under an 11 pt style, at 1.2 and 1.5 lines, within 0.1 pt).
  const styleSize = (last as { styleRun?: { size: number } }).styleRun?.size;
  const size = last.inlines.length === 0 ? last.markStyle.size : (styleSize ?? last.markStyle.size);
  const line = ctx.routines.layoutParagraph(last, width, ctx).lines.at(-1);
  if (!line || !line.extraBelow || !(size > 0)) return undefined;
  const natural = line.height - line.extraBelow;
  // Whole twips, truncated, as LibreOffice computes proportional lines.
  const height = Math.floor((natural + (last.style.line.value - 1) * DEFAULT_FACE_LINE_EM * size) * 20 + 1e-6) / 20;
  return { laidHeight: line.height, natural, height };
}

/** Box height of one cell: margins around its content. */
export function cellNeed(g: GridCell, content: Map<GridCell, StackedBlocks>): number {
  return g.cell.margins.top + content.get(g)!.height + g.cell.margins.bottom;
}

/**
 * Row heights: the tallest single-row cell, then the row's rule (atLeast, exact; the border above the
 * row counts in it), then vertically merged cells taller than the rows they span give the difference to their last row.
 */
export function rowHeights(
  t: Table,
  grid: TableGrid,
  content: Map<GridCell, StackedBlocks>,
  roomAbove: number[],
): number[] {
  const tallest: number[] = t.rows.map(() => 0);
  for (const g of grid.cells) if (g.rowSpan === 1) tallest[g.row] = Math.max(tallest[g.row]!, cellNeed(g, content));
  const heights = t.rows.map((row, r) => {
    let h = tallest[r]!;
    const rule = row.height;
    // An exact height of 0 is a collapsed row (model/tables.ts: empty cells with hidden marks).
    if (rule && Number.isFinite(rule.value) && (rule.value > 0 || rule.rule === "exact")) {
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
    for (const inline of b.inlines)
      if (inline.type === "noteRef" && !inline.own) out.push(`${inline.kind}:${inline.id}`);
  }
  return out;
}
