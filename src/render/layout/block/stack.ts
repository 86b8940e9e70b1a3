/**
 * Blocks stacked top-down in a fixed width without pagination: table cells, text boxes, headers,
 * footers and footnotes. Paragraph spacing as LibreOffice lays out DOCX: the larger of the space
 * after and the next space before separates two paragraphs, and contextual spacing drops both
 * between paragraphs of the same style. Space before the first paragraph and after the last count,
 * except automatic (autospacing) space.
 */
import type { Paragraph } from "../../model/types";
import type { FloatingObject, LayoutContext, PaintItem, StackBlocks, StackedBlocks } from "../types";
import { translateItem } from "../items";
import { isVisible } from "./table-borders";
import { chartItems } from "../objects/chart";
import { shownBlocks } from "./hidden-paragraph";
import { bordersJoin, paragraphBorderLine, paragraphBorderRoom } from "./paragraph-borders";
import { lineOffset } from "../objects/floats";
import { textBoxItems } from "../objects/inline-objects";
import { textHeight } from "../inline/line-height";

export const stackBlocks: StackBlocks = (allBlocks, width, ctx, opts) => {
  const blocks = shownBlocks(allBlocks);
  const items: PaintItem[] = [];
  const numberedLines: StackedBlocks["numberedLines"] = ctx.countLines ? [] : undefined;
  const breakPoints: number[] = [];
  const continueTrim = new Map<number, number>();
  const noteLines: NonNullable<StackedBlocks["noteLines"]> = [];
  let y = 0;
  /** The paragraph just above, for contextual spacing (null after a table or at the top). */
  let prev: Paragraph | null = null;
  let pendingAfter = 0;
  /** Bottom of the lowest float a cell grows to hold. */
  let floatBottom = 0;
  /**
   * Moves the cursor down by the spacing between two blocks. A block's end is only a place to
   * split a cell once the spacing below it fits too (LibreOffice): its break point moves down with it.
   */
  const gap = (space: number) => {
    if (breakPoints[breakPoints.length - 1] === y) breakPoints[breakPoints.length - 1] = y + space;
    y += space;
  };
  blocks.forEach((block, i) => {
    if (block.type === "table") {
      gap(pendingAfter);
      pendingAfter = 0;
      prev = null;
      // Lines in tables are not numbered (LibreOffice).
      const t = ctx.routines.stackTable(block, width, ctx.countLines ? { ...ctx, countLines: false } : ctx, y);
      items.push(...t.items);
      for (const bp of t.breakPoints) breakPoints.push(bp);
      for (const [bp, trim] of t.continueTrim) continueTrim.set(bp, trim);
      y = t.bottom;
      breakPoints.push(y);
      return;
    }
    const frame = block.style.frame;
    if (frame && frame.vAnchor === "text" && frame.hAnchor !== "page") {
      // A framed paragraph (a page number in a header or footer): drawn beside the next text at the
      // cursor, aligned in the box, taking no height (LibreOffice floats it).
      const framed = stackParagraph(block, Math.min(width, frame.width ?? width), ctx);
      const shift = frameShift(framed.items, frame, width);
      for (const item of framed.items) items.push(translateItem(item, shift, y + frame.y));
      return;
    }
    const next = blocks[i + 1];
    const above = blocks[i - 1];
    const join = {
      prev: above?.type === "paragraph" && bordersJoin(above, block),
      next: next?.type === "paragraph" && bordersJoin(block, next),
    };
    const laid = stackParagraph(block, width, ctx, join, opts?.inCell ?? false);
    const sameAsPrev = prev !== null && prev.style.styleId === block.style.styleId;
    const sameAsNext = next?.type === "paragraph" && next.style.styleId === block.style.styleId;
    // LibreOffice drops automatic (HTML-like) space before the first and after the last paragraph of a
    // stack, and before a paragraph that follows a table in the stack (a table nested in a cell).
    const startsRun = i === 0 || blocks[i - 1]?.type === "table";
    const before =
      (block.style.contextualSpacing && sameAsPrev) || (startsRun && block.style.autoSpaceBefore)
        ? 0
        : laid.spaceBefore;
    // LibreOffice keeps the larger of the space after and the next space before (they do not add
    // up), unless the document's spacing adds up (LayoutContext.paragraphSpacingAdds).
    gap(ctx.paragraphSpacingAdds ? pendingAfter + before : Math.max(pendingAfter, before));
    // A cell continued on the next page from here starts with this paragraph's space before
    // (LibreOffice keeps it at the top of the continued row; the space after above stays behind).
    if (before > 0 && i > 0 && breakPoints[breakPoints.length - 1] === y) continueTrim.set(y, -before);
    for (const item of laid.items) items.push(translateItem(item, 0, y));
    if (numberedLines && !block.style.suppressLineNumbers)
      for (const line of laid.lines) numberedLines.push({ baseline: y + line.baseline, height: line.height });
    if (laid.floatBottom) floatBottom = Math.max(floatBottom, y + laid.floatBottom);
    for (const bp of laid.breakPoints) breakPoints.push(y + bp);
    for (const [bp, trim] of laid.continueTrim ?? []) continueTrim.set(y + bp, trim);
    // A paragraph continued in a cell on the next page shows its space before again above the
    // line it goes on with (LibreOffice, measured: 5 pt for w:before 100, 15 pt for 300; body
    // paragraphs do not).
    if (laid.spaceBefore > 0)
      for (const bp of laid.breakPoints.slice(0, -1))
        continueTrim.set(y + bp, (continueTrim.get(y + bp) ?? 0) - laid.spaceBefore);
    for (const n of laid.noteLines ?? []) noteLines.push({ top: y + n.top, ids: n.ids });
    y += laid.height;
    const last = i === blocks.length - 1;
    pendingAfter =
      (block.style.contextualSpacing && sameAsNext) || (last && block.style.autoSpaceAfter) ? 0 : laid.spaceAfter;
    prev = block;
  });
  gap(pendingAfter);
  if (floatBottom > y) {
    if (breakPoints[breakPoints.length - 1] === y) breakPoints[breakPoints.length - 1] = floatBottom;
    y = floatBottom;
  }
  return {
    height: y,
    items,
    breakPoints,
    spaceBelow: pendingAfter,
    continueTrim,
    ...(numberedLines ? { numberedLines } : {}),
    ...(noteLines.length ? { noteLines } : {}),
  };
};

/** Horizontal shift that puts a frame's text where its alignment (or offset) says, within `width`. */
function frameShift(items: PaintItem[], frame: NonNullable<Paragraph["style"]["frame"]>, width: number): number {
  let left = Infinity;
  let right = -Infinity;
  for (const it of items) {
    if (it.kind !== "text") continue;
    left = Math.min(left, it.x);
    right = Math.max(right, it.x + it.width);
  }
  if (!(right > left)) return 0;
  const contentWidth = right - left;
  const align = frame.xAlign;
  if (align === "right" || align === "outside") return width - contentWidth - left;
  if (align === "center") return (width - contentWidth) / 2 - left;
  if (align === "left" || align === "inside") return -left;
  return frame.x;
}

/** One paragraph's lines, shading and borders from y = 0, and its spacing (applied by the caller). */
function stackParagraph(
  p: Paragraph,
  width: number,
  ctx: LayoutContext,
  join = { prev: false, next: false },
  inCell = false,
): StackedBlocks & {
  spaceBefore: number;
  spaceAfter: number;
  floatBottom?: number;
  /** Each line's baseline from the paragraph's top and its height without proportional spacing. */
  lines: { baseline: number; height: number }[];
} {
  const laid = ctx.routines.layoutParagraph(p, width, ctx);
  const { shading } = p.style;
  // Inside a bordered group the joined sides are not drawn and take no room.
  const borders = {
    ...p.style.borders,
    top: join.prev ? undefined : p.style.borders.top,
    bottom: join.next ? undefined : p.style.borders.bottom,
  };
  const top = paragraphBorderRoom(borders.top);
  const bottom = paragraphBorderRoom(borders.bottom);
  const lineItems: PaintItem[] = [];
  const breakPoints: number[] = [];
  const continueTrim = new Map<number, number>();
  const lineTops: number[] = [];
  const lines: { baseline: number; height: number }[] = [];
  const noteLines: NonNullable<StackedBlocks["noteLines"]> = [];
  let y = top;
  laid.lines.forEach((line, i) => {
    // Lines after the first carry their proportional extra above the text (see inline/paragraph.ts).
    if (i > 0 && line.extraAbove) continueTrim.set(y, line.extraAbove);
    lineTops.push(y);
    if (line.noteRefs?.length) noteLines.push({ top: y, ids: line.noteRefs });
    lines.push({ baseline: y + line.baseline, height: textHeight(line) });
    for (const item of line.items) lineItems.push(translateItem(item, 0, y));
    y += line.height;
    breakPoints.push(y);
  });
  const floats = laid.floats.map((f) => ({ f, items: floatItems(f, lineTops[f.line] ?? top, width, ctx) }));
  // A cell grows to hold the floats its text wraps around (LibreOffice, measured: a wrapped picture
  // below a cell's text makes the row reach its bottom, the space after the text not added below it;
  // one with no wrap or behind the text does not).
  let floatBottom = 0;
  if (inCell) {
    for (const { f, items: fi } of floats) {
      if (f.anchor.behindText || f.anchor.wrap === "none") continue;
      for (const item of fi)
        if (item.kind === "image" || item.kind === "rect") floatBottom = Math.max(floatBottom, item.y + item.height);
    }
  }
  const height = y + bottom;
  const left = p.style.indentLeft;
  const right = width - p.style.indentRight;
  const items: PaintItem[] = [];
  if (shading && right > left && height > 0)
    items.push({ kind: "rect", x: left, y: 0, width: right - left, height, fill: shading });
  for (const { f, items: fi } of floats) if (f.anchor.behindText) items.push(...fi);
  items.push(...lineItems);
  for (const { f, items: fi } of floats) if (!f.anchor.behindText) items.push(...fi);
  const edge = (b: NonNullable<typeof borders.top>, x1: number, y1: number, x2: number, y2: number) =>
    items.push(paragraphBorderLine(b, x1, y1, x2, y2));
  if (isVisible(borders.top)) edge(borders.top, left, borders.top.width / 2, right, borders.top.width / 2);
  if (isVisible(borders.bottom))
    edge(borders.bottom, left, height - borders.bottom.width / 2, right, height - borders.bottom.width / 2);
  if (isVisible(borders.left)) edge(borders.left, left - borders.left.space, 0, left - borders.left.space, height);
  if (isVisible(borders.right))
    edge(borders.right, right + borders.right.space, 0, right + borders.right.space, height);
  // The last line's bottom is the block's end, not a place to split it.
  if (breakPoints.length > 0) breakPoints[breakPoints.length - 1] = height;
  return {
    height,
    items,
    breakPoints,
    continueTrim,
    spaceBefore: laid.spaceBefore,
    spaceAfter: laid.spaceAfter,
    floatBottom,
    lines,
    ...(noteLines.length ? { noteLines } : {}),
  };
}

/**
 * Best effort for floating images and text boxes inside a stack (a table cell, a header): kept
 * inside the stack's box, aligned or offset horizontally, offset from the paragraph or line top;
 * they take no room and text does not wrap around them.
 */
function floatItems(f: FloatingObject, lineTop: number, width: number, ctx: LayoutContext): PaintItem[] {
  const { inline, anchor } = f;
  const w = inline.width;
  const h = inline.height;
  if (!(w > 0 && h > 0 && Number.isFinite(w) && Number.isFinite(h))) return [];
  const align = anchor.x.align;
  // A table's frame keeps its wrap distances inside the box when aligned (as on the page).
  const inside = anchor.distanceInside ? anchor.distance : { left: 0, right: 0 };
  // Not left of the box (LibreOffice keeps a picture offset left of its cell at the cell's edge; a
  // header's floating table placed by tblpX goes where it says).
  const x = Math.max(
    anchor.distanceInside ? Number.NEGATIVE_INFINITY : 0,
    align === "center"
      ? (width - w) / 2
      : align === "right" || align === "outside"
        ? width - w - (anchor.rightDistanceInside && align === "right" ? anchor.distance.right : inside.right)
        : align
          ? inside.left
          : (anchor.x.offset ?? 0),
  );
  const y = anchor.y.relativeTo === "line" ? lineTop + lineOffset(anchor) : (anchor.y.offset ?? 0);
  if (inline.type === "image") return [{ kind: "image", x, y, width: w, height: h, image: inline.image }];
  const out: PaintItem[] = [];
  if (inline.fill) out.push({ kind: "rect", x, y, width: w, height: h, fill: inline.fill });
  if (inline.chart) out.push(...chartItems(inline.chart, { x, y, width: w, height: h }, ctx.fonts));
  out.push(...textBoxItems(inline, x, y, w, h, ctx));
  return out;
}
