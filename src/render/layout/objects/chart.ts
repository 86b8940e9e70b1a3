/**
 * Lays out a chart (model Chart) inside its drawing's box as paint items: frame, title, legend,
 * plot area with gridlines, axis labels, and bars, lines or pie slices in the series colours.
 * Proportions follow what LibreOffice draws for Word's default chart styles (measured on the
 * corpus charts); the value axis gets a "nice" step (1, 2 or 5 times a power of ten).
 */
import type { FontBook, FontFace } from "../../fonts/types";
import type { Chart, Color, RunStyle } from "../../model/types";
import type { PaintItem } from "../types";

/**
 * Inner padding of the chart area to the text boxes (top of the title line, bottom of the legend
 * line), pt, and the room between title, plot, axis labels and legend: fitted to LibreOffice's
 * drawing of Word's default chart (easytemplatex chart_-_bar, within 0.5 pt).
 */
const PAD = { left: 9, right: 11, top: 13.6, bottom: 3.2 };
const TITLE_GAP = 4.9;
const LEGEND_GAP = 12.5;
const LABEL_GAP = 2.15;
/** Legend: key square side and gaps as a share of the legend text size. */
const LEGEND_KEY = 0.6;
const LEGEND_KEY_GAP = 0.3;
const LEGEND_ENTRY_GAP = 0.667;
/** At most this many value axis intervals before the step grows. */
const MAX_INTERVALS = 10;
/** A fixed major unit (c:majorUnit) is honoured up to this many intervals. */
const MAX_FIXED_INTERVALS = 100;
/** Segments per full circle for pie slices. */
const PIE_SEGMENTS = 180;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Measured {
  face: FontFace;
  style: RunStyle;
}

/** The chart's items in page coordinates for the box (x, y top-left, width, height). */
export function chartItems(chart: Chart, box: Box, fonts: FontBook): PaintItem[] {
  const out: PaintItem[] = [];
  if (!(box.width > 0) || !(box.height > 0)) return out;
  if (chart.fill)
    out.push({ kind: "rect", x: box.x, y: box.y, width: box.width, height: box.height, fill: chart.fill });
  if (chart.border) frame(box, chart.border, 0.75, out);

  const faceOf = (style: RunStyle): Measured => ({
    face: fonts.face({ family: style.font, bold: style.bold, italic: style.italic }),
    style,
  });
  let top = box.y + PAD.top;
  let bottom = box.y + box.height - PAD.bottom;
  const left = box.x + PAD.left;
  const right = box.x + box.width - PAD.right;

  if (chart.title) {
    const m = faceOf(chart.title.style);
    const size = m.style.size;
    const width = m.face.widthOf(chart.title.text, size);
    text(out, m, chart.title.text, box.x + (box.width - width) / 2, top + m.face.ascent(size));
    top += m.face.lineHeight(size) + TITLE_GAP;
  }
  let plotLeft = left;
  let plotRight = right;
  if (chart.legend && chart.series.length) {
    const m = faceOf(chart.legend.style);
    const entries = legendEntries(chart);
    const size = m.style.size;
    const key = size * LEGEND_KEY;
    const lineH = m.face.lineHeight(size);
    const entry = (e: { name: string; color: Color }, x: number, baseline: number) => {
      out.push({
        kind: "rect",
        x,
        y: baseline - m.face.ascent(size) / 2 - key / 2 - size * 0.1,
        width: key,
        height: key,
        fill: e.color,
      });
      text(out, m, e.name, x + key + size * LEGEND_KEY_GAP, baseline);
    };
    const widths = entries.map((e) => key + size * LEGEND_KEY_GAP + m.face.widthOf(e.name, size));
    const position = chart.legend.position;
    if (position === "b" || position === "t") {
      // One row, centred, below the plot or under the title.
      const total = widths.reduce((a, b) => a + b, 0) + size * LEGEND_ENTRY_GAP * (entries.length - 1);
      const baseline = position === "b" ? bottom - m.face.descent(size) : top + m.face.ascent(size);
      let x = box.x + (box.width - total) / 2;
      entries.forEach((e, i) => {
        entry(e, x, baseline);
        x += widths[i]! + size * LEGEND_ENTRY_GAP;
      });
      if (position === "b") bottom -= lineH + LEGEND_GAP;
      else top += lineH + TITLE_GAP;
    } else {
      // One column beside the plot, centred vertically (top right for "tr").
      const column = Math.min(Math.max(...widths), box.width / 3);
      const height = lineH * entries.length;
      let y = position === "tr" ? top : top + Math.max(0, (bottom - top - height) / 2);
      const x = position === "l" ? left : right - column;
      for (const e of entries) {
        entry(e, x, y + m.face.ascent(size));
        y += lineH;
      }
      if (position === "l") plotLeft += column + size;
      else plotRight -= column + size;
    }
  }
  const plot: Box = {
    x: plotLeft,
    y: top,
    width: Math.max(0, plotRight - plotLeft),
    height: Math.max(0, bottom - top),
  };
  if (chart.kind === "bar" || chart.kind === "line") axisChart(chart, plot, faceOf, out);
  else if (chart.kind === "pie") pieChart(chart, plot, out);
  return out;
}

function legendEntries(chart: Chart): { name: string; color: Color }[] {
  if (chart.kind === "pie") {
    const s = chart.series[0]!;
    return chart.categories.map((name, i) => ({ name, color: s.pointColors?.[i] ?? s.color }));
  }
  const entries = chart.series.map((s) => ({ name: s.name, color: s.color }));
  // Horizontal clustered bars list series bottom-up, as they are drawn (LibreOffice and Word).
  return chart.kind === "bar" && chart.horizontal && !chart.stacked ? entries.reverse() : entries;
}

function text(out: PaintItem[], m: Measured, value: string, x: number, baseline: number): void {
  if (!value) return;
  out.push({
    kind: "text",
    x,
    y: baseline,
    text: value,
    face: m.face,
    size: m.style.size,
    color: m.style.color,
    width: m.face.widthOf(value, m.style.size),
  });
}

function frame(b: Box, color: Color | null, width: number, out: PaintItem[]): void {
  out.push({ kind: "line", x1: b.x, y1: b.y, x2: b.x + b.width, y2: b.y, width, color });
  out.push({ kind: "line", x1: b.x + b.width, y1: b.y, x2: b.x + b.width, y2: b.y + b.height, width, color });
  out.push({ kind: "line", x1: b.x + b.width, y1: b.y + b.height, x2: b.x, y2: b.y + b.height, width, color });
  out.push({ kind: "line", x1: b.x, y1: b.y + b.height, x2: b.x, y2: b.y, width, color });
}

/** Values beyond this magnitude are drawn at it (keeps every coordinate finite). */
const MAX_VALUE = 1e12;

/** A series value at a category, clamped; null for a gap. */
function valueAt(values: readonly (number | null)[], i: number): number | null {
  const v = values[i];
  return v === null || v === undefined || !Number.isFinite(v) ? null : Math.max(-MAX_VALUE, Math.min(MAX_VALUE, v));
}

/** Value axis: bounds and step. Starts at zero unless values are negative or the axis says so. */
export function valueScale(chart: Chart): { min: number; max: number; step: number } {
  let lo = 0;
  let hi = 0;
  const n = chart.categories.length;
  if (chart.percent) {
    hi = 1;
    for (let i = 0; i < n; i++) for (const s of chart.series) if ((valueAt(s.values, i) ?? 0) < 0) lo = -1;
  } else if (chart.stacked) {
    for (let i = 0; i < n; i++) {
      let pos = 0;
      let neg = 0;
      for (const s of chart.series) {
        const v = valueAt(s.values, i) ?? 0;
        if (v >= 0) pos += v;
        else neg += v;
      }
      hi = Math.max(hi, pos);
      lo = Math.min(lo, neg);
    }
  } else {
    for (const s of chart.series) {
      for (let i = 0; i < s.values.length; i++) {
        const v = valueAt(s.values, i);
        if (v !== null) ((hi = Math.max(hi, v)), (lo = Math.min(lo, v)));
      }
    }
  }
  const axisMin = chart.axisMin !== undefined && Math.abs(chart.axisMin) <= MAX_VALUE ? chart.axisMin : undefined;
  const axisMax = chart.axisMax !== undefined && Math.abs(chart.axisMax) <= MAX_VALUE ? chart.axisMax : undefined;
  if (axisMin !== undefined) lo = axisMin;
  if (axisMax !== undefined) hi = axisMax;
  if (!(hi > lo)) hi = lo + 1;
  if (chart.percent)
    return { min: lo, max: hi, step: chart.majorUnit !== undefined && chart.majorUnit >= 0.01 ? chart.majorUnit : 0.1 };
  // Room above the highest value (5 % of the range), then whole steps.
  const span = hi - lo;
  const headroomHi = axisMax === undefined ? hi + span * 0.05 : hi;
  const headroomLo = axisMin === undefined && lo < 0 ? lo - span * 0.05 : lo;
  let step = chart.majorUnit ?? niceStep(headroomHi - headroomLo);
  // A fixed step that would draw hundreds of gridlines is replaced by a nice one.
  if (!((headroomHi - headroomLo) / step <= MAX_FIXED_INTERVALS)) step = niceStep(headroomHi - headroomLo);
  const min = axisMin ?? Math.floor(headroomLo / step) * step;
  const max = axisMax ?? Math.ceil(headroomHi / step) * step;
  return { min, max: max > min ? max : min + step, step };
}

function niceStep(span: number): number {
  const base = Math.pow(10, Math.floor(Math.log10(span / MAX_INTERVALS)));
  for (const m of [1, 2, 5, 10]) if (span / (base * m) <= MAX_INTERVALS) return base * m;
  return base * 10;
}

function formatTick(v: number, step: number, percent: boolean): string {
  const value = percent ? v * 100 : v;
  const s = percent ? step * 100 : step;
  const decimals = s >= 1 ? 0 : Math.min(10, Math.ceil(-Math.log10(s) - 1e-9));
  // "General" number format: no trailing zeros (0, 0.5, 1 ...), no minus zero.
  const r = Number(value.toFixed(decimals));
  const clean = Object.is(r, -0) ? "0" : String(r);
  return percent ? `${clean}%` : clean;
}

function axisChart(chart: Chart, plot: Box, faceOf: (s: RunStyle) => Measured, out: PaintItem[]): void {
  const cats = chart.categories;
  const scale = valueScale(chart);
  const ticks: number[] = [];
  for (let i = 0; i <= MAX_FIXED_INTERVALS; i++) {
    const v = scale.min + i * scale.step;
    if (v > scale.max + scale.step * 1e-6) break;
    ticks.push(v);
  }
  const labels = ticks.map((t) => formatTick(t, scale.step, chart.percent));
  const vm = faceOf(chart.axisText);
  const cm = faceOf(chart.categoryText);
  const vSize = vm.style.size;
  const cSize = cm.style.size;
  const horizontal = chart.kind === "bar" && chart.horizontal;

  // Room for the labels: beside the plot for the axis on the left, below it for the bottom one.
  const leftLabels = horizontal ? (chart.categoryAxisShown ? cats : []) : chart.valueAxisShown ? labels : [];
  const leftMeasure = horizontal ? cm : vm;
  const leftWidth = leftLabels.reduce((w, l) => Math.max(w, leftMeasure.face.widthOf(l, leftMeasure.style.size)), 0);
  const bottomMeasure = horizontal ? vm : cm;
  const bottomShown = horizontal ? chart.valueAxisShown : chart.categoryAxisShown;
  const bottomHeight = bottomShown ? bottomMeasure.face.lineHeight(bottomMeasure.style.size) + LABEL_GAP : 0;
  const area: Box = {
    x: plot.x + (leftWidth ? leftWidth + LABEL_GAP : 0),
    y: plot.y + vSize * 0.5,
    width: Math.max(1, plot.width - (leftWidth ? leftWidth + LABEL_GAP : 0) - (horizontal ? 0 : 0)),
    height: Math.max(1, plot.height - bottomHeight - vSize * 0.5),
  };
  const valueLen = horizontal ? area.width : area.height;
  const pos = (v: number) => ((v - scale.min) / (scale.max - scale.min)) * valueLen;
  const n = Math.max(1, cats.length);
  const slot = (horizontal ? area.height : area.width) / n;

  // Gridlines and value labels.
  ticks.forEach((t, i) => {
    const p = pos(t);
    if (horizontal) {
      const x = area.x + p;
      if (chart.gridlines)
        out.push({
          kind: "line",
          x1: x,
          y1: area.y,
          x2: x,
          y2: area.y + area.height,
          width: 0.75,
          color: chart.gridColor,
        });
      if (chart.valueAxisShown) {
        const w = vm.face.widthOf(labels[i]!, vSize);
        text(out, vm, labels[i]!, x - w / 2, area.y + area.height + LABEL_GAP + vm.face.ascent(vSize));
      }
    } else {
      const y = area.y + area.height - p;
      if (chart.gridlines)
        out.push({
          kind: "line",
          x1: area.x,
          y1: y,
          x2: area.x + area.width,
          y2: y,
          width: 0.75,
          color: chart.gridColor,
        });
      if (chart.valueAxisShown) {
        const w = vm.face.widthOf(labels[i]!, vSize);
        text(out, vm, labels[i]!, area.x - LABEL_GAP - w, y + (vm.face.ascent(vSize) - vm.face.descent(vSize)) / 2);
      }
    }
  });
  // Category axis line at zero, and category labels centred on their slots.
  const zero = pos(Math.max(scale.min, Math.min(scale.max, 0)));
  if (horizontal)
    out.push({
      kind: "line",
      x1: area.x + zero,
      y1: area.y,
      x2: area.x + zero,
      y2: area.y + area.height,
      width: 0.75,
      color: chart.gridColor,
    });
  else
    out.push({
      kind: "line",
      x1: area.x,
      y1: area.y + area.height - zero,
      x2: area.x + area.width,
      y2: area.y + area.height - zero,
      width: 0.75,
      color: chart.gridColor,
    });
  if (chart.categoryAxisShown) {
    cats.forEach((c, i) => {
      const w = cm.face.widthOf(c, cSize);
      if (horizontal) {
        // Categories run bottom-up.
        const centre = area.y + area.height - (i + 0.5) * slot;
        text(out, cm, c, area.x - LABEL_GAP - w, centre + (cm.face.ascent(cSize) - cm.face.descent(cSize)) / 2);
      } else {
        const centre = area.x + (i + 0.5) * slot;
        text(out, cm, c, centre - w / 2, area.y + area.height + LABEL_GAP + cm.face.ascent(cSize));
      }
    });
  }
  if (chart.kind === "bar") bars(chart, area, slot, pos, horizontal, out);
  else lines(chart, area, slot, pos, out);
}

function bars(
  chart: Chart,
  area: Box,
  slot: number,
  pos: (v: number) => number,
  horizontal: boolean,
  out: PaintItem[],
): void {
  const count = chart.series.length;
  const overlap = chart.stacked ? 1 : chart.overlap / 100;
  // A group is `count` bars overlapping by `overlap`, plus the gap (in bar thicknesses).
  const barsAcross = chart.stacked ? 1 : count - (count - 1) * overlap;
  const thickness = slot / (barsAcross + chart.gapWidth / 100);
  const step = thickness * (1 - overlap);
  for (let i = 0; i < chart.categories.length; i++) {
    const total = chart.percent ? chart.series.reduce((a, s) => a + Math.abs(valueAt(s.values, i) ?? 0), 0) || 1 : 1;
    let posStack = 0;
    let negStack = 0;
    const groupStart = i * slot + (slot - (thickness + step * (chart.stacked ? 0 : count - 1))) / 2;
    chart.series.forEach((s, k) => {
      const raw = valueAt(s.values, i);
      if (raw === null) return;
      const v = raw / total;
      let from = 0;
      if (chart.stacked) {
        from = v >= 0 ? posStack : negStack;
        if (v >= 0) posStack += v;
        else negStack += v;
      }
      const a = clampPos(pos(from), area, horizontal);
      const b = clampPos(pos(from + v), area, horizontal);
      const lo = Math.min(a, b);
      const len = Math.abs(b - a);
      if (len <= 0) return;
      const across = groupStart + (chart.stacked ? 0 : k * step);
      if (horizontal)
        out.push({
          kind: "rect",
          x: area.x + lo,
          y: area.y + area.height - across - thickness,
          width: len,
          height: thickness,
          fill: s.color,
        });
      else
        out.push({
          kind: "rect",
          x: area.x + across,
          y: area.y + area.height - lo - len,
          width: thickness,
          height: len,
          fill: s.color,
        });
    });
  }
}

function clampPos(p: number, area: Box, horizontal: boolean): number {
  return Math.max(0, Math.min(horizontal ? area.width : area.height, p));
}

function lines(chart: Chart, area: Box, slot: number, pos: (v: number) => number, out: PaintItem[]): void {
  const stack = new Array<number>(chart.categories.length).fill(0);
  for (const s of chart.series) {
    let prev: { x: number; y: number } | null = null;
    for (let i = 0; i < chart.categories.length; i++) {
      const raw = valueAt(s.values, i);
      if (raw === null) {
        prev = null;
        continue;
      }
      const v = chart.stacked ? (stack[i]! += raw) : raw;
      const point = {
        x: area.x + (i + 0.5) * slot,
        y: area.y + area.height - Math.max(0, Math.min(area.height, pos(v))),
      };
      if (prev)
        out.push({ kind: "line", x1: prev.x, y1: prev.y, x2: point.x, y2: point.y, width: 2.25, color: s.color });
      prev = point;
    }
  }
}

/** Pie: the first series' values as slices clockwise from 12 o'clock, each a polygon along its arc. */
function pieChart(chart: Chart, plot: Box, out: PaintItem[]): void {
  const s = chart.series[0];
  if (!s) return;
  const values = s.values.map((_, i) => Math.max(0, valueAt(s.values, i) ?? 0));
  const total = values.reduce((a, b) => a + b, 0);
  if (!(total > 0)) return;
  const r = Math.max(0, Math.min(plot.width, plot.height) / 2 - 2);
  const cx = plot.x + plot.width / 2;
  const cy = plot.y + plot.height / 2;
  let angle = -Math.PI / 2;
  values.forEach((v, i) => {
    const sweep = (v / total) * Math.PI * 2;
    if (sweep <= 0) return;
    const steps = Math.max(1, Math.ceil((sweep / (Math.PI * 2)) * PIE_SEGMENTS));
    // Points relative to the circle's bounding box corner.
    const points: number[] = [r, r];
    for (let k = 0; k <= steps; k++) {
      const a = angle + (sweep * k) / steps;
      points.push(r + r * Math.cos(a), r + r * Math.sin(a));
    }
    out.push({ kind: "polygon", x: cx - r, y: cy - r, points, fill: s.pointColors?.[i] ?? s.color });
    angle += sweep;
  });
}
