/**
 * Equations (OMML) against LibreOffice: a display fraction and an inline superscript built with the
 * DOCX builder are converted by LibreOffice (our substitute fonts) and rendered by Signet; each
 * equation word must sit where LibreOffice puts it (word box centres within a few points: math is
 * set best effort). The corpus file with twelve equations keeps every symbol, subscripts and
 * matrix entries included, in LibreOffice's reading order.
 */
import { existsSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { buildDocx, p, r } from "../support/docx-builder";
import { convertWithLibreOffice, libreOfficeAvailable, pdfText, wordBoxes, type Word } from "./support/libreoffice";
import { renderDocxToPdf } from "../../src/render/index";
import { nodeFontSource } from "../../scripts/lib/node-font-source";

const M = `xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"`;
const mr = (t: string) => `<m:r><m:t>${t}</m:t></m:r>`;
/** Tolerance for equation words (pt): layout is best effort, not LibreOffice Math's exact rules. */
const TOLERANCE = 2.5;

const run12 = { sizePt: 12, font: "Times New Roman" };
const base = { spacing: { after: 0, line: 240, lineRule: "auto" as const }, run: run12 };
const FRACTION = `<m:oMathPara ${M}><m:oMath><m:f><m:num>${mr("a")}</m:num><m:den>${mr("b")}${mr("+")}${mr("c")}</m:den></m:f></m:oMath></m:oMathPara>`;
const SUPERSCRIPT = `<m:oMath ${M}>${mr("E")}${mr("=")}${mr("m")}<m:sSup><m:e>${mr("c")}</m:e><m:sup>${mr("2")}</m:sup></m:sSup></m:oMath>`;
const DOCX = buildDocx({
  body: [
    p("Before the fraction", base),
    p([FRACTION], base),
    p("After the fraction", base),
    p([r("Energy is ", run12), SUPERSCRIPT, r(" in short.", run12)], base),
  ].join(""),
});

const haveLibreOffice = await libreOfficeAvailable();
if (!haveLibreOffice && process.env.CI)
  throw new Error("LibreOffice missing in CI: .ci/run installs libreoffice-writer-nogui");

const centre = (w: Word) => ({ x: (w.xMin + w.xMax) / 2, y: (w.yMin + w.yMax) / 2 });

describe.skipIf(!haveLibreOffice)("equations against LibreOffice", () => {
  let lo: Word[] = [];
  let ours: Word[] = [];
  beforeAll(async () => {
    const [loPdf, ourPdf] = await Promise.all([
      convertWithLibreOffice(DOCX),
      renderDocxToPdf(DOCX, { fonts: nodeFontSource() }),
    ]);
    lo = (await wordBoxes(loPdf))[0]!.words;
    ours = (await wordBoxes(ourPdf))[0]!.words;
  }, 180_000);

  const find = (words: Word[], text: string) => {
    const w = words.find((x) => x.text === text);
    if (!w) throw new Error(`no word "${text}" in ${words.map((x) => x.text).join(" ")}`);
    return w;
  };

  it("stacks the fraction's numerator over its denominator where LibreOffice does, centred on the line", () => {
    for (const word of ["a", "Before", "After"]) {
      const l = centre(find(lo, word));
      const o = centre(find(ours, word));
      expect(Math.abs(o.x - l.x), `${word} x`).toBeLessThan(TOLERANCE);
      expect(Math.abs(o.y - l.y), `${word} y`).toBeLessThan(TOLERANCE);
    }
    // The denominator "b+c" (one word or three) sits below the numerator, centred under it.
    const num = find(ours, "a");
    const b = ours.find((w) => w.text.startsWith("b"))!;
    const den = ours.filter((w) => Math.abs(w.yMin - b.yMin) < 0.5 && w.xMin >= b.xMin && w.xMin < b.xMin + 30);
    const denLeft = Math.min(...den.map((w) => w.xMin));
    const denRight = Math.max(...den.map((w) => w.xMax));
    expect(den.map((w) => w.text).join("")).toBe("b+c");
    expect(b.yMin).toBeGreaterThan(num.yMax - 1);
    expect(Math.abs((denLeft + denRight) / 2 - centre(num).x)).toBeLessThan(TOLERANCE);
    const loDen = find(lo, "b+c");
    expect(Math.abs(centre(b).y - centre(loDen).y)).toBeLessThan(TOLERANCE);
    expect(Math.abs(denLeft - loDen.xMin)).toBeLessThan(TOLERANCE);
  });

  it("raises the superscript by LibreOffice's amount, smaller than the base, inside the text line", () => {
    const loTwo = find(lo, "2");
    const ourTwo = find(ours, "2");
    expect(Math.abs(centre(ourTwo).x - centre(loTwo).x)).toBeLessThan(TOLERANCE);
    expect(Math.abs(centre(ourTwo).y - centre(loTwo).y)).toBeLessThan(TOLERANCE);
    const ourShort = find(ours, "short.");
    expect(Math.abs(centre(ourShort).x - centre(find(lo, "short.")).x)).toBeLessThan(TOLERANCE);
    // Smaller than the text around it and above its middle.
    expect(ourTwo.yMax - ourTwo.yMin).toBeLessThan((ourShort.yMax - ourShort.yMin) * 0.75);
    expect(centre(ourTwo).y).toBeLessThan(centre(ourShort).y);
  });
});

const STRESS007 = new URL("../../../shared/corpus/docx/poi__stress007.docx", import.meta.url).pathname;

describe.skipIf(!existsSync(STRESS007))("equations of the corpus", () => {
  it("keeps every equation symbol of poi__stress007 in reading order", async () => {
    const pdf = await renderDocxToPdf(new Uint8Array(readFileSync(STRESS007)), { fonts: nodeFontSource() });
    const text = (await pdfText(pdf)).replace(/\s+/g, "");
    // The display equation, an inline one in its sentence, and the 3 x 3 matrix in LibreOffice's
    // reading order (pdftotext of LibreOffice's PDF reads the same after the first entry).
    expect(text).toContain("Ytij=β0+βtxt+βix0ij+βjzj+vj+Uti");
    expect(text).toContain("βtxtdeviation(βt)fromintercept");
    expect(text).toContain("σ2006,2007σ2006,2008σ2006,2007σ2006,2008σ2007σ2007,2008σ2007,2008σ2008");
    expect(text.match(/σ/g)).toHaveLength(9);
  });
});
