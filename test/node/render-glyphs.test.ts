/**
 * Every font Signet embeds must draw its glyphs: text that pdftotext can extract but that renders
 * blank is the worst failure a signed contract can have. Renders a document using each substitute
 * and fallback font, then asks MuPDF to rasterise it (it warns about every broken outline) and
 * checks the page really has ink where the text is.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { renderDocxToPdf } from "../../src/render";
import { subsetTrueType } from "../../src/pdf/font/truetype-subset";
import { nodeFontSource } from "../../scripts/lib/node-font-source";
import { buildDocx, p, r } from "../support/docx-builder";
import * as B2 from "../support/docx-builder";

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), "signet-glyphs-"));

const SAMPLES: [font: string, text: string][] = [
  ["Calibri", "Calibri body text: The quick brown fox 0123456789"],
  ["Cambria", "Cambria heading: Sphinx of black quartz"],
  ["Arial", "Arial: Pack my box with five dozen jugs"],
  ["Times New Roman", "Times New Roman: How vexingly quick daft zebras jump"],
  ["Courier New", "Courier New: monospace 1234"],
  ["Calibri", "Кириллица: Съешь же ещё этих мягких булок"],
  ["Calibri", "עברית: שלום עולם"],
  ["Calibri", "العربية: مرحبا بالعالم"],
  ["Calibri", "Boxes ☐ ☒ ☑ ✓ ✔"],
  // CJK through Droid Sans Fallback, whatever family the run names (SimSun, MS Mincho, Malgun Gothic).
  ["SimSun", "中文: 水仙为我国十大名花之一"],
  ["MS Mincho", "日本語: リーダーシップに係る発行"],
  ["Malgun Gothic", "한국어: 안녕하세요 세계"],
  ["Consolas", "Consolas: monospace 5678"],
];

describe("embedded fonts draw their glyphs", () => {
  it("MuPDF finds no broken outline and every line leaves ink", async () => {
    const body =
      SAMPLES.map(([font, text]) => p(r(text, { font, sizePt: 14 }))).join("") +
      p(r("Bold and italic", { b: true, i: true }));
    const pdf = await renderDocxToPdf(buildDocx({ body }), { fonts: nodeFontSource() });
    const file = join(work, "glyphs.pdf");
    writeFileSync(file, pdf);

    const mutool = await run("mutool", ["draw", "-q", "-r", "72", "-o", join(work, "page.pgm"), file, "1"]).catch(
      (e) => e,
    );
    const warnings = `${mutool.stdout ?? ""}${mutool.stderr ?? ""}`;
    expect(warnings).not.toMatch(/invalid outline|FT_Load_Glyph|cannot load/i);

    // Dark pixels per text line: the PGM rows between the words' boxes must not be blank.
    const { stdout } = await run("pdftotext", ["-bbox", file, "-"]);
    const words = [...stdout.matchAll(/yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)</g)].map((m) => ({
      y0: Number(m[1]),
      y1: Number(m[2]),
      w: m[3]!,
    }));
    // Reading order is pdftotext's job (bidi included); -bbox lists right-to-left words as drawn.
    const plain = (await run("pdftotext", [file, "-"])).stdout.replace(/\s+/g, " ");
    for (const [, text] of SAMPLES) for (const word of text.split(" ").slice(1)) expect(plain, text).toContain(word);
    const pgm = readFileSync(join(work, "page.pgm"));
    const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString("latin1"))!;
    const width = Number(header[1]);
    const data = pgm.subarray(header[0].length);
    for (const word of words) {
      let dark = 0;
      for (let y = Math.floor(word.y0); y < Math.ceil(word.y1); y++)
        for (let x = 0; x < width; x++) if (data[y * width + x]! < 128) dark++;
      expect(dark, `no ink on the line of "${word.w}"`).toBeGreaterThan(0);
    }
  });

  it("characters no font has keep their own text (copy, search) though drawn as missing glyphs", async () => {
    // Ethiopic is in none of our fonts. Each character still needs its own code in the PDF: sharing
    // .notdef's would make a search or copy read "ሰሰሰ".
    const body = p(r("Amharic: ሰላም ዓለም and 水仙花", { font: "Calibri", sizePt: 12 }));
    const file = join(work, "missing.pdf");
    writeFileSync(file, await renderDocxToPdf(buildDocx({ body }), { fonts: nodeFontSource() }));
    const plain = (await run("pdftotext", [file, "-"])).stdout.replace(/\s+/g, " ");
    expect(plain).toContain("Amharic: ሰላም ዓለም and 水仙花");
    const check = await run("qpdf", ["--check", file]).catch((e) => e);
    expect(check.stdout).toContain("No syntax or stream encoding errors");
  });

  it("the subset keeps the outlines asked for (and composite parts), drops the rest, and is a valid font file", () => {
    const file = join(process.cwd(), "node_modules/@expo-google-fonts/carlito/400Regular/Carlito_400Regular.ttf");
    const full = new Uint8Array(readFileSync(file));
    const subset = subsetTrueType(full, [36, 37, 38]);
    expect(subset.length).toBeLessThan(full.length / 5);
    // The whole-file checksum of a valid font sums to 0xB1B0AFBA.
    let sum = 0;
    for (let i = 0; i < subset.length; i += 4)
      sum = (sum + new DataView(subset.buffer, subset.byteOffset).getUint32(i)) >>> 0;
    expect(sum).toBe(0xb1b0afba);
  });
});

describe("mirrored brackets in right-to-left text", () => {
  it("are drawn mirrored yet copy as the brackets typed", async () => {
    const body = B2.p("{#תלמידים} (שלום)", { bidi: true, run: { font: "Arial", sizePt: 12, rtl: true } });
    const file = join(work, "mirrored.pdf");
    writeFileSync(file, await renderDocxToPdf(buildDocx({ body }), { fonts: nodeFontSource() }));
    // pdftotext gives the logical text of a right-to-left line: the typed brackets, each where it was typed.
    const plain = (await run("pdftotext", [file, "-"])).stdout.replace(/[\u202a-\u202e]/g, "");
    expect(plain).toContain("{#תלמידים}");
    expect(plain).toContain("(שלום)");
  });
});

describe("zero-width non-joiners in Persian", () => {
  it("draw nothing and take no room, yet copy with the word ('می‌خواهم', not 'میخواهم')", async () => {
    const file = join(work, "zwnj.pdf");
    const word = "می\u200cخواهم";
    writeFileSync(
      file,
      await renderDocxToPdf(
        buildDocx({ body: B2.p(`${word} کتاب`, { bidi: true, run: { font: "Arial", sizePt: 14, rtl: true } }) }),
        { fonts: nodeFontSource() },
      ),
    );
    const plain = (await run("pdftotext", [file, "-"])).stdout.replace(/[\u202a-\u202e]/g, "");
    expect(plain).toContain(word);
    const drawn = await run("mutool", ["draw", "-q", "-o", join(work, "zwnj.png"), "-r", "36", file]).catch((e) => e);
    expect(`${drawn.stderr ?? ""}`).not.toMatch(/error/i);
  });
});
