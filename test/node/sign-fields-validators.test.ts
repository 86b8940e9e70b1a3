/**
 * Prepared fields and visible signatures, checked by tools we did not write, through wrangler dev:
 * pdfsig lists the document's own field signed (no second field), pdfsig, mutool sign -v, qpdf
 * and openssl accept visible signatures, pdftotext -bbox finds the drawn text where the request
 * put it, pdftoppm shows ink there and nowhere else, and after another tool's signature a
 * visible countersignature stays at most FORM_FILLING in the model of pyHanko's rules.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drawnSignaturePng, pngDataUri } from "../support/signature-png";
import { devSecrets, startService, type RunningService } from "./support/service";
import { expectAcceptedBy, nssDbTrusting, parsePdfsig, tool } from "./support/validators";
import { modelLevel, revisionEnds } from "./support/whitelist-model";

const CORPUS = new URL("../../../shared/corpus/", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "signet-fields-"));

let svc: RunningService;
let trust: { nssdb: string; caFile: string };
beforeAll(async () => {
  svc = await startService();
  trust = { nssdb: await nssDbTrusting(devSecrets().caPem), caFile: join(work, "ca.pem") };
  writeFileSync(trust.caFile, devSecrets().caPem);
}, 180_000);
afterAll(async () => svc?.stop());

async function sign(input: string, signature?: Record<string, unknown>): Promise<{ file: string; body: any }> {
  const res = await fetch(`${svc.baseUrl}/v1/sign`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${svc.apiKey}` },
    body: JSON.stringify({
      document: { base64: readFileSync(input).toString("base64") },
      signer: { name: "Ada Lovelace", email: "ada@example.com" },
      auditTrail: [{ type: "submit", timestamp: "2026-11-27T10:00:00Z" }],
      ...(signature ? { signature } : {}),
    }),
  });
  const body = (await res.json()) as any;
  if (res.status !== 200) throw new Error(`sign ${res.status}: ${JSON.stringify(body)}`);
  const file = join(
    work,
    `${input
      .split("/")
      .pop()!
      .replace(/\.pdf$/, "")}.${Object.keys(signature ?? {}).join("-") || "plain"}.signed.pdf`,
  );
  writeFileSync(file, Buffer.from(body.document.base64.split(",")[1], "base64"));
  return { file, body };
}

/** The grey pixels of page 1 at 72 dpi (one pixel per point), from pdftoppm's PGM. */
async function grey(file: string): Promise<{ width: number; height: number; pixels: Uint8Array }> {
  const base = join(work, `render-${Math.random().toString(36).slice(2)}`);
  await tool("pdftoppm", ["-f", "1", "-l", "1", "-r", "72", "-gray", file, base]);
  const pgm = readFileSync(`${base}-1.pgm`);
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString("latin1"))!;
  return { width: Number(header[1]), height: Number(header[2]), pixels: pgm.subarray(header[0].length) };
}

/** Where two renderings of page 1 differ, as a box in PDF points from the lower-left corner. */
async function changedBox(before: string, after: string) {
  const a = await grey(before);
  const b = await grey(after);
  expect([b.width, b.height]).toEqual([a.width, a.height]);
  let [x1, y1, x2, y2, n] = [Infinity, Infinity, -Infinity, -Infinity, 0];
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      if (Math.abs(a.pixels[y * a.width + x]! - b.pixels[y * a.width + x]!) < 16) continue;
      n++;
      [x1, x2] = [Math.min(x1, x), Math.max(x2, x + 1)];
      [y1, y2] = [Math.min(y1, a.height - y - 1), Math.max(y2, a.height - y)];
    }
  }
  return { x1, y1, x2, y2, changedPixels: n, pageHeight: a.height };
}

/** pdftotext -bbox words of page 1, in PDF points from the lower-left corner. */
async function words(file: string, pageHeight: number) {
  const { out } = await tool("pdftotext", ["-f", "1", "-l", "1", "-bbox", file, "-"]);
  return [
    ...out.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g),
  ].map((m) => ({
    text: m[5]!,
    x1: Number(m[1]),
    x2: Number(m[3]),
    y1: pageHeight - Number(m[4]),
    y2: pageHeight - Number(m[2]),
  }));
}

describe("the document's own signature field, signed in place", () => {
  for (const [name, field] of [
    ["dss__unsignedPDFWithSignatureFieldButInvisible.pdf", "Signature1"],
    ["pdfbox__form__AcroFormsBasicFields.pdf", "Signature"],
  ] as const) {
    it(`${name}: pdfsig lists one signature field, ${field}, signed and valid; mutool, qpdf and openssl accept it`, async () => {
      const input = join(CORPUS, "pdf-plain", name);
      expect(parsePdfsig((await tool("pdfsig", [input])).out)).toMatchObject([{ field, signed: false }]);
      const { file, body } = await sign(input);
      expect(body.signature.fieldName).toBe(field);
      const sigs = parsePdfsig((await tool("pdfsig", ["-nssdir", trust.nssdb, file])).out);
      expect(sigs).toHaveLength(1);
      expect(sigs[0]).toMatchObject({ field, signed: true, validation: "Signature is Valid." });
      await expectAcceptedBy(trust, file, 1, input);
    });
  }
});

describe("visible signatures", () => {
  it("a new field: validators accept it, the text is where the request put it, and only that box changes on the page", async () => {
    const input = join(CORPUS, "pdf-plain/pdf20examples__Simple_PDF_2.0_file.pdf");
    const place = { page: 1, x: 300, y: 100, width: 220, height: 70 };
    const { file } = await sign(input, {
      reason: "Contract approved",
      appearance: { ...place, image: pngDataUri(drawnSignaturePng()) },
    });
    await expectAcceptedBy(trust, file, 1, input);

    const box = await changedBox(input, file);
    expect(box.changedPixels).toBeGreaterThan(500);
    expect(box.x1).toBeGreaterThanOrEqual(place.x - 1);
    expect(box.x2).toBeLessThanOrEqual(place.x + place.width + 1);
    expect(box.y1).toBeGreaterThanOrEqual(place.y - 1);
    expect(box.y2).toBeLessThanOrEqual(place.y + place.height + 1);

    const drawn = (await words(file, box.pageHeight)).filter((w) =>
      ["Ada", "Lovelace", "Signed", "Reason:", "Contract", "approved"].includes(w.text),
    );
    expect(drawn.map((w) => w.text)).toEqual(["Ada", "Lovelace", "Signed", "Reason:", "Contract", "approved"]);
    for (const w of drawn) {
      expect(w.x1, w.text).toBeGreaterThanOrEqual(place.x);
      expect(w.x2, w.text).toBeLessThanOrEqual(place.x + place.width);
      expect(w.y1, w.text).toBeGreaterThanOrEqual(place.y);
      expect(w.y2, w.text).toBeLessThanOrEqual(place.y + place.height);
    }
    // The drawn image sits left of the text.
    expect(Math.min(...drawn.map((w) => w.x1))).toBeGreaterThan(place.x + place.width * 0.25);
    await tool("pdftoppm", ["-f", "1", "-l", "1", "-r", "100", "-png", file, join(work, "visible-new")]);
    console.info(`visible signature rendered: ${join(work, "visible-new-1.png")}`);
  });

  it("an existing field: drawn inside its widget's rectangle, validators accept it", async () => {
    const input = join(CORPUS, "pdf-plain/pdfbox__form__AcroFormsBasicFields.pdf");
    const { file } = await sign(input, { appearance: { image: pngDataUri(drawnSignaturePng()) } });
    await expectAcceptedBy(trust, file, 1, input);
    const box = await changedBox(input, file);
    // The field's widget: /Rect [48 496 144 528].
    expect([box.x1 >= 47, box.x2 <= 145, box.y1 >= 495, box.y2 <= 529]).toEqual([true, true, true, true]);
    expect(box.changedPixels).toBeGreaterThan(100);
  });

  it("after another tool's signature: every validator keeps it valid and the model of pyHanko's rules says FORM_FILLING at most", async () => {
    const input = join(CORPUS, "pdf-signed/endesive__pdf-acrobat.pdf");
    const before = parsePdfsig((await tool("pdfsig", ["-nocert", input])).out).filter((s) => s.signed);
    const { file } = await sign(input, { appearance: { page: 1, x: 72, y: 72, width: 200, height: 60 } });
    const after = parsePdfsig((await tool("pdfsig", ["-nocert", file])).out).filter((s) => s.signed);
    expect(after.slice(0, before.length).map((s) => s.validation)).toEqual(before.map((s) => s.validation));
    expect(after.at(-1)!.validation).toBe("Signature is Valid.");
    const mutool = (await tool("mutool", ["sign", "-v", file])).out.split(/^Verifying signature/m).slice(1);
    expect(mutool.at(-1)).toContain("The document is unchanged since signing.");
    expect(mutool[0]).toMatch(/The signature is valid but there have been edits since signing|unchanged/);

    const pdf = new Uint8Array(readFileSync(file));
    const text = Buffer.from(pdf).toString("latin1");
    const firstEnd = [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)].map(
      (m) => Number(m[3]) + Number(m[4]),
    )[0]!;
    const verdict = await modelLevel(pdf, firstEnd, revisionEnds(pdf));
    expect(["none", "lta", "form_filling"], verdict.reasons.join("; ")).toContain(verdict.level);
  }, 60_000);
});
