/**
 * Table geometry without fonts: grid columns, gridSpan/gridBefore placement, vMerge spans,
 * column widths (grid as saved, scaled to tblW, pct of the area, tcW for missing columns),
 * the table's x (text at tblInd), and which border each edge gets.
 */
import { describe, expect, it } from "vitest";
import type { Border, Table, TableCell, TableRow } from "../../model/types";
import { buildGrid, columnEdges, columnWidths, tableLeft } from "./table-grid";
import { horizontalEdge, horizontalEdgeWidth, verticalEdge } from "./table-borders";

const margins = { top: 0, bottom: 0, left: 5.4, right: 5.4 };
function cell(over: Partial<TableCell> = {}): TableCell {
  return { gridSpan: 1, vMerge: null, blocks: [], borders: {}, shading: null, margins, vAlign: "top", ...over };
}
function row(cells: TableCell[], over: Partial<TableRow> = {}): TableRow {
  return { cells, header: false, cantSplit: false, gridBefore: 0, gridAfter: 0, ...over };
}
function table(rows: TableRow[], over: Partial<Table> = {}): Table {
  return {
    type: "table",
    grid: [100, 100, 100],
    width: { type: "auto" },
    layout: "autofit",
    align: "left",
    indent: 0,
    rows,
    insideBorders: {},
    borders: {},
    bidi: false,
    ...over,
  };
}
const single = (width: number, color: string | null = null): Border => ({ style: "single", width, color, space: 0 });

describe("grid placement", () => {
  it("places gridSpan, gridBefore and gridAfter cells on their grid columns", () => {
    const t = table([row([cell({ gridSpan: 2 }), cell()]), row([cell()], { gridBefore: 1, gridAfter: 1 })]);
    const g = buildGrid(t);
    expect(g.columns).toBe(3);
    expect(g.slots[0]!.map((s) => s && [s.col, s.colSpan])).toEqual([
      [0, 2],
      [0, 2],
      [2, 1],
    ]);
    expect(g.slots[1]!.map((s) => s && s.col)).toEqual([null, 1, null]);
  });

  it("links vMerge continues to the restart cell above and counts its rows", () => {
    const restart = cell({ vMerge: "restart" });
    const t = table([
      row([restart, cell(), cell()]),
      row([cell({ vMerge: "continue" }), cell(), cell()]),
      row([cell({ vMerge: "continue" }), cell(), cell()]),
      row([cell(), cell(), cell()]),
    ]);
    const g = buildGrid(t);
    const merged = g.slots[0]![0]!;
    expect(merged.cell).toBe(restart);
    expect(merged.rowSpan).toBe(3);
    expect(g.slots[1]![0]).toBe(merged);
    expect(g.slots[2]![0]).toBe(merged);
    expect(g.slots[3]![0]).not.toBe(merged);
    // Content-owning cells: 3 + 2 + 2 + 3, the continues are not cells of their own.
    expect(g.cells.length).toBe(10);
  });

  it("treats a continue without a matching cell above as a cell of its own", () => {
    const t = table([row([cell({ gridSpan: 2 }), cell()]), row([cell({ vMerge: "continue" }), cell(), cell()])]);
    const g = buildGrid(t);
    expect(g.slots[1]![0]!.row).toBe(1);
    expect(g.slots[1]![0]!.rowSpan).toBe(1);
  });

  it("widens the grid when rows claim more columns than it has, and clamps absurd spans", () => {
    expect(buildGrid(table([row([cell(), cell(), cell(), cell()])])).columns).toBe(4);
    const g = buildGrid(table([row([cell({ gridSpan: 1e12 }), cell()])]));
    expect(g.columns).toBeLessThanOrEqual(1000);
    expect(g.slots[0]!.every((s) => s !== null)).toBe(true);
  });
});

describe("column widths", () => {
  it("uses the saved grid for auto width", () => {
    const t = table([row([cell(), cell(), cell()])], { grid: [72, 144, 36] });
    expect(columnWidths(t, buildGrid(t), 468)).toEqual([72, 144, 36]);
  });

  it("scales the grid to a preferred width in pt or pct of the area", () => {
    const pt = table([row([cell(), cell()])], { grid: [100, 300], width: { type: "pt", value: 200 } });
    expect(columnWidths(pt, buildGrid(pt), 468)).toEqual([50, 150]);
    const pct = table([row([cell(), cell()])], {
      grid: [100, 300],
      width: { type: "pct", value: 0.5 },
      layout: "fixed",
    });
    expect(columnWidths(pct, buildGrid(pct), 400)).toEqual([50, 150]);
  });

  it("takes missing grid columns from tcW, else shares the rest of the area", () => {
    const t = table([row([cell({ width: 80 }), cell(), cell()])], { grid: [] });
    expect(columnWidths(t, buildGrid(t), 400)).toEqual([80, 160, 160]);
  });

  it("spreads the columns of a table without a saved grid evenly over the area", () => {
    const t = table([row([cell(), cell(), cell()]), row([cell(), cell()])], { grid: [] });
    expect(columnWidths(t, buildGrid(t), 468)).toEqual([156, 156, 156]);
  });

  it("gives x edges of each grid line", () => {
    expect(columnEdges([10, 20, 30])).toEqual([0, 10, 30, 60]);
  });
});

describe("table position", () => {
  const t = (over: Partial<Table>) => table([row([cell(), cell(), cell()])], over);
  it("top level: puts the first cell's text at tblInd, the grid line one left margin further left", () => {
    const x = t({ indent: 36 });
    expect(tableLeft(x, buildGrid(x), 300, 72, 468, true, 0.5)).toBeCloseTo(72 + 36 - 5.4, 6);
  });
  it("nested: puts the left border's outer edge at tblInd", () => {
    const x = t({ indent: 20 });
    expect(tableLeft(x, buildGrid(x), 300, 0, 200, false, 3)).toBeCloseTo(20 + 1.5, 6);
  });
  it("centres and right-aligns against the area, ignoring the indent", () => {
    const c = t({ align: "center", indent: 50 });
    expect(tableLeft(c, buildGrid(c), 300, 72, 468, true, 0)).toBeCloseTo(72 + 84, 6);
    const r = t({ align: "right" });
    expect(tableLeft(r, buildGrid(r), 300, 72, 468, true, 0)).toBeCloseTo(72 + 168, 6);
  });
});

describe("borders", () => {
  it("uses table outer borders at the table's edges and inside borders between cells", () => {
    const x = table([row([cell(), cell()]), row([cell(), cell()])], {
      grid: [100, 100],
      borders: { top: single(2), bottom: single(3), left: single(1), right: single(1) },
      insideBorders: { horizontal: single(0.5), vertical: single(0.25) },
    });
    const g = buildGrid(x);
    expect(horizontalEdge(x, g, -1, 0, 0)?.width).toBe(2);
    expect(horizontalEdge(x, g, 0, 1, 1)?.width).toBe(0.5);
    expect(horizontalEdge(x, g, 1, -1, 0)?.width).toBe(3);
    expect(verticalEdge(x, g, 0, 0)?.width).toBe(1);
    expect(verticalEdge(x, g, 0, 1)?.width).toBe(0.25);
    expect(verticalEdge(x, g, 1, 2)?.width).toBe(1);
  });

  it("lets the heavier of two meeting cell borders win, and a cell's nil hide the table's border", () => {
    const x = table(
      [
        row([cell({ borders: { right: single(0.5, "FF0000") } }), cell({ borders: { left: single(2, "0000FF") } })]),
        row([cell({ borders: { top: { style: "nil", width: 0, color: null, space: 0 } } }), cell()]),
      ],
      {
        grid: [100, 100],
        insideBorders: { horizontal: single(0.5), vertical: single(0.5) },
      },
    );
    const g = buildGrid(x);
    expect(verticalEdge(x, g, 0, 1)?.color).toBe("0000FF");
    // Row 0 col 0 bottom: inside 0.5 (no own border); row 1 col 0 top: nil → the inside border still wins.
    expect(horizontalEdge(x, g, 0, 1, 0)?.width).toBe(0.5);
    // Both sides nil → nothing.
    const y = table(
      [
        row([cell({ borders: { bottom: { style: "nil", width: 0, color: null, space: 0 } } })]),
        row([cell({ borders: { top: { style: "none", width: 0, color: null, space: 0 } } })]),
      ],
      { grid: [100], insideBorders: { horizontal: single(1) } },
    );
    expect(horizontalEdge(y, buildGrid(y), 0, 1, 0)).toBeNull();
  });

  it("gives a row's exception borders (w:tblPrEx) to every cell of that row and ignores their inside borders", () => {
    const x = table(
      [
        row([cell(), cell()]),
        row([cell(), cell({ borders: { left: single(0.25) } })], {
          borders: { top: single(4), left: single(2), insideV: single(6), insideH: single(6) },
        }),
        row([cell(), cell()]),
      ],
      {
        grid: [100, 100],
        borders: { left: single(1), right: single(1), top: single(1), bottom: single(1) },
        insideBorders: { horizontal: single(0.5), vertical: single(0.5) },
      },
    );
    const g = buildGrid(x);
    // Row 1: its top is the exception's even though it is an inside edge; so is every cell's left.
    expect(horizontalEdge(x, g, 0, 1, 0)?.width).toBe(4);
    expect(verticalEdge(x, g, 1, 0)?.width).toBe(2);
    // The second cell's own left border beats the row's; the table's inside border on the other side is thinner still.
    expect(verticalEdge(x, g, 1, 1)?.width).toBe(0.5);
    // Below row 1 the table's inside border (the exception's insideH is not used); rows without exceptions keep the table's.
    expect(horizontalEdge(x, g, 1, 2, 0)?.width).toBe(0.5);
    expect(verticalEdge(x, g, 2, 1)?.width).toBe(0.5);
  });

  it("draws no edge inside a vertically merged cell or a spanned cell", () => {
    const x = table(
      [row([cell({ vMerge: "restart" }), cell({ gridSpan: 2 })]), row([cell({ vMerge: "continue" }), cell(), cell()])],
      { insideBorders: { horizontal: single(1), vertical: single(1) } },
    );
    const g = buildGrid(x);
    expect(horizontalEdge(x, g, 0, 1, 0)).toBeNull();
    expect(horizontalEdge(x, g, 0, 1, 1)?.width).toBe(1);
    expect(verticalEdge(x, g, 0, 2)).toBeNull();
    expect(verticalEdge(x, g, 1, 2)?.width).toBe(1);
    // The room between rows is the thickest border on that edge.
    expect(horizontalEdgeWidth(x, g, 0, 1)).toBe(1);
  });
});
