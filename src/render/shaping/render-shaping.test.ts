/**
 * A DOCX rendered inside workerd is drawn with HarfBuzz's glyphs: the renderer (fonts from the
 * static-assets binding, harfbuzz.wasm imported as the worker bundles it) against the glyphs the
 * same shaper gives for the same font files. The PDF is read back with pdf-lib: each font's
 * ToUnicode map and the glyph ids its page draws.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, decodePDFRawStream } from "pdf-lib";
import devanagari from "../../../node_modules/@expo-google-fonts/noto-sans-devanagari/400Regular/NotoSansDevanagari_400Regular.ttf";
import { assetFontSource } from "../fonts/asset-source";
import { renderDocxToPdf } from "../render-docx";
import { buildDocx, p, r } from "../../../test/support/docx-builder";
import { workerShaper } from "./worker-module";

const source = assetFontSource(env.ASSETS as Fetcher);
const DEVANAGARI = new Uint8Array(devanagari);

const DOC = buildDocx({
  body:
    p(r("office", { font: "Calibri" })) +
    p(r("بيت", { font: "Calibri", rtl: true }), { bidi: true }) +
    // Noto Sans Devanagari travels in the document (an embedded font, as LibreOffice uses one).
    p(r("किताब", { font: "Noto Sans Devanagari" })),
  embeddedFonts: [
    {
      family: "Noto Sans Devanagari",
      style: "Regular",
      bytes: DEVANAGARI,
      fontKey: "{6C9E2D3A-1B4F-4E8A-9C7D-0A1B2C3D4E5F}",
    },
  ],
});

/** Per font of page 1 (by BaseFont, subset tag dropped): the glyph ids of each string it shows, and what ToUnicode reads for them. */
async function drawn(pdf: Uint8Array): Promise<Map<string, { cids: number[]; text: string }[]>> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const page = doc.getPage(0).node;
  const fonts = page.Resources()!.lookup(PDFName.of("Font"), PDFDict);
  const toUnicode = new Map<string, { name: string; map: Map<number, string> }>();
  for (const key of fonts.keys()) {
    const font = fonts.lookup(key, PDFDict);
    const name = String(font.get(PDFName.of("BaseFont"))).replace(/^\/[A-Z]{6}\+/, "");
    const cmap = new TextDecoder().decode(
      decodePDFRawStream(doc.context.lookup(font.get(PDFName.of("ToUnicode"))) as PDFRawStream).decode(),
    );
    const map = new Map<number, string>();
    for (const m of cmap.matchAll(/<([0-9a-f]{4})> <([0-9a-f]*)>/g)) {
      const units = m[2]!.match(/.{4}/g) ?? [];
      map.set(parseInt(m[1]!, 16), String.fromCharCode(...units.map((u) => parseInt(u, 16))));
    }
    toUnicode.set(key.asString().slice(1), { name, map });
  }
  const contents = page.get(PDFName.of("Contents"));
  const stream = (contents instanceof PDFRef ? doc.context.lookup(contents) : contents) as PDFRawStream;
  const ops = new TextDecoder().decode(decodePDFRawStream(stream).decode());
  const out = new Map<string, { cids: number[]; text: string }[]>();
  let font = "";
  for (const m of ops.matchAll(/\/(F\d+) [\d.]+ Tf|(<[0-9a-f]*>) Tj|\[([^\]]*)\] TJ/g)) {
    if (m[1]) {
      font = m[1];
      continue;
    }
    const cids = [...(m[2] ?? m[3]!).matchAll(/<([0-9a-f]*)>/g)].flatMap((h) =>
      (h[1]!.match(/.{4}/g) ?? []).map((g) => parseInt(g, 16)),
    );
    const { name, map } = toUnicode.get(font)!;
    const list = out.get(name) ?? [];
    list.push({ cids, text: cids.map((c) => map.get(c) ?? "").join("") });
    out.set(name, list);
  }
  return out;
}

describe("shaping in the worker's renderer", () => {
  it("draws HarfBuzz's glyphs (the ffi ligature, Arabic joined forms, Devanagari reordered) and copies as typed", async () => {
    const shaper = await workerShaper();
    const shapedIds = (bytes: Uint8Array, text: string, rtl = false) => {
      const face = shaper.face(bytes);
      try {
        return Array.from(face.shape(text, rtl ? { direction: "rtl" } : {}).glyphs);
      } finally {
        face.destroy();
      }
    };
    const carlito = (await source.load("Carlito-Regular.ttf"))!;
    const dejaVu = (await source.load("DejaVuSans-Regular.ttf"))!;
    const page = await drawn(await renderDocxToPdf(DOC, { fonts: source }));

    // "office": four glyphs, the second the face's ffi ligature (its own glyph for U+FB03).
    const [office] = page.get("Carlito-Regular")!;
    expect(office!.cids).toEqual(shapedIds(carlito, "office"));
    expect(office!.cids).toHaveLength(4);
    expect(office!.cids[1]).toBe(shapedIds(carlito, "\ufb03")[0]);
    expect(office!.text).toBe("office");

    // "بيت" (Calibri has no Arabic: DejaVu Sans draws it): final teh, medial yeh, initial beh, left to
    // right; none is the letter's isolated glyph. Read back right to left, the word as typed.
    const [arabic] = page.get("DejaVuSans-Regular")!;
    expect(arabic!.cids).toEqual(shapedIds(dejaVu, "بيت", true));
    expect(arabic!.cids).not.toContain(shapedIds(dejaVu, "ب")[0]);
    expect(arabic!.cids).not.toContain(shapedIds(dejaVu, "ت")[0]);
    expect([...arabic!.text].reverse().join("")).toBe("بيت");

    // "किताब": the sign i (ि) is drawn before its consonant (क), as HarfBuzz reorders it; the
    // syllable copies as typed (its text on one glyph of the cluster).
    const [hindi] = page.get("NotoSansDevanagari-Regular")!;
    const ids = shapedIds(DEVANAGARI, "किताब");
    expect(hindi!.cids).toEqual(ids);
    expect(ids.indexOf(shapedIds(DEVANAGARI, "\u093f")[0]!)).toBeLessThan(ids.indexOf(shapedIds(DEVANAGARI, "क")[0]!));
    expect(hindi!.text).toBe("किताब");
  });
});
