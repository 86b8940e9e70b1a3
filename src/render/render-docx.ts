import type { FontBook, FontSource } from "./fonts/types";
import type { LaidOutDocument } from "./layout/types";
import type { DocumentModel } from "./model/types";
import { parseDocx } from "./model/parse-docx";
import { loadFontBook } from "./fonts/font-book";
import { layoutDocument } from "./layout";
import { paintDocument } from "./paint/paint-document";

export interface RenderOptions {
  /** Where the substitute fonts come from (static assets in the worker, node_modules in tools). */
  fonts: FontSource;
}

/** Renders a DOCX to PDF bytes. A package that cannot be read throws 422 `docx_invalid`. */
export async function renderDocxToPdf(docx: Uint8Array, opts: RenderOptions): Promise<Uint8Array> {
  const { laidOut, images, fonts } = await layOut(docx, opts);
  try {
    return await paintDocument(laidOut, { images });
  } finally {
    fonts.release();
  }
}

/**
 * Parses and lays out. The model is let go on return: painting needs only its images, and a
 * large document's model (about 20 MB for 180 pages of tables) would otherwise be held until the
 * PDF is saved.
 */
async function layOut(
  docx: Uint8Array,
  opts: RenderOptions,
): Promise<{ laidOut: LaidOutDocument; images: DocumentModel["images"]; fonts: FontBook }> {
  const model = parseDocx(docx);
  const fonts = await loadFontBook(model, opts.fonts);
  try {
    return { laidOut: layoutDocument(model, fonts), images: model.images, fonts };
  } catch (e) {
    fonts.release();
    throw e;
  }
}
