/**
 * Model values for tests that lay out hand-built paragraphs: Word's defaults (Calibri 12 pt, left
 * aligned, single spacing) with the fields a test cares about overridden.
 */
import type { ParagraphStyle, RunStyle } from "../../src/render/model/types";
import { plainParagraphStyle, plainRunStyle } from "../../src/render/model/plain-styles";

export const runStyle = (o: Partial<RunStyle> = {}): RunStyle => plainRunStyle("Calibri", 12, o);

export const paragraphStyle = (o: Partial<ParagraphStyle> = {}): ParagraphStyle =>
  plainParagraphStyle({ styleId: "Normal", ...o });
