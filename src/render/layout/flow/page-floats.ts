/**
 * A paragraph's floats on the page: positioned from where its lines went (page, margins, column,
 * paragraph or line), and painted into the page's background or foreground, their wrap registered
 * for the text laid out beside them.
 */
import type { Section } from "../../model/types";
import { translateItems } from "../items";
import { chartItems } from "../objects/chart";
import { floatWrap, positionFloat, type PlacedFloat } from "../objects/floats";
import { boxFrameItems, textBoxItems } from "../objects/inline-objects";
import type { FloatingObject, LayoutContext, ParagraphLayout } from "../types";
import type { Pager } from "./pager";
import type { PlacedLine } from "./paragraph-pagination";
import { sanePage } from "./sections";

/** A float of a paragraph placed on page `page`. */
export interface PositionedFloat {
  page: number;
  placed: PlacedFloat;
  float: FloatingObject;
}

/** Where each float of `layout` goes, given where its lines were `placed` (`sectionOf`: a page's section). */
export function positionFloats(
  pager: Pager,
  sectionOf: (index: number) => Section,
  layout: ParagraphLayout,
  placed: PlacedLine[],
): PositionedFloat[] {
  const out: PositionedFloat[] = [];
  const firstLine = placed[0];
  for (const float of layout.floats) {
    const line = placed[Math.min(float.line, placed.length - 1)] ?? firstLine;
    if (!line) continue;
    const page = pager.pages[line.page]!;
    const box = sanePage(sectionOf(page.section));
    const column = { left: line.left, width: pager.area.width };
    const { width, height } = floatSize(float.inline);
    const frame = {
      pageWidth: page.width,
      pageHeight: page.height,
      margins: { top: Math.abs(box.top), bottom: Math.abs(box.bottom), left: box.left, right: box.right },
      column,
      paragraphTop: firstLine && firstLine.page === line.page ? firstLine.top : line.top,
      lineTop: line.top,
    };
    const pos = positionFloat(float.anchor, width, height, frame);
    out.push({ page: line.page, placed: toPlaced(pos, width, height, float.anchor, column), float });
  }
  return out;
}

/**
 * Whether, on page `page`, a float of `floats` starts at the paragraph top (`top`) and ends below the
 * body; with `stacked`, also when another float of the paragraph (below the first, which the text
 * had to pass too) is the one that ends below it.
 */
export function floatOverrunsTop(
  pager: Pager,
  floats: PositionedFloat[],
  top: number,
  page: number,
  stacked: boolean,
): boolean {
  const bottom = pager.pages[page]?.bodyBottom ?? Number.POSITIVE_INFINITY;
  const onPage = floats.filter((f) => f.page === page);
  const atTop = (f: PositionedFloat) => f.placed.y - f.placed.distance.top <= top + 0.5;
  const overruns = (f: PositionedFloat) => f.placed.y + f.placed.height > bottom;
  if (onPage.some((f) => atTop(f) && overruns(f))) return true;
  return stacked && onPage.some(atTop) && onPage.some(overruns);
}

/** Adds float drawings (and, unless already registered, their wrap) to their pages. */
export function paintFloats(pager: Pager, floats: PositionedFloat[], registered: boolean, ctx: LayoutContext): void {
  for (const f of floats) {
    const page = pager.pages[f.page];
    if (!page) continue;
    if (!registered && f.placed.wrap !== "none") page.floats.push(f.placed);
    const into = f.float.anchor.behindText ? page.background : page.foreground;
    const inline = f.float.inline;
    const { x, y, width, height } = f.placed;
    if (inline.type === "image") {
      into.push({ kind: "image", x, y, width, height, image: inline.image });
      continue;
    }
    if (inline.fill) into.push({ kind: "rect", x, y, width, height, fill: inline.fill });
    if (inline.chart) into.push(...chartItems(inline.chart, f.placed, ctx.fonts));
    into.push(...textBoxItems(inline, x, y, width, height, ctx));
    into.push(...boxFrameItems(inline.border, x, y, width, height));
  }
}

function floatSize(inline: FloatingObject["inline"]): { width: number; height: number } {
  const ok = (v: number) => (Number.isFinite(v) && v > 0 ? Math.min(v, 14_400) : 1);
  return { width: ok(inline.width), height: ok(inline.height) };
}

function toPlaced(
  pos: { x: number; y: number },
  width: number,
  height: number,
  anchor: FloatingObject["anchor"],
  column: { left: number; width: number },
): PlacedFloat {
  const d = anchor.distance;
  const distance = {
    top: Math.max(0, d.top || 0),
    bottom: Math.max(0, d.bottom || 0),
    left: Math.max(0, d.left || 0),
    right: Math.max(0, d.right || 0),
  };
  return { ...pos, width, height, distance, ...floatWrap({ ...anchor, distance }, pos.x, width, column) };
}
