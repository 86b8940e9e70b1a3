/**
 * Fidelity of what /v1/convert writes: every Markdown and HTML document of test/fixtures/convert
 * (CommonMark spec sections, READMEs, a contract, an invoice, letters and reports; sources in
 * SOURCES.md) becomes a DOCX with the engine the worker runs; LibreOffice opens that DOCX and
 * prints it, Signet's renderer prints it too, and the fidelity harness's word-position measure
 * (scripts/lib/fidelity-compare.ts) compares the two: at least 95 % of LibreOffice's words must be
 * drawn by Signet on the same page within 5 pt. Pictures by URL are not fetched here (offline): they
 * show their alt text in both PDFs.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  compareWords,
  docPlaced,
  POSITION_TOLERANCE_PT,
  totals,
  type DocResult,
} from "../../scripts/lib/fidelity-compare";
import { nodeFontSource } from "../../scripts/lib/node-font-source";
import { sourceToDocx, type SourceFormat } from "../../src/convert";
import { UrlBudget } from "../../src/input/safe-fetch";
import { renderDocxToPdf } from "../../src/render";
import { convertWithLibreOffice, libreOfficeAvailable, wordBoxes } from "./support/libreoffice";

const FIXTURES = new URL("../fixtures/convert/", import.meta.url).pathname;
const documents = ["md", "html"].flatMap((dir) =>
  readdirSync(join(FIXTURES, dir))
    .filter((f) => f.endsWith(`.${dir}`))
    .sort()
    .map((f) => ({ name: `${dir}/${f}`, format: dir as SourceFormat, path: join(FIXTURES, dir, f) })),
);

const available = await libreOfficeAvailable();
if (!available) {
  if (process.env.CI) throw new Error("soffice and poppler-utils are missing in CI: .ci/run installs them");
  console.warn(
    "SKIPPED convert fidelity: soffice or poppler-utils is not installed (apt-get install -y libreoffice-writer-nogui poppler-utils)",
  );
}
const loDescribe = available ? describe : describe.skip;

const offline = (async () => {
  throw new TypeError("the fidelity check does not fetch pictures");
}) as unknown as typeof fetch;

const results: DocResult[] = [];

loDescribe("Markdown and HTML converted to DOCX: LibreOffice's PDF against Signet's", () => {
  it("has at least 20 documents of both kinds", () => {
    expect(documents.length).toBeGreaterThanOrEqual(20);
    expect(documents.filter((d) => d.format === "md").length).toBeGreaterThanOrEqual(5);
    expect(documents.filter((d) => d.format === "html").length).toBeGreaterThanOrEqual(5);
  });

  for (const doc of documents) {
    it(`${doc.name}: LibreOffice opens the DOCX and Signet draws its words where LibreOffice does`, async () => {
      const { docx } = await sourceToDocx(doc.format, readFileSync(doc.path, "utf8"), {
        allowPrivateUrls: false,
        maxImageBytes: 5 * 1024 * 1024,
        timeoutMs: 1000,
        urlBudget: new UrlBudget(),
        fetch: offline,
      });
      const [reference, ours] = await Promise.all([
        convertWithLibreOffice(docx),
        renderDocxToPdf(docx, { fonts: nodeFontSource() }),
      ]);
      const cmp = compareWords(await wordBoxes(reference), await wordBoxes(ours));
      results.push({ name: doc.name, cmp });
      // Every word LibreOffice prints is in Signet's PDF (pages may differ; the set figure is below).
      expect(cmp.words, "LibreOffice printed no words").toBeGreaterThan(0);
      expect(cmp.recalled / cmp.words).toBeGreaterThan(0.95);
    }, 240_000);
  }

  it(`places at least 95 % of all words within ${POSITION_TOLERANCE_PT} pt of LibreOffice's`, () => {
    const t = totals(results);
    expect(t.measured).toBe(documents.length);
    expect(t.placedShare).toBeGreaterThanOrEqual(0.95);
  });
});

afterAll(() => {
  if (!results.length) return;
  const t = totals(results);
  const lines = results.map(
    (d) =>
      `  ${d.name.padEnd(38)} ${(100 * docPlaced(d)).toFixed(1).padStart(5)} %  pages ${d.cmp?.pagesOurs}/${d.cmp?.pagesReference}  words ${d.cmp?.words}`,
  );
  console.log(
    `convert fidelity: ${(100 * t.placedShare).toFixed(1)} % of ${results.reduce((n, d) => n + (d.cmp?.words ?? 0), 0)} words within ${POSITION_TOLERANCE_PT} pt, equal pages ${t.equalPageCount}/${t.measured}\n${lines.join("\n")}`,
  );
});
