/**
 * One embedded subset font per face id, with a deterministic subset tag ("AAAAAA+Carlito-Regular",
 * "AAAAAB+...") so the same document gives the same bytes and tools (pdffonts) recognise subsets.
 *
 * The font objects are ours (cid-font.ts, pdf/font/truetype-subset.ts), not pdf-lib's embedFont: fontkit's
 * subsetter wrote broken outlines for several of our fonts, and pdf-lib re-parsed each font file and
 * ran full OpenType layout for every string (about 1 s for three pages). The face's parsed font is
 * reused; text is drawn with the glyphs HarfBuzz shaped for layout (the face's `shaped`).
 */
import type { PDFDocument, PDFRef } from "pdf-lib";
import type { LoadedFace } from "../fonts/font-face";
import type { FontFace, ShapeFlags } from "../fonts/types";
import { CidFont } from "./cid-font";

export interface EmbeddedFont {
  readonly ref: PDFRef;
  /**
   * The operators drawing `text` at `size` from the text position (one segment, logical order;
   * right-to-left segments come out in visual order); `typed`: the characters the text stands for,
   * where it draws others (mirrored brackets).
   */
  show(text: string, rtl: boolean, size: number, flags?: ShapeFlags, typed?: string): string;
}

export class FontEmbedder {
  private readonly fonts = new Map<string, CidFont>();

  constructor(private readonly pdf: PDFDocument) {}

  /** The PDF font of `face`, created on first use (its objects are written by `finish`). */
  async font(face: FontFace): Promise<EmbeddedFont> {
    let f = this.fonts.get(face.id);
    if (!f) {
      const name = `${subsetTag(this.fonts.size)}+${face.id.replace(/[^A-Za-z0-9-]/g, "") || "Font"}`;
      const loaded = face as LoadedFace;
      f = new CidFont(this.pdf, loaded.font, loaded.bytes, name, loaded);
      this.fonts.set(face.id, f);
    }
    return f;
  }

  /** Writes every font's subset, widths and ToUnicode map: call after the last page is painted. */
  finish(): void {
    for (const f of this.fonts.values()) f.finish();
  }
}

/** Six capital letters counting in base 26 from AAAAAA. */
function subsetTag(n: number): string {
  let tag = "";
  for (let i = 0; i < 6; i++) {
    tag = String.fromCharCode(65 + (n % 26)) + tag;
    n = Math.floor(n / 26);
  }
  return tag;
}
