/**
 * Footnotes: each note's blocks stacked once in the text width, the room a note takes at the page
 * bottom, the notes painted under a short separator line (a note split across pages shown in
 * parts), and note numbers that restart on each page.
 */
import { formatNumber } from "../../model/number-format";
import type { DocumentModel, NumberFormat } from "../../model/types";
import { translateItems } from "../items";
import type { LayoutContext, PaintItem, StackedBlocks } from "../types";
import type { FlowPage, NumberedLine } from "./pager";
import { stackLines } from "./line-numbers";

/**
 * The footnote separator as LibreOffice lays it out (its page defaults, kept for DOCX): 57 twips
 * (0.1 cm) above a 0.5 pt line and 57 below it, a quarter of the text width long.
 */
const NOTE_SEPARATOR_GAP = 2.85;
const NOTE_SEPARATOR_WIDTH = 0.5;
export const NOTE_SEPARATOR_HEIGHT = 2 * NOTE_SEPARATOR_GAP + NOTE_SEPARATOR_WIDTH;
const NOTE_SEPARATOR_SHARE = 0.25;
/**
 * Where a note's paint item sits when the note is split at a line bottom: a text's baseline (inside
 * its line), anything else just below its top.
 */
function noteItemY(item: PaintItem): number {
  if (item.kind === "text") return item.y;
  if (item.kind === "line") return Math.min(item.y1, item.y2) + 0.25;
  return item.y + 0.25;
}

/** The footnotes of a document, laid out on first use. */
export class Footnotes {
  private readonly stacks = new Map<string, StackedBlocks>();

  /** `width`: the text width of the page being laid out, where a note is first needed. */
  constructor(
    private readonly notes: DocumentModel["notes"],
    private readonly ctx: LayoutContext,
    private readonly width: () => number,
  ) {}

  stack(id: string): StackedBlocks {
    let stack = this.stacks.get(id);
    if (!stack) {
      const blocks = this.notes.get(id);
      const width = this.width();
      stack =
        blocks && blocks.length > 0
          ? this.ctx.routines.stackBlocks(blocks, width, this.ctx)
          : { height: 0, items: [], breakPoints: [] };
      this.stacks.set(id, stack);
    }
    return stack;
  }

  /** Room a note takes on `page`; a note taller than half the body is only partly reserved (it carries on below). */
  height(id: string, page: FlowPage): number {
    return Math.min(this.stack(id).height, (page.bodyBottom - page.bodyTop) / 2);
  }

  /** The page's footnotes stacked at the bottom of its body, under a short separator line, in the text box [left, left + width]. */
  paint(page: FlowPage, left: number, width: number, into: PaintItem[], lines?: NumberedLine[]): void {
    if (page.notes.length === 0) return;
    let y = page.bodyBottom - page.noteHeight;
    const lineY = y + NOTE_SEPARATOR_GAP + NOTE_SEPARATOR_WIDTH / 2;
    into.push({
      kind: "line",
      x1: left,
      y1: lineY,
      x2: left + width * NOTE_SEPARATOR_SHARE,
      y2: lineY,
      width: NOTE_SEPARATOR_WIDTH,
      color: null,
    });
    y += NOTE_SEPARATOR_HEIGHT;
    page.notes.forEach((id, i) => {
      const stack = this.stack(id);
      // A note split across pages: the lines above the cut here, the rest on the next page.
      const from = i === 0 ? (page.noteFrom ?? 0) : 0;
      const cut = i === page.notes.length - 1 ? (page.noteCut ?? Infinity) : Infinity;
      const items =
        from > 0 || cut < Infinity
          ? stack.items.filter((it) => noteItemY(it) > from && noteItemY(it) < cut)
          : stack.items;
      translateItems(items, left, y - from, into);
      stackLines(stack, left, y - from, lines, (baseline) => baseline > from && baseline < cut);
      y += stack.height - from;
    });
  }
}

/**
 * Footnote numbers restarting on each page (w:numRestart="eachPage"): the notes whose references
 * are on the page count from the start number, in order; a note continued from the page before keeps
 * its number. In sections without the restart the numbers run on from page to page.
 */
export function numberNotesOnPage(
  page: FlowPage,
  numbering: { start: number; format: NumberFormat; perPage: boolean },
  labels: Map<string, string>,
  items: PaintItem[],
): void {
  const running = labels.get(RUNNING) ?? String(numbering.start);
  let n = numbering.perPage ? numbering.start : Number(running);
  page.notes.forEach((id) => {
    if (id.startsWith("footnote:") && !labels.has(id)) labels.set(id, formatNumber(n++, numbering.format));
  });
  if (!numbering.perPage) labels.set(RUNNING, String(n));
  for (let i = 0; i < items.length; i++) {
    const it = items[i]!;
    if (it.kind !== "text" || !it.noteLabelOf) continue;
    const label = labels.get(it.noteLabelOf);
    if (label !== undefined && label !== it.text) items[i] = { ...it, text: label };
  }
}

/** Key of the running footnote number in `numberNotesOnPage`'s map (not a note id). */
const RUNNING = "#running";
