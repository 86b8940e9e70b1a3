/**
 * Line numbers (model/line-numbering.ts) drawn as LibreOffice 7.4 draws them, once the pages are
 * known. Two counts run through the document, as LibreOffice counts a line on from the previous
 * text frame of its kind: the body's lines, and the lines of headers, footnotes and footers
 * together (on each page in that order). Empty paragraphs count; lines in tables, text boxes and
 * paragraphs with w:suppressLineNumbers or in the Header and Footer styles neither count nor show.
 * A line whose count is a multiple of `countBy` shows it, right-aligned `distance` pt left of its
 * text column (of each column in a multi-column section), on the line's baseline, in the
 * numbering's own style; a number whose font is taller than its line shrinks to 17/20 of the
 * line's height (sw SwExtraPainter, measured on a 5 pt line). Both counts start again on each page
 * (unless w:restart says otherwise); the body's at a section's start number.
 */
import type { LineNumbering, Paragraph } from "../../model/types";
import { plainParagraphStyle } from "../../model/plain-styles";
import type { LayoutContext, LineBox, PaintItem, ParagraphLayout, StackedBlocks } from "../types";
import { translateItem } from "../items";
import { textHeight } from "../inline/line-height";
import type { PlacedLine } from "./paragraph-pagination";
import type { FlowPage, NumberedLine } from "./pager";

/** Records the placed lines of a body paragraph for numbering; `startAt` restarts the count at its first line. */
export function recordNumberedLines(
  pages: FlowPage[],
  layout: ParagraphLayout,
  placed: PlacedLine[],
  startAt: number | undefined,
): void {
  placed.forEach((at, i) => {
    const line = layout.lines[i];
    const page = pages[at.page];
    if (!line || !page) return;
    page.numberedLines.push({
      columnLeft: at.left,
      baseline: at.top + line.baseline,
      height: textHeight(line),
      ...(i === 0 && startAt !== undefined ? { startAt } : {}),
    });
  });
}

/** A stack's counted lines (`StackedBlocks.numberedLines`) placed with its top-left corner at (left, top). */
export function stackLines(
  stack: StackedBlocks,
  left: number,
  top: number,
  into: NumberedLine[] | undefined,
  shown: (baseline: number) => boolean = () => true,
): void {
  if (!into) return;
  for (const line of stack.numberedLines ?? [])
    if (shown(line.baseline)) into.push({ columnLeft: left, baseline: top + line.baseline, height: line.height });
}

/** One count of lines through the pages (the body's, or the headers', footnotes' and footers'). */
export class LineCounter {
  private count = 0;
  private readonly labels = new Map<string, LineBox>();

  constructor(
    private readonly numbering: LineNumbering,
    private readonly ctx: LayoutContext,
  ) {}

  /** Counts a page's lines (in order) and draws the numbers due into `into`. */
  page(lines: readonly NumberedLine[], into: PaintItem[]): void {
    const numbering = this.numbering;
    if (numbering.restartEachPage) this.count = 0;
    for (const line of lines) {
      this.count = line.startAt !== undefined ? line.startAt : this.count + 1;
      if (this.count % numbering.countBy !== 0) continue;
      const text = String(this.count);
      let label = this.label(text, numbering.style.size);
      const lineHeight = Math.round(line.height * 20);
      if (numbering.style.size * 20 > lineHeight && label.height * 20 > lineHeight && lineHeight >= 20)
        label = this.label(text, Math.floor((lineHeight * 17) / 20) / 20);
      const right = Math.max(0, ...label.items.map((it) => (it.kind === "text" ? it.x + it.width : 0)));
      const dx = line.columnLeft - numbering.distance - right;
      for (const item of label.items) into.push(translateItem(item, dx, line.baseline - label.baseline));
    }
  }

  /** The number laid out as a line of its own at `size` pt. */
  private label(text: string, size: number): LineBox {
    const key = `${size}:${text}`;
    const hit = this.labels.get(key);
    if (hit) return hit;
    // Digits alone would be read as complex-script text (its font and size); LibreOffice draws the
    // number in the style's Western font.
    const style = { ...this.numbering.style, size };
    delete style.sizeComplex;
    delete style.fontComplex;
    delete style.fontEastAsia;
    const p: Paragraph = {
      type: "paragraph",
      style: plainParagraphStyle(),
      inlines: [{ type: "text", text, style }],
      markStyle: style,
    };
    const line = this.ctx.routines.layoutParagraph(p, 1000, this.ctx).lines[0] ?? { height: 0, baseline: 0, items: [] };
    this.labels.set(key, line);
    return line;
  }
}
