/**
 * Model values for tests that lay out hand-built paragraphs: Word's defaults (Calibri 12 pt, left
 * aligned, single spacing) with the fields a test cares about overridden.
 */
import type {
  Block,
  DocumentModel,
  FontTableEntry,
  ImageResource,
  ParagraphStyle,
  RunStyle,
} from "../../src/render/model/types";
import { plainParagraphStyle, plainRunStyle } from "../../src/render/model/plain-styles";
import { DEFAULT_SECTION } from "../../src/render/layout/flow/sections";

export const runStyle = (o: Partial<RunStyle> = {}): RunStyle => plainRunStyle("Calibri", 12, o);

export const paragraphStyle = (o: Partial<ParagraphStyle> = {}): ParagraphStyle =>
  plainParagraphStyle({ styleId: "Normal", ...o });

/**
 * A document of one US Letter section with 1" margins (the renderer's default section) holding `blocks`; its font families are those
 * of the blocks' text runs.
 */
export function letterDocument(
  blocks: Block[],
  opts: { images?: Map<string, ImageResource>; fontTable?: FontTableEntry[] } = {},
): DocumentModel {
  const families = new Set<string>();
  for (const b of blocks) if (b.type === "paragraph") for (const i of b.inlines) families.add(i.style.font);
  return {
    sections: [{ ...DEFAULT_SECTION, blocks }],
    headerFooters: new Map(),
    notes: new Map(),
    images: opts.images ?? new Map(),
    evenAndOddHeaders: false,
    defaultTabStop: 36,
    fontFamilies: families,
    fontTable: new Map((opts.fontTable ?? []).map((e) => [e.name, e])),
  };
}
