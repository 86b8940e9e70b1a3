/**
 * Which border is drawn on each grid edge of a table: the cell's own border, else the table's
 * outer or inside border; where two cells meet, the heavier one wins (Word's conflict rule, simplified).
 */
import type { Border, Table } from "../../model/types";
import type { PaintItem } from "../types";
import type { GridCell, TableGrid } from "./table-grid";

type Side = "top" | "bottom" | "left" | "right";

/** A border that is not drawn (nil, none) or has no width. */
export function isVisible(b: Border | undefined | null): b is Border {
  return !!b && b.style !== "nil" && b.style !== "none" && Number.isFinite(b.width) && b.width > 0;
}

/**
 * Thickness of a border across its line, pt, as LibreOffice converts Word's w:sz for each style
 * (editeng's ConvertBorderWidthFromWord; measured at 0.75 and 3 pt, table and paragraph borders
 * alike): double, triple, double wave and dash-dot-stroked are three widths; thick, the 3-D styles
 * (emboss, engrave, inset, outset) and the medium-gap thin-thick styles two; the small-gap ones the
 * width and 1.5 pt, the large-gap ones the width and 2.25 pt; single, dotted, dashed and wave one.
 */
export function thickness(b: Border | undefined | null): number {
  if (!isVisible(b)) return 0;
  const s = b.style;
  if (s === "double" || s === "triple" || s === "doubleWave" || s === "dashDotStroked") return 3 * b.width;
  if (s.endsWith("SmallGap") && s !== "dashSmallGap") return b.width + 1.5;
  if (s.endsWith("LargeGap")) return b.width + 2.25;
  if (s.endsWith("MediumGap") || s === "thick" || s.startsWith("threeD") || s === "inset" || s === "outset")
    return 2 * b.width;
  return b.width;
}

/** Visual weight for the conflict rule: the thicker border wins. */
const weight = thickness;

/**
 * The border of `cell` on `side`: its own, else its row's exception borders (w:tblPrEx), else the
 * table's (outer when `outer`, inside otherwise). A row's exception top/left/bottom/right apply to
 * every cell of the row, inside edges included, and its insideH/insideV are not used: what
 * LibreOffice draws.
 */
function cellSide(t: Table, g: GridCell | null, side: Side, outer: boolean): Border | undefined {
  const own = g?.cell.borders[side];
  if (own) return own;
  const fromRow = g ? t.rows[side === "bottom" ? g.row + g.rowSpan - 1 : g.row]?.borders?.[side] : undefined;
  if (fromRow) return fromRow;
  if (outer) return t.borders[side];
  return side === "top" || side === "bottom" ? t.insideBorders.horizontal : t.insideBorders.vertical;
}

function heavier(a: Border | undefined, b: Border | undefined): Border | null {
  const wa = weight(a);
  const wb = weight(b);
  if (wa === 0 && wb === 0) return null;
  return wa >= wb ? a! : b!;
}

/**
 * The horizontal edge above row `below` (use `rows.length` for the table's bottom), at grid
 * column `col`. `above`/`below` are the row indexes on either side, or -1 when the edge is the
 * table's outer top/bottom on this page. Null: nothing drawn (also inside a vertically merged cell).
 */
export function horizontalEdge(t: Table, grid: TableGrid, above: number, below: number, col: number): Border | null {
  const a = above >= 0 ? (grid.slots[above]?.[col] ?? null) : null;
  const b = below >= 0 && below < grid.slots.length ? (grid.slots[below]?.[col] ?? null) : null;
  if (a && a === b) return null;
  if (!a && !b) return null;
  // No cell on the other side (table top/bottom, page break, gridBefore/After): an outer edge.
  const fromA = a ? cellSide(t, a, "bottom", !b) : undefined;
  const fromB = b ? cellSide(t, b, "top", !a) : undefined;
  return heavier(fromA, fromB);
}

/** The vertical edge left of grid column `col` (use `columns` for the right edge) in row `row`. */
export function verticalEdge(t: Table, grid: TableGrid, row: number, col: number): Border | null {
  const line = grid.slots[row];
  if (!line) return null;
  const l = col > 0 ? line[col - 1] : null;
  const r = col < grid.columns ? line[col] : null;
  if (l && l === r) return null;
  if (!l && !r) return null;
  // A side with no cell (table edge, gridBefore/After) makes the other cell's edge an outer one.
  const fromL = l ? cellSide(t, l, "right", !r) : undefined;
  const fromR = r ? cellSide(t, r, "left", !l) : undefined;
  return heavier(fromL, fromR);
}

/** Thickest border drawn along a horizontal edge, pt: the room it takes between the rows. */
export function horizontalEdgeWidth(t: Table, grid: TableGrid, above: number, below: number): number {
  let w = 0;
  for (let c = 0; c < grid.columns; c++) {
    w = Math.max(w, thickness(horizontalEdge(t, grid, above, below, c)));
  }
  return w;
}

/** Line style of a border in paint terms (double, dashed, dotted; everything else solid). */
function lineStyle(b: Border): "double" | "dashed" | "dotted" | undefined {
  if (b.style === "double") return "double";
  if (b.style.startsWith("dash")) return "dashed";
  if (b.style === "dotted" || b.style.startsWith("dot")) return "dotted";
  return undefined;
}

function sameBorder(a: Border, b: Border): boolean {
  return a.style === b.style && a.width === b.width && a.color === b.color;
}

/** Line items of a horizontal edge at `y` (the line's centre), joining columns with equal borders. */
export function horizontalLines(
  t: Table,
  grid: TableGrid,
  above: number,
  below: number,
  y: number,
  edges: number[],
  left: number,
): PaintItem[] {
  const out: PaintItem[] = [];
  let run: { b: Border; from: number; to: number } | null = null;
  /** Half the thickest vertical border meeting grid line c here: the line reaches over it, so corners close. */
  const reach = (c: number) =>
    Math.max(
      thickness(above >= 0 ? verticalEdge(t, grid, above, c) : null),
      thickness(below >= 0 ? verticalEdge(t, grid, below, c) : null),
    ) / 2;
  const flush = () => {
    if (run) {
      const a = edges[run.from]!;
      const b = edges[run.to]!;
      const dir = b >= a ? 1 : -1;
      out.push({
        kind: "line",
        x1: left + a - dir * reach(run.from),
        y1: y,
        x2: left + b + dir * reach(run.to),
        y2: y,
        width: run.b.width,
        color: run.b.color,
        style: lineStyle(run.b),
      });
    }
    run = null;
  };
  for (let c = 0; c < grid.columns; c++) {
    const b = horizontalEdge(t, grid, above, below, c);
    if (!b) {
      flush();
      continue;
    }
    if (run && sameBorder(run.b, b) && run.to === c) run.to = c + 1;
    else {
      flush();
      run = { b, from: c, to: c + 1 };
    }
  }
  flush();
  return out;
}

/** Line items of the vertical edges of row `row` between `y1` and `y2`. */
export function verticalLines(
  t: Table,
  grid: TableGrid,
  row: number,
  y1: number,
  y2: number,
  edges: number[],
  left: number,
): PaintItem[] {
  const out: PaintItem[] = [];
  if (!(y2 > y1)) return out;
  for (let c = 0; c <= grid.columns; c++) {
    const b = verticalEdge(t, grid, row, c);
    if (!b) continue;
    const x = left + edges[c]!;
    out.push({ kind: "line", x1: x, y1, x2: x, y2, width: b.width, color: b.color, style: lineStyle(b) });
  }
  return out;
}
