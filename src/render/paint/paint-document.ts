/**
 * Paints laid-out pages into a PDF with pdf-lib: text in subset-embedded fonts (with ToUnicode, so
 * it is selectable and searchable), rectangles, lines, PNG/JPEG images and URI links.
 *
 * Deterministic: no dates, no /ID, fixed producer, subset tags and resource names counted, not
 * random; the same laid-out document gives the same bytes.
 */
import { PDFDocument, PDFName, type PDFImage, type PDFPage } from "pdf-lib";
import { strToU8, zlibSync } from "fflate";
import type { Color, DocumentModel } from "../model/types";
import type { LaidOutDocument, PaintItem } from "../layout/types";
import { FontEmbedder } from "./embed-fonts";
import { addLink, linkTarget } from "./link-annotation";
import { embeddableImage } from "./image-check";
import { imageBudget } from "../budgets";
import type { ShapeFlags } from "../fonts/types";
import { hasRtl, visualSegments, type Segment } from "./bidi-runs";
import { ContentStreamBuilder, rgbOperands } from "./content-stream";

const LETTER = { width: 612, height: 792 };
const BLACK = "0 0 0";

/** `model`: only its images are read (the renderer passes just those, so the model can be collected while painting). */
export async function paintDocument(doc: LaidOutDocument, model: Pick<DocumentModel, "images">): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setProducer("Signet");
  if (doc.title?.trim()) pdf.setTitle(doc.title.trim(), { showInWindowTitleBar: true });

  const painter = new Painter(pdf, model);
  const pages = doc.pages.length ? doc.pages : [{ ...LETTER, items: [] }];
  for (const laid of pages) {
    const width = positive(laid.width) ? laid.width : LETTER.width;
    const height = positive(laid.height) ? laid.height : LETTER.height;
    const page = pdf.addPage([width, height]);
    await painter.paintPage(page, height, laid.items);
  }
  painter.finish();
  // objectsPerTick: pdf-lib otherwise waits a timer tick every 50 objects (idle time, no gain here).
  return pdf.save({ useObjectStreams: true, objectsPerTick: Number.POSITIVE_INFINITY });
}

class Painter {
  private readonly fonts: FontEmbedder;

  /** Writes the objects that depend on the whole document (font subsets). */
  finish(): void {
    this.fonts.finish();
  }
  /** Embedded image per image id; null when it is not drawable (other type, corrupt, too large). */
  private readonly images = new Map<string, Promise<PDFImage | null>>();
  /** Pixels decoded for this document's pictures. */
  private readonly imageBudget = imageBudget();

  constructor(
    private readonly pdf: PDFDocument,
    private readonly model: Pick<DocumentModel, "images">,
  ) {
    this.fonts = new FontEmbedder(pdf);
  }

  async paintPage(page: PDFPage, pageHeight: number, items: PaintItem[]): Promise<void> {
    // Resource names per page, counted in painting order: F1, F2 ... and Im1, Im2 ...
    const fontKeys = new Map<string, string>();
    const imageKeys = new Map<string, string>();
    const flipY = (y: number) => pageHeight - y;
    const content = new ContentStreamBuilder();

    for (const item of items) {
      if (!finiteItem(item)) continue;
      switch (item.kind) {
        case "text": {
          if (!item.text || !(item.size > 0)) break;
          const font = await this.fonts.font(item.face);
          let key = fontKeys.get(item.face.id);
          if (!key) {
            key = `F${fontKeys.size + 1}`;
            page.node.setFontDictionary(PDFName.of(key), font.ref);
            fontKeys.set(item.face.id, key);
          }
          const scale = item.scale !== undefined && item.scale > 0 ? item.scale : 100;
          content.textRun({
            font: key,
            size: item.size,
            fill: rgb(item.color) ?? BLACK,
            charSpacing: item.charSpacing ?? 0,
            scale,
          });
          // Logical order in, visual order out: right-to-left runs inside the item are drawn
          // reversed (see bidi-runs.ts); plain left-to-right text is one segment.
          const stretch = scale / 100;
          let x = item.x;
          const segs: Segment[] =
            item.rtl || hasRtl(item.text)
              ? visualSegments(item.text, item.rtl)
              : [{ text: item.text, rtl: false, typed: item.typed }];
          // A word going on across a run boundary or a kashida joins on its logically first and last
          // segments (segments come in visual order: a right-to-left item's first is the last).
          const first = item.rtl ? segs.length - 1 : 0;
          const last = item.rtl ? 0 : segs.length - 1;
          segs.forEach((seg, i) => {
            const flags: ShapeFlags = {};
            if (item.kern) flags.kern = true;
            if (item.joinBefore && i === first) flags.joinBefore = true;
            if (item.joinAfter && i === last) flags.joinAfter = true;
            content.show(x, flipY(item.y), font.show(seg.text, seg.rtl, item.size, flags, seg.typed));
            if (seg.zeroWidth || i === segs.length - 1) return;
            x +=
              (item.face.widthOf(seg.text, item.size, seg.rtl ? { ...flags, rtl: true } : flags) +
                (item.charSpacing ?? 0) * [...seg.text].length) *
              stretch;
          });
          break;
        }
        case "rect": {
          const c = rgb(item.fill);
          if (!c || !(item.width > 0) || !(item.height > 0)) break;
          content.rect(item.x, flipY(item.y + item.height), item.width, item.height, c);
          break;
        }
        case "line":
          drawStyledLine(content, item, flipY);
          break;
        case "polygon": {
          const c = rgb(item.fill);
          if (!c || !item.points.every(Number.isFinite)) break;
          content.polygon(
            item.points.map((v, i) => (i % 2 ? flipY(item.y + v) : item.x + v)),
            c,
          );
          break;
        }
        case "image": {
          if (!(item.width > 0) || !(item.height > 0)) break;
          const image = await this.image(item.image);
          if (!image) break;
          let key = imageKeys.get(item.image);
          if (!key) {
            key = `Im${imageKeys.size + 1}`;
            page.node.setXObject(PDFName.of(key), image.ref);
            imageKeys.set(item.image, key);
          }
          content.image(key, item.x, flipY(item.y + item.height), item.width, item.height);
          break;
        }
        case "link": {
          const uri = linkTarget(item.uri);
          if (!uri || !(item.width > 0) || !(item.height > 0)) break;
          addLink(this.pdf, page, [item.x, flipY(item.y + item.height), item.x + item.width, flipY(item.y)], uri);
          break;
        }
      }
    }
    const ctx = this.pdf.context;
    const stream = ctx.stream(zlibSync(strToU8(content.toString()), { level: 6 }), { Filter: "FlateDecode" });
    page.node.set(PDFName.of("Contents"), ctx.register(stream));
  }

  private image(id: string): Promise<PDFImage | null> {
    let hit = this.images.get(id);
    if (!hit) {
      const image = embeddableImage(this.model.images.get(id), this.imageBudget);
      hit = !image
        ? Promise.resolve(null)
        : (image.type === "png" ? this.pdf.embedPng(image.bytes) : this.pdf.embedJpg(ownBuffer(image.bytes))).catch(
            () => null, // corrupt: leave the box empty
          );
      this.images.set(id, hit);
    }
    return hit;
  }
}

/**
 * The bytes in an array of their own: pdf-lib's JPEG reader reads `bytes.buffer` from its start, so
 * a view into a larger buffer (a picture stored uncompressed in the DOCX is a view into the package)
 * failed with "SOI not found" and the picture was left out. (Its PNG reader takes views.)
 */
function ownBuffer(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}

type LineItem = Extract<PaintItem, { kind: "line" }>;

function drawStyledLine(content: ContentStreamBuilder, item: LineItem, flipY: (y: number) => number): void {
  const style = item.style ?? "single";
  if (style === "none" || !(item.width > 0)) return;
  const color = rgb(item.color) ?? BLACK;
  const w = item.width;
  const line = (dx: number, dy: number, dash?: number[]) =>
    content.line(item.x1 + dx, flipY(item.y1 + dy), item.x2 + dx, flipY(item.y2 + dy), w, color, dash);
  switch (style) {
    case "dashed":
      line(0, 0, [Math.max(3 * w, 2), Math.max(2 * w, 1.5)]);
      break;
    case "dotted":
      line(0, 0, [Math.max(w, 0.5), Math.max(w, 0.5)]);
      break;
    case "double": {
      // Two strokes of `width`, centred on the line, one stroke width apart.
      const len = Math.hypot(item.x2 - item.x1, item.y2 - item.y1) || 1;
      const nx = (-(item.y2 - item.y1) / len) * w;
      const ny = ((item.x2 - item.x1) / len) * w;
      line(nx, ny);
      line(-nx, -ny);
      break;
    }
    default:
      // single, thick (layout gives the width), words, wave (drawn straight): solid.
      line(0, 0);
  }
}

/** PDF fill/stroke colour operands ("r g b") of a hex colour, or null when it is not one. */
function rgb(color: Color | null | undefined): string | null {
  if (!color || !/^[0-9a-fA-F]{6}$/.test(color)) return null;
  return rgbOperands(color);
}

function positive(n: number): boolean {
  return Number.isFinite(n) && n > 0;
}

/** Non-finite coordinates would write NaN into the content stream: such items are skipped. */
function finiteItem(item: PaintItem): boolean {
  for (const v of Object.values(item)) if (typeof v === "number" && !Number.isFinite(v)) return false;
  return true;
}
