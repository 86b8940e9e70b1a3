/**
 * One embedded, subset TrueType font per face id, with a deterministic subset tag
 * ("AAAAAA+Carlito-Regular", "AAAAAB+...") instead of pdf-lib's name suffix, so the same document
 * gives the same bytes and tools (pdffonts) recognise the fonts as subsets.
 *
 * Speed: pdf-lib would parse the font file again for every document and run fontkit's full
 * OpenType layout (GSUB and GPOS lookups, kerning it then ignores) for every string drawn; that
 * cost about 1 s for three pages of text. Here the face's already parsed font is reused, and text
 * of simple scripts is mapped code point → glyph directly (what Word draws: no ligatures, no
 * kerning). Only right-to-left or complex-script text goes through fontkit's shaping.
 */
import fontkit from "@pdf-lib/fontkit";
import type { Font, Glyph } from "@pdf-lib/fontkit";
import { PDFHexString, type PDFDocument, type PDFFont, type PDFRef } from "pdf-lib";
import { LoadedFace } from "../fonts/font-face";
import type { FontFace } from "../fonts/types";

/**
 * Word draws no ligatures by default, and layout measured each character's own advance: with
 * ligatures on, painted text would differ from the measured width. Arabic joining forms (init,
 * medi, fina, rlig) stay on: fontkit picks them from the script.
 */
const FEATURES = { liga: false, clig: false, dlig: false };

/** Scripts drawn glyph by glyph without shaping: Latin, Greek, Cyrillic, Armenian, punctuation, symbols. */
const SIMPLE_TEXT = /^[\u0000-\u058f\u1d00-\u1fff\u2000-\u2bff\u2e00-\u2e7f\ua640-\ua69f\ua720-\ua7ff\ufb00-\ufb06\ufe20-\ufe2f]*$/;

/** What pdf-lib's subset embedder keeps about the glyphs used (internal fields, pdf-lib 1.17). */
interface SubsetEmbedderInternals {
  subset: { includeGlyph(glyph: Glyph): number };
  glyphs: Glyph[];
  glyphIdMap: Map<number, number>;
  glyphCache: { invalidate(): void };
}

export interface EmbeddedFont {
  readonly ref: PDFRef;
  /** The glyph string for `text` (one segment, logical order; RTL segments come out reversed). */
  encode(text: string, rtl: boolean): PDFHexString;
}

export class FontEmbedder {
  private readonly fonts = new Map<string, Promise<EmbeddedFont>>();
  /** Parsed fonts of the faces being embedded, by their byte arrays (read by the fontkit shim). */
  private readonly parsed = new Map<Uint8Array, Font>();

  constructor(private readonly pdf: PDFDocument) {
    pdf.registerFontkit({ create: (bytes: Uint8Array) => this.parsed.get(bytes) ?? fontkit.create(bytes) } as typeof fontkit);
  }

  /** The PDF font of `face`, embedded on first use. */
  font(face: FontFace): Promise<EmbeddedFont> {
    let f = this.fonts.get(face.id);
    if (!f) {
      if (face instanceof LoadedFace) this.parsed.set(face.bytes, face.font);
      const name = `${subsetTag(this.fonts.size)}+${face.id.replace(/[^A-Za-z0-9-]/g, "") || "Font"}`;
      f = this.pdf.embedFont(face.bytes, { subset: true, customName: name, features: FEATURES }).then(wrap);
      this.fonts.set(face.id, f);
    }
    return f;
  }
}

function wrap(pdfFont: PDFFont): EmbeddedFont {
  const embedder = (pdfFont as unknown as { embedder: SubsetEmbedderInternals & { font: Font } }).embedder;
  const direct = embedder && typeof embedder.subset?.includeGlyph === "function" && embedder.glyphIdMap instanceof Map;
  const byCodePoint = new Map<number, Glyph>();
  return {
    ref: pdfFont.ref,
    encode(text, rtl) {
      if (rtl || !direct || !SIMPLE_TEXT.test(text)) return pdfFont.encodeText(text);
      let hex = "";
      for (const ch of text) {
        const cp = ch.codePointAt(0)!;
        let glyph = byCodePoint.get(cp);
        if (!glyph) {
          glyph = embedder.font.glyphForCodePoint(cp);
          byCodePoint.set(cp, glyph);
        }
        // The same bookkeeping as pdf-lib's own encodeText, so widths and ToUnicode cover these glyphs.
        const subsetId = embedder.subset.includeGlyph(glyph);
        embedder.glyphs[subsetId - 1] = glyph;
        embedder.glyphIdMap.set(glyph.id, subsetId);
        hex += subsetId.toString(16).padStart(4, "0");
      }
      embedder.glyphCache.invalidate();
      return PDFHexString.of(hex);
    },
  };
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
