/**
 * Chart parts read into the model: what the chart says (type, title, categories, series values and
 * colours), and hostile or broken chart parts that must leave an empty box, never fail the document.
 */
import { describe, expect, it } from "vitest";
import { strToU8, unzipSync, zipSync } from "fflate";
import { templateDocx } from "../../../test/support/docx-templates";
import { LIMITS } from "../../limits";
import { parseDocx } from "./parse-docx";
import type { Chart, Inline, Paragraph } from "./types";

const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const C = `xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"`;

const DRAWING =
  `<w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="5486400" cy="3200400"/>` +
  `<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart">` +
  `<c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rIdChart"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;

/** A document whose only paragraph holds a chart drawing pointing at `chartXml` (omitted: the part is missing). */
function withChart(chartXml: string | undefined): Uint8Array {
  const base = unzipSync(templateDocx({ body: `<w:p>${DRAWING}</w:p>` }));
  const rels = new TextDecoder().decode(base["word/_rels/document.xml.rels"]!);
  base["word/_rels/document.xml.rels"] = strToU8(
    rels.replace(
      "</Relationships>",
      `<Relationship Id="rIdChart" Type="${REL}/chart" Target="charts/chart1.xml"/></Relationships>`,
    ),
  );
  if (chartXml !== undefined) base["word/charts/chart1.xml"] = strToU8(chartXml);
  return zipSync(base);
}

function boxOf(bytes: Uint8Array): Extract<Inline, { type: "box" }> {
  const p = parseDocx(bytes).sections[0]!.blocks[0] as Paragraph;
  const box = p.inlines.find((i) => i.type === "box");
  if (!box || box.type !== "box") throw new Error("no box");
  return box;
}

const strCache = (values: string[]) =>
  `<c:strRef><c:strCache><c:ptCount val="${values.length}"/>${values.map((v, i) => `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`).join("")}</c:strCache></c:strRef>`;
const numCache = (values: string[]) =>
  `<c:numRef><c:numCache><c:ptCount val="${values.length}"/>${values.map((v, i) => `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`).join("")}</c:numCache></c:numRef>`;
const ser = (i: number, name: string, values: string[], fill = "") =>
  `<c:ser><c:idx val="${i}"/><c:tx>${strCache([name])}</c:tx>${fill ? `<c:spPr><a:solidFill><a:srgbClr val="${fill}"/></a:solidFill></c:spPr>` : ""}<c:cat>${strCache(values.map((_, k) => `Q${k + 1}`))}</c:cat><c:val>${numCache(values)}</c:val></c:ser>`;
const chartPart = (plot: string, extra = "") =>
  `<c:chartSpace ${C}><c:chart><c:title><c:tx><c:rich><a:p><a:r><a:t>Revenue</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea>${plot}<c:catAx/><c:valAx><c:majorGridlines/></c:valAx></c:plotArea><c:legend><c:legendPos val="b"/></c:legend>${extra}</c:chart></c:chartSpace>`;

describe("chart parts", () => {
  it("reads a stacked column chart: title, categories, values and series colours", () => {
    const xml = chartPart(
      `<c:barChart><c:barDir val="col"/><c:grouping val="stacked"/>${ser(0, "North", ["1", "2.5", ""], "FF0000")}${ser(1, "South", ["3", "x", "4"])}<c:gapWidth val="80"/></c:barChart>`,
    );
    const box = boxOf(withChart(xml));
    expect(box.width).toBeCloseTo(432, 5);
    const chart = box.chart as Chart;
    expect(chart).toMatchObject({
      kind: "bar",
      horizontal: false,
      stacked: true,
      gapWidth: 80,
      overlap: 100,
      categories: ["Q1", "Q2", "Q3"],
    });
    expect(chart.title?.text).toBe("Revenue");
    expect(chart.series.map((s) => s.name)).toEqual(["North", "South"]);
    // Blank and non-numeric cache values are gaps, not zeros.
    expect(chart.series.map((s) => s.values)).toEqual([
      [1, 2.5, null],
      [3, null, 4],
    ]);
    // Explicit fill, else the Office palette's second accent (no theme in this package).
    expect(chart.series.map((s) => s.color)).toEqual(["FF0000", "ED7D31"]);
    expect(chart.legend?.position).toBe("b");
  });

  it("reads a type it does not draw as 'other' (frame and title)", () => {
    const box = boxOf(withChart(chartPart(`<c:radarChart>${ser(0, "A", ["1"])}</c:radarChart>`)));
    expect(box.chart).toMatchObject({ kind: "other", title: { text: "Revenue" } });
  });

  it("keeps the box and drops the chart when the part is missing, malformed or too large", () => {
    expect(boxOf(withChart(undefined)).chart).toBeUndefined();
    expect(boxOf(withChart("<c:chartSpace><c:chart><unclosed></c:chartSpace>")).chart).toBeUndefined();
    // Filler that does not compress much (the ZIP reader refuses bomb-like ratios before we look).
    let seed = 1;
    const filler = Array.from({ length: LIMITS.render.chart.maxPartBytes }, () =>
      String.fromCharCode(97 + ((seed = (seed * 1103515245 + 12345) % 2147483648) % 26)),
    ).join("");
    const big = chartPart(`<c:barChart>${ser(0, "A", ["1"])}</c:barChart>`, `<!--${filler}-->`);
    expect(boxOf(withChart(big)).chart).toBeUndefined();
  });

  it("bounds series and points: a hostile point count or index allocates nothing", () => {
    const many = Array.from({ length: LIMITS.render.chart.maxSeries + 10 }, (_, i) => ser(i, `S${i}`, ["1"])).join("");
    const hostilePoints = `<c:ser><c:idx val="0"/><c:val><c:numRef><c:numCache><c:ptCount val="999999999"/><c:pt idx="2000000000"><c:v>5</c:v></c:pt><c:pt idx="1"><c:v>2</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser>`;
    const chart = boxOf(withChart(chartPart(`<c:lineChart>${hostilePoints}${many}</c:lineChart>`))).chart as Chart;
    expect(chart.series).toHaveLength(LIMITS.render.chart.maxSeries);
    expect(chart.series[0]!.values.length).toBeLessThanOrEqual(LIMITS.render.chart.maxPoints);
    expect(chart.series[0]!.values[1]).toBe(2);
    expect(chart.categories.length).toBeLessThanOrEqual(LIMITS.render.chart.maxPoints);
  });
});
