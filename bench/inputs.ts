import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PDFDocument, PDFName, StandardFonts, rgb } from "pdf-lib";

/**
 * Benchmark inputs, generated once into bench/out/ (git-ignored): a 1-page
 * contract, a 200-page report and a ~24 MB scan-like file (incompressible
 * images), all with classic xref tables so @signpdf's plain placeholder can
 * handle them too.
 */
export const OUT = new URL("./out/", import.meta.url).pathname;

const LOREM =
  "This Agreement is entered into by the parties named below. Each party agrees to the terms set out in the schedules, " +
  "which form part of this Agreement. Payment is due within thirty days of the invoice date.";

async function textDocument(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`Page ${p + 1}`, { x: 50, y: 800, size: 16, font, color: rgb(0.1, 0.1, 0.3) });
    for (let line = 0; line < 40; line++) {
      page.drawText(LOREM.slice((line * 7) % 60, ((line * 7) % 60) + 90), {
        x: 50,
        y: 770 - line * 17,
        size: 10,
        font,
      });
    }
  }
  return doc.save({ useObjectStreams: false });
}

async function scannedDocument(targetBytes: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const side = 1000; // 1 MB grayscale image per page
  let seed = 12345;
  const pages = Math.floor(targetBytes / (side * side));
  for (let p = 0; p < pages; p++) {
    const pixels = new Uint8Array(side * side);
    for (let i = 0; i < pixels.length; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      pixels[i] = seed >>> 24;
    }
    const image = doc.context.stream(pixels, {
      Type: "XObject",
      Subtype: "Image",
      Width: side,
      Height: side,
      ColorSpace: "DeviceGray",
      BitsPerComponent: 8,
    });
    const ref = doc.context.register(image);
    const page = doc.addPage([595, 842]);
    const name = page.node.newXObject("Im", ref);
    const content = doc.context.stream(`q 495 0 0 742 50 50 cm ${name.asString()} Do Q`);
    page.node.set(PDFName.of("Contents"), doc.context.register(content));
  }
  return doc.save({ useObjectStreams: false });
}

export async function benchInputs(): Promise<{ name: string; bytes: Uint8Array }[]> {
  mkdirSync(OUT, { recursive: true });
  const specs: [string, () => Promise<Uint8Array>][] = [
    ["1-page.pdf", () => textDocument(1)],
    ["200-page.pdf", () => textDocument(200)],
    ["25mb.pdf", () => scannedDocument(24 * 1024 * 1024)],
  ];
  const out = [];
  for (const [name, make] of specs) {
    const file = join(OUT, name);
    if (!existsSync(file)) writeFileSync(file, await make());
    out.push({ name, bytes: new Uint8Array(readFileSync(file)) });
  }
  return out;
}

/** The sign request of the benchmarks: a signer, a 42-event audit trail, an eventId (so D1 and R2 both write) and metadata. */
export function signRequestFields(eventId: string) {
  return {
    signer: { name: "Ada Lovelace", email: "ada@example.com", ip: "203.0.113.7", userAgent: "bench" },
    auditTrail: [
      { type: "ready", timestamp: "2026-11-21T09:58:00Z" },
      ...Array.from({ length: 40 }, (_, i) => ({
        type: "field_change",
        timestamp: `2026-11-21T09:59:${String(i).padStart(2, "0")}Z`,
        data: { fieldId: "name", value: "Ada".slice(0, (i % 3) + 1) },
      })),
      { type: "submit", timestamp: "2026-11-21T10:00:00Z" },
    ],
    eventId,
    metadata: { bench: true },
  };
}

/** The same request as JSON with the document in base64 (the SuperDoc contract). */
export function signRequestJson(bytes: Uint8Array, eventId: string): string {
  return JSON.stringify({ document: { base64: Buffer.from(bytes).toString("base64") }, ...signRequestFields(eventId) });
}

/** The same request as multipart/form-data: the document as the part `file`, the rest as the JSON part `request`. */
export function signRequestMultipart(bytes: Uint8Array, eventId: string): FormData {
  const form = new FormData();
  form.append("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "application/pdf" }), "document.pdf");
  form.append("request", new Blob([JSON.stringify(signRequestFields(eventId))], { type: "application/json" }));
  return form;
}
