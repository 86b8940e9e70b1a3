/**
 * Pictures a reader sees: GIF picture bullets and logos (converted to PNG) are in the PDF, sized
 * like LibreOffice's, and the file stays sound.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { renderDocxToPdf } from "../../src/render";
import { nodeFontSource } from "../../scripts/lib/node-font-source";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "signet-images-"));

describe("GIF pictures", () => {
  it("draws the GIF picture bullets of a list (one image, drawn at each item, as tall as the 9 pt text)", async () => {
    const docx = new Uint8Array(readFileSync("../shared/corpus/docx/openxmlsdk__bullet__bullet-picture.docx"));
    const file = join(dir, "bullets.pdf");
    writeFileSync(file, await renderDocxToPdf(docx, { fonts: nodeFontSource() }));
    const list = (await run("pdfimages", ["-list", file])).stdout.trim().split("\n").slice(2);
    const images = list.filter((l) => / image /.test(l));
    expect(images.length).toBeGreaterThanOrEqual(4);
    expect(new Set(images.map((l) => l.split(/\s+/)[11])).size).toBe(1); // one XObject, reused
    // Where it is drawn: the paint operator's matrix gives 9 x 9 pt.
    const { stdout } = await run("qpdf", ["--qdf", "--object-streams=disable", file, "-"], {
      encoding: "latin1",
      maxBuffer: 64 << 20,
    });
    expect(stdout.match(/\b9 0 0 9 [\d.]+ [\d.]+ cm \/\w+ Do/g)?.length).toBeGreaterThanOrEqual(4);
    expect((await run("qpdf", ["--check", file])).stdout).toContain("No syntax or stream encoding errors");
  });
});

describe("JPEG pictures", () => {
  it("draws a JPEG stored uncompressed in the package (the PIA template's cover logo)", async () => {
    // Such a picture's bytes are a view into the package; pdf-lib read them from the buffer's start
    // and the picture was left out ("SOI not found").
    const docx = new Uint8Array(readFileSync("../shared/corpus/docx/fedramp__SSP-A04-FedRAMP-PIA-Template.docx"));
    const file = join(dir, "pia.pdf");
    writeFileSync(file, await renderDocxToPdf(docx, { fonts: nodeFontSource() }));
    const list = (await run("pdfimages", ["-list", "-f", "1", "-l", "1", file])).stdout.trim().split("\n").slice(2);
    expect(list.some((l) => /\bimage\s+763\s+944\s+rgb\s+3\s+8\s+jpeg\b/.test(l))).toBe(true);
    expect((await run("qpdf", ["--check", file])).stdout).toContain("No syntax or stream encoding errors");
  });
});

describe("WMF pictures", () => {
  it("draws the text of form-control previews and of Equation Editor pictures", async () => {
    const text = async (name: string) => {
      const file = join(dir, `${name}.pdf`);
      writeFileSync(
        file,
        await renderDocxToPdf(new Uint8Array(readFileSync(`../shared/corpus/docx/${name}.docx`)), {
          fonts: nodeFontSource(),
        }),
      );
      expect((await run("qpdf", ["--check", file])).stdout).toContain("No syntax or stream encoding errors");
      return (await run("pdftotext", [file, "-"])).stdout;
    };
    // ActiveX controls' previews, as LibreOffice shows them.
    const forms = await text("docx4j__LegacyForms");
    for (const label of ["CheckBox1", "Label1", "OptionButton1"]) expect(forms).toContain(label);
    // Equation Editor 3.0 objects: their WMF previews' letters and Greek (Symbol font) come out.
    const equations = (await text("openxmlsdk__equation__equation-1")).replace(/\s+/g, "");
    expect(equations).toContain("diag(");
    expect(equations).toMatch(/[α-ω]/u);
  });
});
