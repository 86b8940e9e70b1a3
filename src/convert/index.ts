/**
 * Markdown and HTML → DOCX, knowing nothing of HTTP: read the source into the document model,
 * fetch its pictures, write one DOCX. `src/operations/convert.ts` adds the renderer for PDF.
 */
import { browserTheme, WORD_THEME, writeDocx, type DocxTheme } from "./docx-writer";
import { htmlToModel } from "./html";
import { imageSources, resolveImages, type ImageFetchOptions } from "./images";
import { markdownToModel } from "./markdown";
import type { DocumentModel } from "./model";

export type SourceFormat = "md" | "html";

export function readSource(format: SourceFormat, text: string): { model: DocumentModel; theme: DocxTheme } {
  if (format === "md") return { model: markdownToModel(text), theme: WORD_THEME };
  const { base, ...model } = htmlToModel(text);
  return { model, theme: browserTheme(base.font, base.sizePt) };
}

/** The source as a DOCX, with a warning for each picture left out. */
export async function sourceToDocx(
  format: SourceFormat,
  text: string,
  images: ImageFetchOptions,
): Promise<{ docx: Uint8Array; warnings: string[] }> {
  const { model, theme } = readSource(format, text);
  const resolved = await resolveImages(imageSources(model), images);
  return { docx: writeDocx(model, theme, resolved.images), warnings: resolved.warnings };
}

export { DOCX_MEDIA_TYPE } from "./docx-writer";
