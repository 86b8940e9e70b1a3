/**
 * A footnote's or endnote's own number, as LibreOffice reads it from DOCX (measured): when the
 * note's first paragraph hangs (negative first-line indent), the number is laid out like a list
 * label that reaches the left indent, and the first tab after it (Word's "number, tab, text") is
 * dropped. Spaces typed between the number and the text stay, after the indent.
 */
import type { Block } from "./types";

/** Turns the leading note number of `blocks` into a label, in place; `label` is the number shown. */
export function noteNumberAsLabel(blocks: Block[], label: string): void {
  const first = blocks[0];
  if (!label || first?.type !== "paragraph" || first.numbering || first.style.firstLine >= 0) return;
  const mark = first.inlines[0];
  if (mark?.type !== "text" || mark.text !== label) return;
  let k = 1;
  for (let x = first.inlines[k]; x?.type === "text" && x.text.trim() === ""; x = first.inlines[++k]);
  if (first.inlines[k]?.type === "tab") first.inlines.splice(k, 1);
  first.inlines.shift();
  first.numbering = { text: label, style: mark.style, suffix: "tab", align: "left" };
}
