/**
 * Charts as a reader sees them: the corpus file with a clustered and a stacked bar chart renders
 * its titles, category names, value axis numbers and legend in the order LibreOffice's PDF gives
 * them (pdftotext of LibreOffice 24's conversion of the same file, below), and the bars are drawn
 * in the series colours with areas in proportion to the values.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { renderDocxToPdf } from "../../src/render/index";
import { nodeFontSource } from "../../scripts/lib/node-font-source";

const run = promisify(execFile);
const CHART_DOCX = new URL("../../../shared/corpus/docx/easytemplatex__chart_-_bar.docx", import.meta.url).pathname;
const haveTools = ["pdftotext", "pdftoppm"].every((cmd) =>
  (process.env.PATH ?? "").split(":").some((d) => existsSync(join(d, cmd))),
);
if (!haveTools && process.env.CI) throw new Error("pdftotext/pdftoppm missing in CI: .ci/run installs poppler-utils");

/** `pdftotext -layout` of LibreOffice's PDF of easytemplatex__chart_-_bar.docx, words only, in order. */
const LIBREOFFICE_WORDS = [
  "Bar Chart Title {chart1}",
  "Category 4",
  "Category 3",
  "Category 2",
  "Category 1",
  "0 1 2 3 4 5 6",
  "Series 3 Series 2 Series 1",
  "{chart2}Stacked Bar Chart Title",
  "Category 4",
  "Category 3",
  "Category 2",
  "Category 1",
  "0 2 4 6 8 10 12 14",
  "Series 1 Series 2 Series 3",
].join(" ");

const work = mkdtempSync(join(tmpdir(), "signet-charts-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function renderCorpusChart(): Promise<string> {
  const pdf = await renderDocxToPdf(new Uint8Array(readFileSync(CHART_DOCX)), { fonts: nodeFontSource() });
  const path = join(work, "chart.pdf");
  writeFileSync(path, pdf);
  return path;
}

/** Pixel counts per RGB colour of the first page at 150 dpi (no anti-aliasing, so edges keep their colour). */
async function colourCounts(pdf: string): Promise<Map<string, number>> {
  await run("pdftoppm", ["-r", "150", "-aaVector", "no", "-f", "1", "-l", "1", pdf, join(work, "page")]);
  const ppm = readFileSync(join(work, existsSync(join(work, "page-1.ppm")) ? "page-1.ppm" : "page-01.ppm"));
  // P6 header: magic, width, height, maxval, each followed by one whitespace byte.
  const header = ppm.toString("latin1", 0, 64).match(/^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/);
  if (!header) throw new Error("not a binary PPM");
  const counts = new Map<string, number>();
  for (let i = header[0].length; i + 2 < ppm.length; i += 3) {
    const key = [ppm[i]!, ppm[i + 1]!, ppm[i + 2]!]
      .map((v) => v.toString(16).padStart(2, "0"))
      .join("")
      .toUpperCase();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

describe.skipIf(!haveTools || !existsSync(CHART_DOCX))("charts drawn from the chart part", () => {
  it("shows titles, category names, axis numbers and legend entries in LibreOffice's order", async () => {
    const pdf = await renderCorpusChart();
    const { stdout } = await run("pdftotext", ["-layout", pdf, "-"]);
    expect(stdout.split(/\s+/).filter(Boolean).join(" ")).toBe(LIBREOFFICE_WORDS);
  });

  it("draws the bars in the theme's accent colours, areas in proportion to the series totals", async () => {
    const counts = await colourCounts(await renderCorpusChart());
    // Series 1..3 use accent1..3 of the document's theme (Office: 4472C4, ED7D31, A5A5A5).
    const blue = counts.get("4472C4") ?? 0;
    const orange = counts.get("ED7D31") ?? 0;
    const grey = counts.get("A5A5A5") ?? 0;
    expect(blue).toBeGreaterThan(1_000);
    // Both charts plot the same values: series totals 14.8, 11.1 and 12 (bars of equal thickness
    // within a chart, so pixel areas keep the ratios, up to edge pixels and the legend keys).
    expect(orange / blue).toBeCloseTo(11.1 / 14.8, 1);
    expect(grey / blue).toBeCloseTo(12 / 14.8, 1);
  });
});
