/**
 * One embedded, subset TrueType font per face id, with a deterministic subset tag
 * ("AAAAAA+Carlito-Regular", "AAAAAB+...") instead of pdf-lib's name suffix, so the same document
 * gives the same bytes and tools (pdffonts) recognise the fonts as subsets.
 */
import fontkit from "@pdf-lib/fontkit";
import type { PDFDocument, PDFFont } from "pdf-lib";
import type { FontFace } from "../fonts/types";

/**
 * Word draws no ligatures by default, and layout measured each character's own advance: with
 * ligatures on, painted text would differ from the measured width. Arabic joining forms (init,
 * medi, fina, rlig) stay on: fontkit picks them from the script.
 */
const FEATURES = { liga: false, clig: false, dlig: false };

export class FontEmbedder {
  private readonly fonts = new Map<string, Promise<PDFFont>>();

  constructor(private readonly pdf: PDFDocument) {
    pdf.registerFontkit(fontkit);
  }

  /** The PDF font of `face`, embedded on first use. */
  font(face: FontFace): Promise<PDFFont> {
    let f = this.fonts.get(face.id);
    if (!f) {
      const name = `${subsetTag(this.fonts.size)}+${face.id.replace(/[^A-Za-z0-9-]/g, "") || "Font"}`;
      f = this.pdf.embedFont(face.bytes, { subset: true, customName: name, features: FEATURES });
      this.fonts.set(face.id, f);
    }
    return f;
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
