/**
 * How the certificate page is drawn. pdfme runs the template (pages, schema positions, plugin order)
 * and draws the shapes (rectangles, rules) with its own plugins; our two plugins write into a layer
 * per page, drawn over pdfme's content, as plain content-stream operators:
 *
 * - text the page has already fitted (certificate-page.ts wraps and truncates every string with our
 *   own metrics), as glyph ids of the page's fonts: nothing measured, wrapped or embedded per call.
 *   Boxes are placed exactly as pdfme's own text plugin places them (same mm→pt factor, first
 *   baseline at the ascender plus half the extra line pitch below the box top, alignment by width);
 * - the QR code (our encoder, qr.ts) as one filled path of one rectangle per horizontal run of dark
 *   modules, its 4-module quiet zone inside the (square) box left unpainted.
 *
 * `pagesOf` then takes pdfme's pages as they are (no save-and-reload), with the fonts of page-fonts.ts.
 */
import { mm2pt, type Plugin, type Schema } from "@pdfme/common";
import type { PDFDocument, PDFPage } from "@pdfme/pdf-lib";
import { zlibSync } from "fflate";
import { streamBody, type AppendablePages } from "../pdf/writer/appendable-pages";
import { latin1Bytes } from "../util/bytes";
import { encodeGlyphs, type PageFont } from "./page-fonts";
import { encodeQr } from "./qr";

export const TEXT_SCHEMA_TYPE = "signetText";
export const QR_SCHEMA_TYPE = "signetQr";
export const QR_QUIET_ZONE = 4;

interface TextSchema extends Schema {
  fontName: string;
  fontSize: number;
  fontColor: string;
  lineHeight: number;
  alignment?: "left" | "right" | "center";
}

/** One render's layers: created per certificate, its plugins given to that render's `generate` call. */
export class PageLayers {
  private readonly layers = new Map<PDFPage, string[]>();
  /** Per font (resource name): glyph id → the text it draws. */
  private readonly used = new Map<string, Map<number, string>>();
  private doc: PDFDocument | null = null;
  private pdfLib: PdfLibNames | null = null;

  /** `fonts` by the schemas' fontName, which is also the font's resource name on the page. */
  constructor(private readonly fonts: Readonly<Record<string, PageFont>>) {}

  readonly textPlugin: Plugin = this.plugin(TEXT_SCHEMA_TYPE, (value, schema, layer, page) =>
    this.drawText(value, schema as TextSchema, layer, page),
  );
  /** Schema `{ type: "signetQr", position, width, height, color? }`, the value is the payload. */
  readonly qrPlugin: Plugin = this.plugin(QR_SCHEMA_TYPE, (value, schema, layer, page) =>
    drawQr(value, schema, layer, page),
  );

  private plugin(type: string, draw: (value: string, schema: Schema, layer: string[], page: PDFPage) => void): Plugin {
    return {
      pdf: (arg) => {
        this.doc = arg.pdfDoc;
        this.pdfLib = arg.pdfLib;
        if (!arg.value) return;
        let layer = this.layers.get(arg.page);
        if (!layer) this.layers.set(arg.page, (layer = []));
        draw(arg.value, arg.schema, layer, arg.page);
      },
      ui() {
        // Server-side only: the generator never calls it.
      },
      propPanel: { schema: {}, defaultSchema: { name: "", type, position: { x: 0, y: 0 }, width: 10, height: 10 } },
    };
  }

  private drawText(value: string, schema: TextSchema, layer: string[], page: PDFPage): void {
    const font = this.fonts[schema.fontName];
    if (!font) throw new Error(`certificate page: no font ${schema.fontName}`);
    let used = this.used.get(schema.fontName);
    if (!used) this.used.set(schema.fontName, (used = new Map()));

    const m = font.metrics;
    const size = schema.fontSize;
    const pitch = schema.lineHeight * size;
    const top = page.getHeight() - mm2pt(schema.position.y);
    const left = mm2pt(schema.position.x);
    const boxWidth = mm2pt(schema.width);
    const firstBaseline = top - ((m.ascender / m.unitsPerEm) * size + ((schema.lineHeight - 1) * size) / 2);
    layer.push(`BT /${schema.fontName} ${num(size)} Tf ${rgb(schema.fontColor)} rg`);
    value.split("\n").forEach((line, i) => {
      if (!line) return;
      let x = left;
      if (schema.alignment === "right") x += boxWidth - m.widthOf(line, size);
      else if (schema.alignment === "center") x += (boxWidth - m.widthOf(line, size)) / 2;
      layer.push(`1 0 0 1 ${num(x)} ${num(firstBaseline - pitch * i)} Tm <${encodeGlyphs(font, line, used)}> Tj`);
    });
    layer.push("ET");
  }

  /** The rendered pages with their text layers, as objects to write into a PDF. */
  pagesOf(): AppendablePages {
    const { doc, pdfLib } = this;
    if (!doc || !pdfLib) throw new Error("certificate page: no text was drawn");
    const objects: AppendablePages["objects"] = [];
    const fontIndex = new Map<string, number>();
    for (const [name, used] of this.used) fontIndex.set(name, this.fonts[name]!.write(used, objects));

    const pages = doc.getPages().map((page) => {
      const contents: number[] = [];
      for (const stream of pdfmeContentStreams(page, pdfLib)) {
        const data = stream.getContents();
        const flate = stream.dict.get(pdfLib.PDFName.of("Filter")) === pdfLib.PDFName.of("FlateDecode");
        objects.push(() => streamBody(flate ? " /Filter /FlateDecode" : "", data));
        contents.push(objects.length - 1);
      }
      const layer = this.layers.get(page);
      if (layer) {
        const data = zlibSync(latin1Bytes(layer.join("\n")), { level: 1 });
        objects.push(() => streamBody(" /Filter /FlateDecode", data));
        contents.push(objects.length - 1);
      }
      // Resources: pdfme's own (graphics states of its shapes: direct values only) and our fonts.
      const other: string[] = [];
      for (const [key, value] of page.node.Resources()?.entries() ?? []) {
        if (key === pdfLib.PDFName.of("Font")) continue;
        if (refersElsewhere(value, pdfLib))
          throw new Error("certificate page: pdfme's resources refer to other objects");
        other.push(`${key.toString()} ${value.toString()}`);
      }
      const fonts = [...fontIndex];
      objects.push((ref) =>
        latin1Bytes(`<<${other.join(" ")} /Font <<${fonts.map(([name, k]) => `/${name} ${ref(k)}`).join(" ")}>>>>`),
      );
      const { width, height } = page.getSize();
      return { mediaBox: [0, 0, round(width), round(height)] as const, contents, resources: objects.length - 1 };
    });
    return { objects, pages };
  }
}

/** The pdf-lib names `pagesOf` compares with: pdfme's copy of pdf-lib (plugins receive it as `pdfLib`). */
export type PdfLibNames = Pick<typeof import("@pdfme/pdf-lib"), "PDFName" | "PDFArray" | "PDFDict" | "PDFRef">;

function refersElsewhere(value: unknown, pdfLib: PdfLibNames): boolean {
  if (value instanceof pdfLib.PDFRef) return true;
  if (value instanceof pdfLib.PDFArray) return value.asArray().some((v) => refersElsewhere(v, pdfLib));
  if (value instanceof pdfLib.PDFDict) return [...value.values()].some((v) => refersElsewhere(v, pdfLib));
  return false;
}

interface EncodedStream {
  dict: { get(key: unknown): unknown };
  getContents(): Uint8Array;
}

/** pdfme's content streams of a page, as encoded when pdfme saved its document. */
function pdfmeContentStreams(page: PDFPage, pdfLib: PdfLibNames): EncodedStream[] {
  const contents = page.node.get(pdfLib.PDFName.of("Contents"));
  const refs = contents instanceof pdfLib.PDFArray ? contents.asArray() : contents ? [contents] : [];
  return refs.map((r) => (r instanceof pdfLib.PDFRef ? page.doc.context.lookup(r) : r) as unknown as EncodedStream);
}

function drawQr(value: string, schema: Schema, layer: string[], page: PDFPage): void {
  const { modules, size } = encodeQr(value);
  const modulePt = Math.min(mm2pt(schema.width), mm2pt(schema.height)) / (size + 2 * QR_QUIET_ZONE);
  const left = mm2pt(schema.position.x) + QR_QUIET_ZONE * modulePt;
  const top = page.getHeight() - mm2pt(schema.position.y) - QR_QUIET_ZONE * modulePt;
  const ops = [`q ${rgb(typeof schema.color === "string" ? schema.color : "#000000")} rg`];
  for (let y = 0; y < size; y++) {
    const row = modules[y]!;
    for (let x = 0; x < size;) {
      if (!row[x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < size && row[x]) x++;
      ops.push(
        `${num(left + start * modulePt)} ${num(top - (y + 1) * modulePt)} ${num((x - start) * modulePt)} ${num(modulePt)} re`,
      );
    }
  }
  ops.push("f Q");
  layer.push(ops.join("\n"));
}

function num(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(3).replace(/0+$/, "").replace(/\.$/, "");
}

const round = (n: number) => Math.round(n * 1000) / 1000;

function rgb(hex: string): string {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  const [r, g, b] = m ? [m[1]!, m[2]!, m[3]!].map((c) => parseInt(c, 16) / 255) : [0, 0, 0];
  return `${num(r!)} ${num(g!)} ${num(b!)}`;
}
