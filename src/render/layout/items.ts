/** Paint items moved from a local box (line, stack, cell, text box) into its parent's coordinates. */
import type { PaintItem } from "./types";

/** A copy of `item` moved by (dx, dy). */
export function translateItem(item: PaintItem, dx: number, dy: number): PaintItem {
  if (item.kind === "line") return { ...item, x1: item.x1 + dx, x2: item.x2 + dx, y1: item.y1 + dy, y2: item.y2 + dy };
  return { ...item, x: item.x + dx, y: item.y + dy };
}

export function translateItems(items: readonly PaintItem[], dx: number, dy: number, into: PaintItem[]): void {
  for (const item of items) into.push(translateItem(item, dx, dy));
}

/**
 * The y that decides which line (and so which page part) an item belongs to: the baseline of
 * text, the top of boxes, the upper end of lines. It always lies inside the item's line box.
 */
export function anchorY(item: PaintItem): number {
  if (item.kind === "line") return Math.min(item.y1, item.y2);
  return item.y;
}
