/**
 * DrawingML charts (a `c:chart` in a drawing's graphicData, pointing at `word/charts/chartN.xml`):
 * the chart part read into a small model layout can draw: chart type, title, categories and
 * series values from the cached data (c:strCache / c:numCache), series colours, axes and legend.
 * Only the first plot of the plot area is read; counts are bounded by LIMITS.render.chart.
 */
import { LIMITS } from "../../limits";
import type { Chart, ChartSeries, ChartText, Color, RunStyle } from "./types";
import { parseTree, type XNode } from "./xml-tree";
import type { ParseContext, Story } from "./context";
import { hexColor } from "./units";
import { plainRunStyle } from "./plain-styles";
import { themeColor, themeFont, type Theme } from "./theme";

/** Office's default accent colours, used when the theme has none. */
const OFFICE_ACCENTS = ["4472C4", "ED7D31", "A5A5A5", "FFC000", "5B9BD5", "70AD47"];
/** Chart text Word draws in the newer chart styles: "tx1 65 %" grey. */
const DEFAULT_TEXT = "595959";
const DEFAULT_GRID = "D9D9D9";

const PLOT_KINDS: Record<string, Chart["kind"]> = {
  barChart: "bar",
  bar3DChart: "bar",
  lineChart: "line",
  line3DChart: "line",
  pieChart: "pie",
  pie3DChart: "pie",
  doughnutChart: "pie",
};

/** Reads the chart a graphicData points at; undefined when the part is missing or too large. */
export function readChart(graphicData: XNode, ctx: ParseContext, story: Story, base: RunStyle): Chart | undefined {
  const rel = story.rels.get(graphicData.child("chart")?.attr("id") ?? "");
  if (!rel || rel.external || !rel.target) return undefined;
  const entry = ctx.pkg.entry(rel.target);
  if (!entry || entry.uncompressedSize > LIMITS.render.chart.maxPartBytes) return undefined;
  let root: XNode | undefined;
  try {
    root = parseTree(ctx.pkg.readXml(rel.target), rel.target);
  } catch {
    return undefined; // a broken chart part leaves its box empty, like a broken picture
  }
  const chartNode = root?.child("chart");
  if (!root || !chartNode) return undefined;
  return chartFromXml(root, chartNode, ctx, base);
}

function chartFromXml(root: XNode, chartNode: XNode, ctx: ParseContext, base: RunStyle): Chart {
  const theme = ctx.env.theme;
  const font = themeFont(theme, "minorHAnsi") ?? base.font;
  // Charts without text properties (Office 2007 styles) use 10 pt text and an 18 pt bold title.
  const modern = !!root.first("txPr") || !!chartNode.first("txPr");
  const textStyle = (node: XNode | undefined, size: number, bold: boolean): RunStyle => {
    const rpr = node?.first("defRPr");
    const sz = Number(rpr?.attr("sz"));
    const b = rpr?.attr("b");
    const color = colorOf(rpr?.child("solidFill"), theme) ?? (modern ? DEFAULT_TEXT : null);
    const latin = rpr?.child("latin")?.attr("typeface");
    const family = latin && !latin.startsWith("+") ? latin : font;
    return ctx.intern({
      ...base,
      ...plainRunStyle(family, sz >= 100 && sz <= 40_000 ? sz / 100 : size, {
        bold: b === undefined ? bold : b === "1",
        color,
      }),
    });
  };
  const plotArea = chartNode.child("plotArea");
  const plot = plotArea?.children.find((c) => c.name.endsWith("Chart"));
  const kind = (plot && PLOT_KINDS[plot.name]) ?? "other";
  const series = plot ? readSeries(plot, theme, kind) : [];
  const categories = plot ? readCategories(plot) : [];

  const chart: Chart = {
    kind,
    horizontal: plot?.child("barDir")?.attr("val") === "bar",
    stacked: false,
    percent: false,
    gapWidth: clampNumber(plot?.child("gapWidth")?.attr("val"), 0, 500, 150),
    overlap: clampNumber(plot?.child("overlap")?.attr("val"), -100, 100, 0),
    categories,
    series,
    axisText: textStyle(plotArea?.child("valAx")?.child("txPr") ?? root.child("txPr"), modern ? 9 : 10, false),
    categoryText: textStyle(plotArea?.child("catAx")?.child("txPr") ?? root.child("txPr"), modern ? 9 : 10, false),
    gridColor:
      lineColor(plotArea?.child("valAx")?.child("majorGridlines")?.child("spPr"), theme) ??
      (modern ? DEFAULT_GRID : "878787"),
    gridlines: !!plotArea?.child("valAx")?.child("majorGridlines"),
    valueAxisShown: plotArea?.child("valAx")?.child("delete")?.attr("val") !== "1",
    categoryAxisShown: plotArea?.child("catAx")?.child("delete")?.attr("val") !== "1",
    fill: fillOf(root.child("spPr"), theme) ?? "FFFFFF",
    border:
      lineColor(root.child("spPr"), theme) ?? (root.child("spPr")?.child("ln")?.child("noFill") ? null : "878787"),
  };
  const grouping = plot?.child("grouping")?.attr("val");
  if (grouping === "stacked" || grouping === "percentStacked") {
    chart.stacked = kind === "bar" || kind === "line";
    chart.percent = grouping === "percentStacked";
    if (kind === "bar" && !plot?.child("overlap")) chart.overlap = 100;
  }
  const axisMin = Number(plotArea?.child("valAx")?.child("scaling")?.child("min")?.attr("val"));
  const axisMax = Number(plotArea?.child("valAx")?.child("scaling")?.child("max")?.attr("val"));
  const majorUnit = Number(plotArea?.child("valAx")?.child("majorUnit")?.attr("val"));
  if (Number.isFinite(axisMin)) chart.axisMin = axisMin;
  if (Number.isFinite(axisMax)) chart.axisMax = axisMax;
  if (Number.isFinite(majorUnit) && majorUnit > 0) chart.majorUnit = majorUnit;

  const titleNode = chartNode.child("title");
  const deleted = chartNode.child("autoTitleDeleted")?.attr("val") === "1";
  const titleText = titleNode
    ? (richText(titleNode.child("tx")) ?? (series.length === 1 ? series[0]!.name : "Chart Title"))
    : !deleted && series.length === 1 && kind === "pie"
      ? series[0]!.name
      : undefined;
  if (titleNode && titleText)
    chart.title = text(
      titleText,
      textStyle(titleNode.child("txPr") ?? titleNode.child("tx")?.child("rich"), modern ? 14 : 18, !modern),
    );
  else if (titleText) chart.title = text(titleText, textStyle(undefined, modern ? 14 : 18, !modern));

  const legend = chartNode.child("legend");
  if (legend) {
    const pos = legend.child("legendPos")?.attr("val");
    chart.legend = {
      position: pos === "t" || pos === "l" || pos === "r" || pos === "tr" ? pos : pos === "b" ? "b" : "r",
      style: textStyle(legend.child("txPr") ?? root.child("txPr"), modern ? 9 : 10, false),
    };
  }
  return chart;
}

function text(value: string, style: RunStyle): ChartText {
  return { text: value.slice(0, LIMITS.render.chart.maxTextLength), style };
}

function clampNumber(v: string | undefined, min: number, max: number, fallback: number): number {
  const n = Number(v);
  return v !== undefined && Number.isFinite(n) ? Math.max(min, Math.min(max, n)) : fallback;
}

/** The text of a c:tx (rich text paragraphs, or a cached string reference). */
function richText(tx: XNode | undefined): string | undefined {
  if (!tx) return undefined;
  const rich = tx.child("rich");
  if (rich) {
    const paras = rich.all("p").map((p) =>
      p
        .find("t")
        .map((t) => t.text())
        .join(""),
    );
    const joined = paras.filter(Boolean).join(" ");
    return joined || undefined;
  }
  const cached = tx.child("strRef")?.child("strCache") ?? tx;
  const v = cached.first("v")?.text();
  return v || undefined;
}

function readSeries(plot: XNode, theme: Theme, kind: Chart["kind"]): ChartSeries[] {
  const out: ChartSeries[] = [];
  const nodes = plot.all("ser").slice(0, LIMITS.render.chart.maxSeries);
  nodes.forEach((ser, i) => {
    const idx = clampNumber(ser.child("idx")?.attr("val"), 0, 10_000, i);
    const values = cachedPoints(ser.child("val") ?? ser.child("yVal")).map((v) => {
      const n = Number(v);
      return v === undefined || v.trim() === "" || !Number.isFinite(n) ? null : n;
    });
    const spPr = ser.child("spPr");
    const accent = accentColor(theme, idx);
    const color =
      kind === "line" ? (lineColor(spPr, theme) ?? fillOf(spPr, theme) ?? accent) : (fillOf(spPr, theme) ?? accent);
    const s: ChartSeries = { name: richText(ser.child("tx")) ?? `Series ${idx + 1}`, color, values };
    if (kind === "pie") {
      // Pie slices take the palette per point unless a data point sets its own fill.
      s.pointColors = values.map((_, p) => accentColor(theme, p));
      for (const dPt of ser.all("dPt")) {
        const p = Number(dPt.child("idx")?.attr("val"));
        const fill = fillOf(dPt.child("spPr"), theme);
        if (Number.isInteger(p) && p >= 0 && p < values.length && fill) s.pointColors[p] = fill;
      }
    }
    out.push(s);
  });
  // c:order gives the drawing order; the document order is usually the same.
  return out;
}

function readCategories(plot: XNode): string[] {
  const ser = plot.child("ser");
  const cat = ser?.child("cat") ?? ser?.child("xVal");
  const points = cachedPoints(cat);
  const count = Math.max(
    points.length,
    ...plot
      .all("ser")
      .slice(0, LIMITS.render.chart.maxSeries)
      .map((s) => cachedPoints(s.child("val") ?? s.child("yVal")).length),
  );
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push((points[i] ?? String(i + 1)).slice(0, LIMITS.render.chart.maxTextLength));
  return out;
}

/** Values of a c:cat / c:val cache by point index (gaps undefined), bounded by maxPoints. */
function cachedPoints(node: XNode | undefined): (string | undefined)[] {
  if (!node) return [];
  const cache =
    node.first("strCache") ??
    node.first("numCache") ??
    node.first("strLit") ??
    node.first("numLit") ??
    node.first("multiLvlStrCache");
  if (!cache) return [];
  const max = LIMITS.render.chart.maxPoints;
  const declared = clampNumber(cache.child("ptCount")?.attr("val"), 0, max, 0);
  const pts = cache.name === "multiLvlStrCache" ? (cache.child("lvl")?.all("pt") ?? []) : cache.all("pt");
  const out: (string | undefined)[] = new Array(declared).fill(undefined);
  for (const pt of pts) {
    const idx = Number(pt.attr("idx"));
    if (!Number.isInteger(idx) || idx < 0 || idx >= max) continue;
    while (out.length <= idx) out.push(undefined);
    out[idx] = pt.child("v")?.text() ?? "";
  }
  return out;
}

function accentColor(theme: Theme, idx: number): Color {
  const slot = idx % 6;
  return theme.colors.get(`accent${slot + 1}`) ?? OFFICE_ACCENTS[slot]!;
}

function fillOf(spPr: XNode | undefined, theme: Theme): Color | undefined {
  return colorOf(spPr?.child("solidFill"), theme) ?? undefined;
}

function lineColor(spPr: XNode | undefined, theme: Theme): Color | undefined {
  const ln = spPr?.child("ln");
  return colorOf(ln?.child("solidFill"), theme) ?? undefined;
}

/** A DrawingML colour (srgbClr, schemeClr, sysClr, prstClr) with lumMod/lumOff/tint/shade applied. */
export function colorOf(fill: XNode | undefined, theme: Theme): Color | undefined {
  const spec = fill?.children[0];
  if (!spec) return undefined;
  let hex: string | null | undefined;
  if (spec.name === "srgbClr") hex = hexColor(spec.attr("val"));
  else if (spec.name === "schemeClr") {
    const val = spec.attr("val");
    const slot = val === "tx1" ? "dk1" : val === "bg1" ? "lt1" : val === "tx2" ? "dk2" : val === "bg2" ? "lt2" : val;
    hex =
      themeColor(theme, slot) ??
      (slot === "dk1"
        ? "000000"
        : slot === "lt1"
          ? "FFFFFF"
          : slot?.startsWith("accent")
            ? OFFICE_ACCENTS[(Number(slot.slice(6)) - 1) % 6]
            : undefined);
  } else if (spec.name === "sysClr")
    hex = hexColor(spec.attr("lastClr")) ?? (spec.attr("val") === "window" ? "FFFFFF" : "000000");
  else if (spec.name === "prstClr")
    hex = spec.attr("val") === "white" ? "FFFFFF" : spec.attr("val") === "black" ? "000000" : undefined;
  if (!hex) return undefined;
  return adjust(hex, spec);
}

function adjust(hex: string, spec: XNode): Color {
  let [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];
  const pct = (name: string) => {
    const v = Number(spec.child(name)?.attr("val"));
    return Number.isFinite(v) ? v / 100_000 : undefined;
  };
  const lumMod = pct("lumMod");
  const lumOff = pct("lumOff");
  if (lumMod !== undefined || lumOff !== undefined) {
    const [h, s, l] = toHsl(r, g, b);
    [r, g, b] = fromHsl(h, s, Math.max(0, Math.min(1, l * (lumMod ?? 1) + (lumOff ?? 0))));
  }
  const shade = pct("shade");
  if (shade !== undefined) [r, g, b] = [r * shade, g * shade, b * shade];
  const tint = pct("tint");
  if (tint !== undefined) [r, g, b] = [r, g, b].map((c) => c + (1 - c) * (1 - tint)) as [number, number, number];
  return [r, g, b]
    .map((c) =>
      Math.round(Math.max(0, Math.min(1, c)) * 255)
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")
    .toUpperCase();
}

function toHsl(r: number, g: number, b: number): [number, number, number] {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === r ? (g - b) / d + (g < b ? 6 : 0) : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return [h / 6, s, l];
}

function fromHsl(h: number, s: number, l: number): [number, number, number] {
  if (s === 0) return [l, l, l];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const hue = (t: number) => {
    const u = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    if (u < 1 / 6) return p + (q - p) * 6 * u;
    if (u < 1 / 2) return q;
    if (u < 2 / 3) return p + (q - p) * (2 / 3 - u) * 6;
    return p;
  };
  return [hue(h + 1 / 3), hue(h), hue(h - 1 / 3)];
}
