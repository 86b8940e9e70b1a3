/**
 * Objects standing on a line (inline, not anchored): pictures, equations, and text boxes with
 * their fill, chart, own blocks (inset as in a floating box, not clipped) and border; and the text
 * of any box, floating or not, or its group's parts.
 */
import { translateItem } from "../items";
import type { Border, GroupPart } from "../../model/types";
import type { LayoutContext, ObjectInline, PaintItem } from "../types";
import { chartItems } from "./chart";
import type { MathBox } from "./math";

/** Word's default text box insets (left/right, top/bottom), pt: where a text box's text starts. */
export const BOX_INSET_X = 7.2;
export const BOX_INSET_Y = 3.6;

type TextBox = Extract<ObjectInline, { type: "box" }>;

/**
 * A text box's text, laid out inside its insets and placed at the top, middle or bottom of the box
 * whose top-left corner is (x, y), as LibreOffice places it (not clipped).
 */
export function textBoxItems(
  box: TextBox,
  x: number,
  y: number,
  width: number,
  height: number,
  ctx: LayoutContext,
): PaintItem[] {
  if (box.parts) return groupItems(box.parts, x, y, ctx);
  const ins = box.insets ?? { left: BOX_INSET_X, top: BOX_INSET_Y, right: BOX_INSET_X, bottom: BOX_INSET_Y };
  if (!box.blocks.length) return [];
  // A box narrower than its insets still shows its text, a character a line (not lost).
  // A box's tables are not the header's own (LayoutContext.partTables).
  const boxCtx = ctx.partTables ? { ...ctx, partTables: false } : ctx;
  const stack = ctx.routines.stackBlocks(box.blocks, Math.max(1, width - ins.left - ins.right), boxCtx);
  // The last paragraph's space after does not count where the text is placed (LibreOffice, measured).
  const room = height - ins.top - ins.bottom - (stack.height - (stack.spaceBelow ?? 0));
  const dy = box.textAnchor === "bottom" ? room : box.textAnchor === "middle" ? room / 2 : 0;
  return stack.items.map((item) => translateItem(item, x + ins.left, y + ins.top + Math.max(0, dy)));
}

/** A box's line (a:ln, a text box's border) around its w × h rectangle at (x, y); none when nil or none. */
export function boxFrameItems(b: Border | null | undefined, x: number, y: number, w: number, h: number): PaintItem[] {
  if (!b || b.style === "nil" || b.style === "none" || !(b.width > 0)) return [];
  const line = (x1: number, y1: number, x2: number, y2: number): PaintItem => ({
    kind: "line",
    x1,
    y1,
    x2,
    y2,
    width: b.width,
    color: b.color,
  });
  return [line(x, y, x + w, y), line(x + w, y, x + w, y + h), line(x + w, y + h, x, y + h), line(x, y + h, x, y)];
}

/** A group's parts, the group's top-left corner at (x, y): pictures, and text boxes with fill, text and line. */
function groupItems(parts: GroupPart[], x: number, y: number, ctx: LayoutContext): PaintItem[] {
  const out: PaintItem[] = [];
  for (const { x: dx, y: dy, inline: part } of parts) {
    const [px, py, w, h] = [x + dx, y + dy, part.width, part.height];
    if (part.type === "image") {
      out.push({ kind: "image", x: px, y: py, width: w, height: h, image: part.image });
      continue;
    }
    if (part.fill) out.push({ kind: "rect", x: px, y: py, width: w, height: h, fill: part.fill });
    out.push(...textBoxItems(part, px, py, w, h, ctx));
    out.push(...boxFrameItems(part.border, px, py, w, h));
  }
  return out;
}

/**
 * The items of an inline object whose bottom-left corner stands at (x, y) (y: the baseline, less
 * its rise); `math`: the equation it holds, set (objects/math.ts).
 */
export function inlineObjectItems(
  obj: ObjectInline,
  math: MathBox | undefined,
  x: number,
  y: number,
  ctx: LayoutContext,
  out: PaintItem[],
): void {
  if (math) {
    for (const item of math.items) out.push(translateItem(item, x, y));
    return;
  }
  const top = y - obj.height;
  if (obj.type === "image") {
    out.push({ kind: "image", x, y: top, width: obj.width, height: obj.height, image: obj.image });
    return;
  }
  // Inline text boxes: frame, then their text inset as in a floating box (not clipped).
  if (obj.fill) out.push({ kind: "rect", x, y: top, width: obj.width, height: obj.height, fill: obj.fill });
  if (obj.chart) out.push(...chartItems(obj.chart, { x, y: top, width: obj.width, height: obj.height }, ctx.fonts));
  // An inline box narrower than Word's insets shows no text (as before: a box of a line's height).
  if (obj.width > 2 * BOX_INSET_X && obj.height > 0) out.push(...textBoxItems(obj, x, top, obj.width, obj.height, ctx));
  if (obj.border && obj.border.width > 0) {
    const b = obj.border;
    const c = b.color;
    out.push({ kind: "line", x1: x, y1: top, x2: x + obj.width, y2: top, width: b.width, color: c });
    out.push({ kind: "line", x1: x, y1: y, x2: x + obj.width, y2: y, width: b.width, color: c });
    out.push({ kind: "line", x1: x, y1: top, x2: x, y2: y, width: b.width, color: c });
    out.push({ kind: "line", x1: x + obj.width, y1: top, x2: x + obj.width, y2: y, width: b.width, color: c });
  }
}
