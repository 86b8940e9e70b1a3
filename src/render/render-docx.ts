import type { FontSource } from "./fonts/types";
import { parseDocx } from "./model/parse-docx";
import { loadFontBook } from "./fonts/font-book";
import { layoutDocument } from "./layout/flow";
import { paintDocument } from "./paint/paint-document";

export interface RenderOptions {
  /** Where the substitute fonts come from (static assets in the worker, node_modules in tools). */
  fonts: FontSource;
}

/** Renders a DOCX to PDF bytes. A package that cannot be read throws 422 `docx_invalid`. */
export async function renderDocxToPdf(docx: Uint8Array, opts: RenderOptions): Promise<Uint8Array> {
  const model = parseDocx(docx);
  const fonts = await loadFontBook(model, opts.fonts);
  const laidOut = layoutDocument(model, fonts);
  return paintDocument(laidOut, model);
}
