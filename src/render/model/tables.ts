/**
 * Tables: grid, table properties (from the table style chain and direct), rows and cells, and the
 * table style's conditional formatting (first/last row and column, bands, corners) resolved per
 * cell into shading, borders and the paragraph/run formatting its paragraphs start from.
 */
import type { Anchor, Block, Border, Table, TableBorders, TableCell, TableRow } from "./types";
import { parseTree, type XNode } from "./xml-tree";
import type { DocxPackage } from "../../docx/package";
import { SignetError } from "../../errors";
import type { ParseContext, Story } from "./context";
import {
  emptyPara,
  overlayPara,
  overlayRun,
  readBorders,
  readParaProps,
  readRunProps,
  readShading,
  type ParaProps,
  type RunProps,
} from "./properties";
import type { TableStyleParts } from "./styles";
import { int, twips, val } from "./units";

/** Formatting a table style gives the paragraphs of one cell (conditional formatting merged). */
export interface CellFormatting {
  pPr: ParaProps;
  rPr: RunProps;
  /** The table names a table style of the document (the old Word size rule in blocks.ts needs one). */
  styled?: boolean;
}

type CellReader = (container: XNode, story: Story, cell: CellFormatting) => Block[];

interface Look {
  firstRow: boolean;
  lastRow: boolean;
  firstCol: boolean;
  lastCol: boolean;
  hBand: boolean;
  vBand: boolean;
}

const on = (v: string | undefined) => v === "1" || v === "true" || v === "on";

function readLook(el: XNode | undefined): Look | undefined {
  if (!el) return undefined;
  const hex = el.attr("val");
  if (hex !== undefined && el.attr("firstRow") === undefined) {
    const n = parseInt(hex, 16) || 0;
    return {
      firstRow: !!(n & 0x20),
      lastRow: !!(n & 0x40),
      firstCol: !!(n & 0x80),
      lastCol: !!(n & 0x100),
      hBand: !(n & 0x200),
      vBand: !(n & 0x400),
    };
  }
  return {
    firstRow: on(el.attr("firstRow")),
    lastRow: on(el.attr("lastRow")),
    firstCol: on(el.attr("firstColumn")),
    lastCol: on(el.attr("lastColumn")),
    hBand: !on(el.attr("noHBand")),
    vBand: !on(el.attr("noVBand")),
  };
}

/** Word's default look (04A0): header row, first column, banded rows. */
const DEFAULT_LOOK: Look = {
  firstRow: true,
  lastRow: false,
  firstCol: true,
  lastCol: false,
  hBand: true,
  vBand: false,
};

function margins(el: XNode | undefined, into: TableCell["margins"]): TableCell["margins"] {
  if (!el) return into;
  const out = { ...into };
  for (const c of el.children) {
    const w = c.attr("type") === "pct" ? undefined : twips(c.attr("w"));
    if (w === undefined) continue;
    const side = c.name === "start" ? "left" : c.name === "end" ? "right" : c.name;
    if (side === "top" || side === "bottom" || side === "left" || side === "right") out[side] = Math.max(0, w);
  }
  return out;
}

function width(el: XNode | undefined): Table["width"] | undefined {
  if (!el) return undefined;
  const type = el.attr("type") ?? "dxa";
  const w = el.attr("w") ?? "0";
  if (type === "pct" || w.endsWith("%")) {
    const v = w.endsWith("%") ? parseFloat(w) / 100 : (int(w) ?? 0) / 5000;
    return v > 0 ? { type: "pct", value: v } : { type: "auto" };
  }
  if (type === "dxa") {
    const v = twips(w);
    return v && v > 0 ? { type: "pt", value: v } : { type: "auto" };
  }
  return { type: "auto" };
}

function sides(b: Record<string, Border>): { top?: Border; bottom?: Border; left?: Border; right?: Border } {
  const out: { top?: Border; bottom?: Border; left?: Border; right?: Border } = {};
  for (const s of ["top", "bottom", "left", "right"] as const) if (b[s]) out[s] = b[s];
  return out;
}

/** Largest distance or offset of a floating table we take, pt (beyond any page). */
const MAX_FLOAT_OFFSET = 1584;

/**
 * A floating table's position (w:tblpPr) as an anchor: horzAnchor text (the default) is the
 * column, vertAnchor text the following paragraph (margin by default); tblpXSpec/tblpYSpec align
 * it instead of tblpX/tblpY; the four *FromText are its wrap distances.
 */
function readTablePosition(node: XNode | undefined): Anchor | undefined {
  if (!node) return undefined;
  const pt = (name: string, min: number) => Math.min(Math.max(twips(node.attr(name)) ?? 0, min), MAX_FLOAT_OFFSET);
  const horz = node.attr("horzAnchor");
  const vert = node.attr("vertAnchor");
  const xSpec = node.attr("tblpXSpec");
  const ySpec = node.attr("tblpYSpec");
  const xAligns = ["left", "center", "right", "inside", "outside"] as const;
  const yAligns = ["top", "center", "bottom", "inside", "outside"] as const;
  const xAlign = xAligns.find((a) => a === xSpec);
  const yAlign = yAligns.find((a) => a === ySpec);
  return {
    x: {
      relativeTo: horz === "page" ? "page" : horz === "margin" ? "margin" : "column",
      ...(xAlign ? { align: xAlign } : { offset: pt("tblpX", -MAX_FLOAT_OFFSET) }),
    },
    y: {
      relativeTo: vert === "page" ? "page" : vert === "text" ? "paragraph" : "margin",
      ...(yAlign ? { align: yAlign } : { offset: pt("tblpY", -MAX_FLOAT_OFFSET) }),
    },
    wrap: "square",
    distance: {
      top: pt("topFromText", 0),
      bottom: pt("bottomFromText", 0),
      left: pt("leftFromText", 0),
      right: pt("rightFromText", 0),
    },
    behindText: false,
    distanceInside: true,
  };
}

export function readTable(tbl: XNode, ctx: ParseContext, story: Story, readCell: CellReader): Table {
  const { styles, env } = ctx;
  const tblPr = tbl.child("tblPr");
  const styleRef = val(tblPr, "tblStyle");
  const named = styles.has(styleRef, "table");
  const styleId = named ? styleRef : styles.defaultTableStyle;
  const chain = styles.tableChain(styleId);
  // Table properties: each ancestor style's tblPr, then the table's own.
  const prs = [...chain.map((d) => d.node.child("tblPr")), tblPr].filter((x): x is XNode => !!x);
  const tcPrs = chain.map((d) => d.node.child("tcPr")).filter((x): x is XNode => !!x);
  const last = (name: string) => {
    let found: XNode | undefined;
    for (const p of prs) found = p.child(name) ?? found;
    return found;
  };
  const borders: Record<string, Border> = {};
  for (const p of prs) Object.assign(borders, readBorders(p.child("tblBorders"), env));
  // Cell margins come from the style the table names (with the styles it is based on), then its own
  // tblPr. A table naming no style, or a missing one, starts from LibreOffice's built-in 0 / 5.4 pt,
  // not from the default table style's tblCellMar (LibreOffice 7.4, minimal documents: a Normal
  // Table of 10.8 pt top and bottom, 15 pt left and right moves nothing unless the table names it
  // or a style based on it).
  let cellMargins: TableCell["margins"] = { top: 0, bottom: 0, left: 5.4, right: 5.4 };
  for (const p of named ? prs : [tblPr]) cellMargins = margins(p?.child("tblCellMar"), cellMargins);
  const jc = last("jc")?.attr("val");
  const look = readLook(tblPr?.child("tblLook")) ?? DEFAULT_LOOK;
  const rowBand = Math.max(1, int(last("tblStyleRowBandSize")?.attr("val")) ?? 1);
  const colBand = Math.max(1, int(last("tblStyleColBandSize")?.attr("val")) ?? 1);
  const bidiVisual = last("bidiVisual");
  const table: Table = {
    type: "table",
    grid: (tbl.child("tblGrid")?.all("gridCol") ?? []).map((g) => Math.max(0, twips(g.attr("w")) ?? 0)),
    width: width(last("tblW")) ?? { type: "auto" },
    layout: last("tblLayout")?.attr("type") === "fixed" ? "fixed" : "autofit",
    align: jc === "center" ? "center" : jc === "right" || jc === "end" ? "right" : "left",
    indent: twips(last("tblInd")?.attr("w")) ?? 0,
    cellMarginLeft: cellMargins.left,
    indentToBorder: compatibilityMode(ctx.pkg) >= 15,
    rows: [],
    insideBorders: {},
    borders: sides(borders),
    bidi: !!bidiVisual && bidiVisual.attr("val") !== "0",
  };
  const float = readTablePosition(tblPr?.child("tblpPr"));
  if (float) table.float = float;
  if (borders.insideH) table.insideBorders.horizontal = borders.insideH;
  if (borders.insideV) table.insideBorders.vertical = borders.insideV;

  const conditionals = styles.tableConditionals(styleId);
  // A table style's paragraph and run formatting is its own: LibreOffice does not inherit them from
  // the style it is based on (measured; its table properties do inherit).
  const own = chain[chain.length - 1];
  const { rStyle: _ignored, ...ownRun } = readRunProps(own?.node.child("rPr"), env);
  const wholeRun = overlayRun(ownRun, conditionals.get("wholeTable")?.rPr ?? {});
  const wholePara = overlayPara(
    readParaProps(own?.node.child("pPr"), env),
    conditionals.get("wholeTable")?.pPr ?? emptyPara(),
  );
  let wholeShading: string | null | undefined;
  for (const p of tcPrs) wholeShading = readShading(p.child("shd"), env) ?? wholeShading;
  // A named style's cell margins (w:tcPr/w:tcMar, whole table, then its conditional parts) are the
  // cell's: they override the table's w:tblCellMar, the style's and the table's own alike, and the
  // cell's own w:tcMar overrides them; a conditional part's w:tblPr/w:tblCellMar is ignored
  // (LibreOffice 7.4, minimal documents).
  const wholeCellMargins = named ? tcPrs.map((p) => p.child("tcMar")) : [];

  // Cells with the same conditional types share one resolved formatting (and so cached run styles).
  const byTypes = new Map<
    string,
    {
      formatting: CellFormatting;
      shading: string | null | undefined;
      borders: Record<string, Border>;
      cellMargins: (XNode | undefined)[];
    }
  >();
  const conditionalFormatting = (key: string, parts: () => TableStyleParts[]) => {
    let hit = byTypes.get(key);
    if (hit) return hit;
    let pPr = wholePara;
    let rPr = wholeRun;
    let shading = wholeShading;
    const borders: Record<string, Border> = {};
    const cellMargins = [...wholeCellMargins];
    for (const part of parts()) {
      pPr = overlayPara(pPr, part.pPr);
      rPr = overlayRun(rPr, part.rPr);
      shading = readShading(part.tcPr?.child("shd"), env) ?? shading;
      Object.assign(borders, readBorders(part.tcPr?.child("tcBorders"), env));
      if (named) cellMargins.push(part.tcPr?.child("tcMar"));
    }
    hit = { formatting: named ? { pPr, rPr, styled: true } : { pPr, rPr }, shading, borders, cellMargins };
    byTypes.set(key, hit);
    return hit;
  };
  const rows = collectRows(tbl);
  rows.forEach((tr, r) => {
    const trPr = tr.child("trPr");
    if (trPr?.child("del")) return;
    const row: TableRow = { cells: [], header: false, cantSplit: false, gridBefore: 0, gridAfter: 0 };
    const h = trPr?.child("trHeight");
    const hv = twips(h?.attr("val"));
    if (hv !== undefined && hv > 0 && h?.attr("hRule") !== "auto")
      row.height = { value: hv, rule: h?.attr("hRule") === "exact" ? "exact" : "atLeast" };
    // Header and cantSplit also come from the style (its trPr, then the row's conditional parts:
    // a style's firstRow tblHeader repeats the first row, as LibreOffice does), the row's own last.
    const rowTypes = conditionalTypes(look, r, rows.length, -1, false, rowBand, colBand).filter(
      (t) => !t.endsWith("Vert"),
    );
    const rowPrs = [...chain.map((d) => d.node.child("trPr")), ...rowTypes.map((t) => conditionals.get(t)?.trPr), trPr];
    for (const pr of rowPrs) {
      row.header = flag(pr, "tblHeader") ?? row.header;
      row.cantSplit = flag(pr, "cantSplit") ?? row.cantSplit;
    }
    row.gridBefore = Math.max(0, Math.min(int(val(trPr, "gridBefore")) ?? 0, 1000));
    row.gridAfter = Math.max(0, Math.min(int(val(trPr, "gridAfter")) ?? 0, 1000));
    const exception = tr.child("tblPrEx")?.child("tblBorders");
    if (exception) row.borders = tableBorders(readBorders(exception, env));
    const cells = collectCells(tr);
    // LibreOffice 7.4 fixes a row whose every cell has w:hideMark, none vertically merged, and holds
    // one empty paragraph at its w:trHeight exactly (none: no height); see collapsesHiddenMarks.
    let marksHidden = cells.length > 0;
    let col = row.gridBefore;
    cells.forEach((tc, i) => {
      ctx.countCell();
      const tcPr = tc.child("tcPr");
      const span = Math.max(1, Math.min(int(val(tcPr, "gridSpan")) ?? 1, 1000));
      if (tcPr?.child("hMerge") && tcPr.child("hMerge")!.attr("val") !== "restart" && row.cells.length) {
        // Legacy horizontal merge: the covered cell widens the one before it.
        row.cells[row.cells.length - 1]!.gridSpan += span;
        col += span;
        return;
      }
      const types = conditionalTypes(look, r, rows.length, col, i === cells.length - 1, rowBand, colBand);
      const cond = conditionalFormatting(types.join(","), () =>
        types.map((t) => conditionals.get(t)).filter((x): x is TableStyleParts => !!x),
      );
      let shading = cond.shading;
      const cellBorders: Record<string, Border> = { ...cond.borders };
      Object.assign(cellBorders, readBorders(tcPr?.child("tcBorders"), env));
      shading = readShading(tcPr?.child("shd"), env) ?? shading;
      const vMergeEl = tcPr?.child("vMerge");
      const vAlign = val(tcPr, "vAlign");
      const cell: TableCell = {
        gridSpan: span,
        vMerge: vMergeEl ? (vMergeEl.attr("val") === "restart" ? "restart" : "continue") : null,
        blocks: readCell(tc, story, cond.formatting),
        borders: sides(cellBorders),
        shading: shading ?? null,
        margins: margins(
          tcPr?.child("tcMar"),
          cond.cellMargins.reduce((m, el) => margins(el, m), cellMargins),
        ),
        vAlign: vAlign === "center" || vAlign === "both" ? "center" : vAlign === "bottom" ? "bottom" : "top",
      };
      if (marksHidden) marksHidden = collapsesHiddenMarks(tcPr, cell);
      const w = width(tcPr?.child("tcW"));
      if (w?.type === "pt") cell.width = w.value;
      else if (w?.type === "pct" && table.width.type === "pt") cell.width = w.value * table.width.value;
      row.cells.push(cell);
      col += span;
    });
    if (marksHidden && row.cells.length) row.height = { value: row.height?.value ?? 0, rule: "exact" };
    table.rows.push(row);
  });
  // Without a tblGrid the grid stays empty: layout takes the columns from the rows and cell widths
  // and spreads the rest over the table's width, as LibreOffice does.
  return table;
}

/** An on/off element of `pr` (absent: undefined). */
function flag(pr: XNode | undefined, name: string): boolean | undefined {
  const el = pr?.child(name);
  if (!el) return undefined;
  const v = el.attr("val");
  return v !== "0" && v !== "false" && v !== "off";
}

function tableBorders(b: Record<string, Border>): TableBorders {
  const out: TableBorders = sides(b);
  if (b.insideH) out.insideH = b.insideH;
  if (b.insideV) out.insideV = b.insideV;
  return out;
}

/** The document's Word compatibility mode (settings.xml w:compatSetting), read once per package. */
const compatModes = new WeakMap<DocxPackage, number>();

function compatibilityMode(pkg: DocxPackage): number {
  let mode = compatModes.get(pkg);
  if (mode === undefined) {
    mode = readCompatibilityMode(pkg);
    compatModes.set(pkg, mode);
  }
  return mode;
}

function readCompatibilityMode(pkg: DocxPackage): number {
  const rel = pkg
    .relationships(pkg.mainPart)
    .find((r) => !r.external && r.type.endsWith("/settings") && pkg.has(r.target));
  if (!rel) return 0;
  let settings: XNode;
  try {
    settings = parseTree(pkg.readXml(rel.target), rel.target);
  } catch (err) {
    if (err instanceof SignetError && err.code === "docx_invalid") return 0;
    throw err;
  }
  const setting = settings
    .child("compat")
    ?.all("compatSetting")
    .find((c) => c.attr("name") === "compatibilityMode");
  return int(setting?.attr("val")) ?? 0;
}

/** Rows, looking through content controls and custom XML around them. */
function collectRows(tbl: XNode, out: XNode[] = []): XNode[] {
  for (const c of tbl.children) {
    if (c.name === "tr") out.push(c);
    else if (c.name === "sdt") collectRows(c.child("sdtContent") ?? c, out);
    else if (c.name === "customXml" || c.name === "ins" || c.name === "moveTo") collectRows(c, out);
  }
  return out;
}

function collectCells(tr: XNode, out: XNode[] = []): XNode[] {
  for (const c of tr.children) {
    if (c.name === "tc") out.push(c);
    else if (c.name === "sdt") collectCells(c.child("sdtContent") ?? c, out);
    else if (c.name === "customXml" || c.name === "ins" || c.name === "moveTo") collectCells(c, out);
  }
  return out;
}

/** Conditional format types that apply to a cell, lowest precedence first. */
function conditionalTypes(
  look: Look,
  row: number,
  rowCount: number,
  col: number,
  lastInRow: boolean,
  rowBand: number,
  colBand: number,
): string[] {
  const out: string[] = [];
  const isFirstRow = look.firstRow && row === 0;
  const isLastRow = look.lastRow && row === rowCount - 1;
  const isFirstCol = look.firstCol && col === 0;
  const isLastCol = look.lastCol && lastInRow;
  if (look.vBand && !isFirstCol && !isLastCol) {
    const idx = col - (look.firstCol ? 1 : 0);
    out.push(Math.floor(idx / colBand) % 2 === 0 ? "band1Vert" : "band2Vert");
  }
  if (look.hBand && !isFirstRow && !isLastRow) {
    const idx = row - (look.firstRow ? 1 : 0);
    out.push(Math.floor(idx / rowBand) % 2 === 0 ? "band1Horz" : "band2Horz");
  }
  if (isFirstCol) out.push("firstCol");
  if (isLastCol) out.push("lastCol");
  if (isFirstRow) out.push("firstRow");
  if (isLastRow) out.push("lastRow");
  if (isFirstRow && isFirstCol) out.push("nwCell");
  if (isFirstRow && isLastCol) out.push("neCell");
  if (isLastRow && isFirstCol) out.push("swCell");
  if (isLastRow && isLastCol) out.push("seCell");
  return out;
}

/**
 * Whether a cell lets its row collapse (LibreOffice's writerfilter: every cell of the row has
 * w:hideMark and no w:vMerge, and its text is empty): one paragraph without content.
 */
function collapsesHiddenMarks(tcPr: XNode | undefined, cell: TableCell): boolean {
  if (!flag(tcPr, "hideMark") || tcPr?.child("vMerge")) return false;
  const [only, ...rest] = cell.blocks;
  return rest.length === 0 && only?.type === "paragraph" && only.inlines.length === 0;
}
