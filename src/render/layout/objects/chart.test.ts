/**
 * Chart layout inside workerd with the real fonts: value axis steps as LibreOffice draws them for
 * Word's charts, bars in proportion and in series colours, pie slices, charts we do not draw
 * (frame and title only), and hostile values that must not break the page.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { assetFontSource } from "../../fonts/asset-source";
import { loadFontBook } from "../../fonts/font-book";
import type { FontBook } from "../../fonts/types";
import type { Chart, DocumentModel } from "../../model/types";
import { runStyle } from "../../../../test/support/render-styles";
import { chartItems, valueScale } from "./chart";
import type { PaintItem } from "../types";

let book: FontBook | undefined;
async function fonts(): Promise<FontBook> {
  if (!book) {
    const model = {
      sections: [{ blocks: [] }],
      headerFooters: new Map(),
      notes: new Map(),
      images: new Map(),
      evenAndOddHeaders: false,
      defaultTabStop: 36,
      fontFamilies: new Set(["Calibri"]),
      fontTable: new Map(),
    } as unknown as DocumentModel;
    book = await loadFontBook(model, assetFontSource(env.ASSETS as Fetcher));
  }
  return book;
}

const chart = (o: Partial<Chart> = {}): Chart => ({
  kind: "bar",
  horizontal: false,
  stacked: false,
  percent: false,
  gapWidth: 150,
  overlap: 0,
  categories: ["A", "B"],
  series: [
    { name: "One", color: "4472C4", values: [4.3, 2.5] },
    { name: "Two", color: "ED7D31", values: [2.4, 5] },
  ],
  axisText: runStyle({ size: 9 }),
  categoryText: runStyle({ size: 9 }),
  gridColor: "D9D9D9",
  gridlines: true,
  valueAxisShown: true,
  categoryAxisShown: true,
  fill: "FFFFFF",
  border: "D9D9D9",
  ...o,
});
const box = { x: 72, y: 72, width: 432, height: 252 };
const texts = (items: PaintItem[]) =>
  items.filter((i): i is Extract<PaintItem, { kind: "text" }> => i.kind === "text").map((i) => i.text);
const rects = (items: PaintItem[], fill: string) =>
  items.filter((i): i is Extract<PaintItem, { kind: "rect" }> => i.kind === "rect" && i.fill === fill);

describe("value axis", () => {
  it("steps like LibreOffice: 0..6 by 1 for a highest value of 5, 0..14 by 2 for stacked totals of 12.3", () => {
    const clustered = chart({ series: [{ name: "s", color: "000000", values: [4.3, 5] }] });
    expect(valueScale(clustered)).toEqual({ min: 0, max: 6, step: 1 });
    const stacked = chart({
      stacked: true,
      series: [
        { name: "a", color: "000000", values: [4.5, 1] },
        { name: "b", color: "111111", values: [7.8, 1] },
      ],
    });
    expect(valueScale(stacked)).toEqual({ min: 0, max: 14, step: 2 });
  });

  it("goes below zero for negative values and honours a fixed maximum and step", () => {
    const s = valueScale(chart({ series: [{ name: "s", color: "000000", values: [-3, 8] }] }));
    expect(s.min).toBeLessThan(-3);
    expect(s.max).toBeGreaterThan(8);
    expect(valueScale(chart({ axisMax: 50, majorUnit: 10 }))).toEqual({ min: 0, max: 50, step: 10 });
  });
});

describe("chartItems", () => {
  it("draws title, axis numbers, categories and legend, and bars whose heights follow the values", async () => {
    const items = chartItems(
      chart({
        title: { text: "Sales", style: runStyle({ size: 14 }) },
        legend: { position: "b", style: runStyle({ size: 9 }) },
      }),
      box,
      await fonts(),
    );
    expect(texts(items)).toEqual(["Sales", "One", "Two", "0", "1", "2", "3", "4", "5", "6", "A", "B"]);
    const blue = rects(items, "4472C4").filter((r) => r.height > 10);
    const orange = rects(items, "ED7D31").filter((r) => r.height > 10);
    expect(blue).toHaveLength(2);
    expect(orange).toHaveLength(2);
    expect(blue[0]!.height / orange[0]!.height).toBeCloseTo(4.3 / 2.4, 5);
    // Bars stand on the same baseline, inside the box.
    expect(blue[0]!.y + blue[0]!.height).toBeCloseTo(orange[1]!.y + orange[1]!.height, 5);
    for (const r of [...blue, ...orange]) expect(r.y + r.height).toBeLessThanOrEqual(box.y + box.height);
  });

  it("puts a right-hand legend in one column beside the plot, the bars left of it", async () => {
    const items = chartItems(chart({ legend: { position: "r", style: runStyle({ size: 9 }) } }), box, await fonts());
    const one = items.find((i): i is Extract<PaintItem, { kind: "text" }> => i.kind === "text" && i.text === "One")!;
    const two = items.find((i): i is Extract<PaintItem, { kind: "text" }> => i.kind === "text" && i.text === "Two")!;
    expect(two.x).toBeCloseTo(one.x, 5);
    expect(two.y).toBeGreaterThan(one.y);
    for (const r of [...rects(items, "4472C4"), ...rects(items, "ED7D31")].filter((r) => r.height > 10))
      expect(r.x + r.width).toBeLessThan(one.x - 9);
  });

  it("draws pie slices whose angles follow the values", async () => {
    const pie = chart({
      kind: "pie",
      series: [{ name: "s", color: "000000", values: [1, 3], pointColors: ["AA0000", "00AA00"] }],
    });
    const slices = chartItems(pie, box, await fonts()).filter(
      (i): i is Extract<PaintItem, { kind: "polygon" }> => i.kind === "polygon",
    );
    expect(slices.map((s) => s.fill)).toEqual(["AA0000", "00AA00"]);
    // Arc points per slice grow with the slice's angle: a quarter and three quarters of the circle.
    expect((slices[1]!.points.length - 4) / (slices[0]!.points.length - 4)).toBeCloseTo(3, 0);
  });

  it("draws only the frame and title of a chart type it does not know", async () => {
    const items = chartItems(chart({ kind: "other", title: { text: "Radar", style: runStyle() } }), box, await fonts());
    expect(texts(items)).toEqual(["Radar"]);
    expect(items.filter((i) => i.kind === "rect")).toHaveLength(1); // the chart area's fill
  });

  it("keeps hostile values finite and inside the box", async () => {
    const hostile = chart({
      series: [{ name: "x", color: "000000", values: [1e308, -1e308, null] }],
      axisMax: Number.MAX_VALUE,
      majorUnit: 1e-300,
    });
    const items = chartItems(hostile, box, await fonts());
    expect(items.length).toBeLessThan(2_000);
    for (const it of items)
      for (const v of Object.values(it)) if (typeof v === "number") expect(Number.isFinite(v)).toBe(true);
    for (const r of items.filter((i) => i.kind === "rect")) {
      expect(r.y).toBeGreaterThanOrEqual(box.y - 1e-6);
      expect(r.y + r.height).toBeLessThanOrEqual(box.y + box.height + 1e-6);
    }
  });
});
