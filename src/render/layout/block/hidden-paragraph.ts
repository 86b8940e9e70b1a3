/**
 * Paragraphs LibreOffice does not show at all (hidden text not displayed): every run hidden
 * (w:vanish), or no runs and a hidden paragraph mark. They take no room; an empty paragraph with a
 * visible mark keeps its line, and visible text keeps the paragraph whatever its mark says.
 * A paragraph whose mail-merge fields are all empty goes too, whatever else it holds (model/blocks.ts).
 */
import type { Block, Paragraph } from "../../model/types";

export function isHiddenParagraph(p: Paragraph): boolean {
  if (p.emptyMergeFields) return true;
  if (p.inlines.length === 0) return p.markStyle.hidden;
  return p.inlines.every((inline) => inline.style.hidden);
}

/** `blocks` without the paragraphs that are not shown (the same array when there are none). */
export function shownBlocks<B extends Block>(blocks: B[]): B[] {
  return blocks.some((b) => b.type === "paragraph" && isHiddenParagraph(b))
    ? blocks.filter((b) => b.type !== "paragraph" || !isHiddenParagraph(b))
    : blocks;
}
