/**
 * Painting inside workerd: a hand-made laid-out document (fonts from the static-assets binding)
 * becomes a PDF with the same bytes every time, whose pages, fonts and link pdf-lib reads back.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PDFDict, PDFDocument, PDFName } from "pdf-lib";
import { assetFontSource } from "../fonts/asset-source";
import { faceFromBytes } from "../fonts/font-face";
import type { LaidOutDocument } from "../layout/types";
import type { DocumentModel } from "../model/types";
import { paintDocument } from "./paint-document";

const source = assetFontSource(env.ASSETS as Fetcher);

async function face(file: string) {
  return faceFromBytes(file, (await source.load(file))!);
}

const emptyModel: DocumentModel = {
  sections: [],
  headerFooters: new Map(),
  notes: new Map(),
  images: new Map(),
  evenAndOddHeaders: false,
  defaultTabStop: 36,
  fontFamilies: new Set(),
  fontTable: new Map(),
};

async function document(): Promise<LaidOutDocument> {
  const regular = await face("Carlito-Regular.ttf");
  const bold = await face("Tinos-Bold.ttf");
  const hebrew = await face("NotoSansHebrew-Regular.ttf");
  return {
    title: "Deterministic",
    pages: [
      {
        width: 595.3,
        height: 841.9,
        items: [
          { kind: "rect", x: 72, y: 60, width: 100, height: 20, fill: "DDEEFF" },
          {
            kind: "text",
            x: 72,
            y: 80,
            text: "Hello from workerd",
            face: regular,
            size: 11,
            color: null,
            width: regular.widthOf("Hello from workerd", 11),
          },
          {
            kind: "text",
            x: 72,
            y: 100,
            text: "Spaced and squeezed",
            face: bold,
            size: 14,
            color: "C00000",
            charSpacing: 1.5,
            scale: 80,
            width: 120,
          },
          {
            kind: "text",
            x: 72,
            y: 120,
            text: "שלום",
            face: hebrew,
            size: 12,
            color: null,
            width: hebrew.widthOf("שלום", 12),
          },
          { kind: "line", x1: 72, y1: 82, x2: 160, y2: 82, width: 0.5, color: null, style: "double" },
          { kind: "link", x: 72, y: 70, width: 90, height: 12, uri: "https://example.org/" },
        ],
      },
      {
        width: 595.3,
        height: 841.9,
        items: [{ kind: "text", x: 72, y: 80, text: "Page two", face: regular, size: 11, color: null, width: 40 }],
      },
    ],
  };
}

describe("paintDocument in workerd", () => {
  it("paints the same document to the same bytes twice", async () => {
    const first = await paintDocument(await document(), emptyModel);
    const second = await paintDocument(await document(), emptyModel);
    expect(first.byteLength).toBeGreaterThan(1000);
    expect(first).toEqual(second);
  });

  it("writes pages, one subset font per face, a link and the title", async () => {
    const pdf = await PDFDocument.load(await paintDocument(await document(), emptyModel), { updateMetadata: false });
    expect(pdf.getPageCount()).toBe(2);
    expect(pdf.getTitle()).toBe("Deterministic");
    expect(pdf.getProducer()).toBe("Signet");
    expect(pdf.getCreationDate()).toBeUndefined();
    const fonts = pdf.getPage(0).node.Resources()!.lookup(PDFName.of("Font"), PDFDict);
    const baseFonts = fonts.keys().map((k) => String(fonts.lookup(k, PDFDict).get(PDFName.of("BaseFont"))));
    expect(baseFonts).toEqual(["/AAAAAA+Carlito-Regular", "/AAAAAB+Tinos-Bold", "/AAAAAC+NotoSansHebrew-Regular"]);
    expect(pdf.getPage(0).node.Annots()?.size()).toBe(1);
    // Page two reuses the embedded Carlito (same object), under its own resource name.
    const fonts2 = pdf.getPage(1).node.Resources()!.lookup(PDFName.of("Font"), PDFDict);
    expect(fonts2.get(PDFName.of("F1"))).toBe(fonts.get(PDFName.of("F1")));
  });

  it("an empty layout still gives a valid one-page PDF", async () => {
    const pdf = await PDFDocument.load(await paintDocument({ pages: [] }, emptyModel));
    expect(pdf.getPageCount()).toBe(1);
  });
});
