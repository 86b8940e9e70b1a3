/**
 * Table geometry that needs no fonts: column widths, where each cell sits on the grid (gridSpan,
 * gridBefore/After, vMerge spans) and the table's horizontal position.
 */
import type { Table, TableCell } from "../../model/types";
import { LIMITS } from "../../../limits";

/** A cell placed on the grid: `row`/`col` of its top-left slot, spans in rows and grid columns. */
export interface GridCell {
  cell: TableCell;
  row: number;
  col: number;
  colSpan: number;
  /** Rows covered: 1, or the restart row plus its "continue" rows below. */
  rowSpan: number;
}

export interface TableGrid {
  columns: number;
  /** `slots[row][col]`: the cell covering that slot (merged cells appear in every slot they cover), or null. */
  slots: (GridCell | null)[][];
  /** Cells that own content (restart or unmerged cells), in reading order. */
  cells: GridCell[];
}

/** Number of grid columns: the saved grid, widened when rows claim more (clamped by the limit). */
export function columnCount(t: Table): number {
  let n = t.grid.length;
  for (const row of t.rows) {
    let used = clampCount(row.gridBefore) + clampCount(row.gridAfter);
    for (const c of row.cells) used += Math.max(1, clampCount(c.gridSpan));
    n = Math.max(n, used);
  }
  return Math.min(Math.max(n, 1), LIMITS.render.maxTableColumns);
}

function clampCount(v: number): number {
  return Number.isFinite(v) && v > 0 ? Math.min(Math.floor(v), LIMITS.render.maxTableColumns) : 0;
}

/** Places every cell on the grid and links vertical merges (a "continue" extends the cell above in the same column). */
export function buildGrid(t: Table): TableGrid {
  const columns = columnCount(t);
  const slots: (GridCell | null)[][] = [];
  const cells: GridCell[] = [];
  t.rows.forEach((row, r) => {
    const line: (GridCell | null)[] = new Array(columns).fill(null);
    const rowMargins = rowCellMargins(row.cells);
    // Spans and skips never push a later cell off the grid: each cell keeps at least one column.
    let col = Math.min(clampCount(row.gridBefore), Math.max(0, columns - row.cells.length));
    row.cells.forEach((cell, i) => {
      if (col >= columns) return; // more cells than the column limit: drop the overflow
      const later = Math.min(row.cells.length - i - 1, columns - col - 1);
      const colSpan = Math.min(Math.max(1, clampCount(cell.gridSpan)), columns - col - later);
      const above = r > 0 ? slots[r - 1]![col]! : null;
      let g: GridCell;
      if (cell.vMerge === "continue" && above && above.col === col && above.colSpan === colSpan) {
        g = above;
        g.rowSpan = r - g.row + 1;
      } else {
        // A "continue" with nothing matching above starts its own cell, as Word and LibreOffice do.
        g = { cell: withRowMargins(cell, rowMargins), row: r, col, colSpan, rowSpan: 1 };
        cells.push(g);
      }
      for (let c = col; c < col + colSpan; c++) line[c] = g;
      col += colSpan;
    });
    slots.push(line);
  });
  return { columns, slots, cells };
}

/**
 * LibreOffice gives every cell of a row the row's largest top and bottom cell margins (measured on
 * minimal documents: a cell with w:tcMar top 0 beside one with the table's 7.2 pt starts its text
 * 7.2 pt down too; 30 pt in one cell moves all; rows are independent). Left and right stay per cell.
 */
function rowCellMargins(cells: readonly TableCell[]): { top: number; bottom: number } {
  let top = 0;
  let bottom = 0;
  for (const c of cells) {
    top = Math.max(top, c.margins.top);
    bottom = Math.max(bottom, c.margins.bottom);
  }
  return { top, bottom };
}

function withRowMargins(cell: TableCell, row: { top: number; bottom: number }): TableCell {
  if (cell.margins.top === row.top && cell.margins.bottom === row.bottom) return cell;
  return { ...cell, margins: { ...cell.margins, top: row.top, bottom: row.bottom } };
}

/**
 * Column widths in pt. The saved grid is what Word and LibreOffice use; it is scaled to the
 * preferred table width when one is given (pct against the available width). Columns missing
 * from the grid take cell widths (tcW) or share what is left of the available width.
 */
export function columnWidths(t: Table, grid: TableGrid, available: number): number[] {
  const n = grid.columns;
  const widths: number[] = [];
  for (let c = 0; c < n; c++) {
    const w = t.grid[c] ?? NaN;
    widths.push(Number.isFinite(w) && w > 0 ? w : NaN);
  }
  if (widths.some(Number.isNaN)) fillFromCells(widths, grid);
  const missing = widths.filter(Number.isNaN).length;
  if (missing > 0) {
    const known = widths.reduce((s, w) => (Number.isNaN(w) ? s : s + w), 0);
    const share = Math.max(available - known, missing * MIN_COLUMN) / missing;
    for (let c = 0; c < n; c++) if (Number.isNaN(widths[c])) widths[c] = share;
  }
  const target = preferredWidth(t, available);
  const sum = widths.reduce((s, w) => s + w, 0);
  // A percentage width always sets the width; a fixed one only when it differs by more than 0.5 pt.
  if (target !== null && sum > 0 && Math.abs(target - sum) > (t.width.type === "pct" ? 0.01 : 0.5)) {
    const k = target / sum;
    for (let c = 0; c < n; c++) widths[c]! *= k;
  }
  return widths;
}

/** Narrowest column we make up when neither the grid nor the cells say (pt). */
const MIN_COLUMN = 12;

function preferredWidth(t: Table, available: number): number | null {
  if (t.width.type === "pt" && t.width.value > 0) return t.width.value;
  // LibreOffice keeps a percentage width in whole percent, truncated (78.76 % lays out at 78 %), and
  // caps it at 100 % (a 113 % table is as wide as the text area).
  if (t.width.type === "pct" && t.width.value > 0)
    return (Math.min(100, Math.max(1, Math.floor(t.width.value * 100 + 1e-6))) / 100) * available;
  return null;
}

/** Grid columns without a saved width take the tcW of a single-column cell standing on them. */
function fillFromCells(widths: number[], grid: TableGrid): void {
  for (const g of grid.cells) {
    if (g.colSpan !== 1 || !Number.isNaN(widths[g.col])) continue;
    const w = g.cell.width;
    if (w !== undefined && Number.isFinite(w) && w > 0) widths[g.col] = w;
  }
}

/** x of each grid line from the table's left border edge: `edges[c]` .. `edges[c+1]` is column c. */
export function columnEdges(widths: number[]): number[] {
  const edges = [0];
  for (const w of widths) edges.push(edges[edges.length - 1]! + w);
  return edges;
}

/**
 * x of the table's left grid line (where its left border line is centred) in the area.
 * `textAtIndent` (top-level tables, Word before 2013): tblInd is where the first cell's text
 * starts, so the grid line sits one left cell margin further left (the table's own, w:tblCellMar,
 * not the first cell's w:tcMar: LibreOffice). Otherwise (tables nested in
 * cells; Word 2013+ documents, `Table.indentToBorder`) tblInd is the outer edge of the left
 * border, and the line is half its thickness further right. Both measured with LibreOffice.
 * Centred and right-aligned tables ignore the indent.
 */
export function tableLeft(
  t: Table,
  grid: TableGrid,
  tableWidth: number,
  areaLeft: number,
  areaWidth: number,
  textAtIndent: boolean,
  leftBorder: number,
): number {
  if (t.align === "center") return areaLeft + (areaWidth - tableWidth) / 2;
  if (t.align === "right") return areaLeft + areaWidth - tableWidth;
  const indent = areaLeft + (Number.isFinite(t.indent) ? t.indent : 0);
  if (!textAtIndent) return indent + leftBorder / 2;
  if (t.cellMarginLeft !== undefined) return indent - t.cellMarginLeft;
  const first = grid.slots[0]?.find((s) => s !== null) ?? null;
  return indent - (first ? first.cell.margins.left : 0);
}
