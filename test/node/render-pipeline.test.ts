/**
 * The whole renderer on real documents: every DOCX of the shared corpus goes through
 * renderDocxToPdf (parse → fonts → layout → paint) without an exception, into a PDF that
 * `qpdf --check` accepts and `pdftotext` reads, and the same input gives the same bytes twice.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { renderDocxToPdf } from "../../src/render/index";
import { nodeFontSource } from "../../scripts/lib/node-font-source";

const run = promisify(execFile);
const CORPUS = new URL("../../../shared/corpus/docx/", import.meta.url).pathname;
const files = existsSync(CORPUS)
  ? readdirSync(CORPUS)
      .filter((f) => f.endsWith(".docx"))
      .sort()
  : [];

function hasTool(cmd: string): boolean {
  return (process.env.PATH ?? "").split(":").some((d) => existsSync(join(d, cmd)));
}
const haveTools = hasTool("qpdf") && hasTool("pdftotext");
if (!haveTools) {
  if (process.env.CI) throw new Error("qpdf/pdftotext missing in CI: .ci/run installs qpdf and poppler-utils");
  console.warn(
    "SKIPPED render pipeline checks: qpdf or pdftotext is not installed (apt-get install -y qpdf poppler-utils)",
  );
}

const work = mkdtempSync(join(tmpdir(), "signet-render-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.skipIf(!haveTools)("renderDocxToPdf on the corpus", () => {
  it("finds the corpus", () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it.each(files)("%s renders to a valid, readable PDF, byte-identical when rendered again", async (file) => {
    const docx = new Uint8Array(readFileSync(join(CORPUS, file)));
    const pdf = await renderDocxToPdf(docx, { fonts: nodeFontSource() });
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe("%PDF-");

    const path = join(work, file.replace(/\.docx$/, ".pdf"));
    writeFileSync(path, pdf);
    // qpdf exits 0 (clean) or 3 (warnings only); errors exit 2 and reject here.
    const check = await run("qpdf", ["--check", path], { maxBuffer: 64 * 1024 * 1024 }).catch(
      (e: { code?: number; stdout?: string; stderr?: string }) => {
        if (e.code === 3) return { stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
        throw new Error(`qpdf --check failed for ${file}: ${e.stdout ?? ""}${e.stderr ?? ""}`);
      },
    );
    expect(check.stdout).toMatch(/No syntax or stream encoding errors found/);

    const { stdout: info } = await run("pdfinfo", [path]);
    expect(Number(/^Pages:\s+(\d+)/m.exec(info)?.[1])).toBeGreaterThanOrEqual(1);
    // pdftotext must read the text layer without an error (a document may hold no text at all).
    await run("pdftotext", [path, "-"], { maxBuffer: 64 * 1024 * 1024 });

    const again = await renderDocxToPdf(docx, { fonts: nodeFontSource() });
    expect(Buffer.compare(Buffer.from(again), Buffer.from(pdf))).toBe(0);
  });
});
