/**
 * DOCX → PDF inside the worker: parse the package into a resolved document model, load the fonts
 * it names, lay it out into pages of positioned items, and paint those with pdf-lib.
 * Pure: no HTTP, no env. Same input bytes → same output bytes.
 */
export { renderDocxToPdf, type RenderOptions } from "./render-docx";
export { assertRenderable } from "./model/parse-docx";
export { checkPngData, readPngHeader } from "./paint/png-data";
