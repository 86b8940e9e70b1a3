/** Moving paint items from a local box (line, stack, text box) into page coordinates. */
import type { PaintItem } from "./types";

export function translateItem(item: PaintItem, dx: number, dy: number): PaintItem {
  if (item.kind === "line") return { ...item, x1: item.x1 + dx, x2: item.x2 + dx, y1: item.y1 + dy, y2: item.y2 + dy };
  return { ...item, x: item.x + dx, y: item.y + dy };
}

export function translateItems(items: readonly PaintItem[], dx: number, dy: number, into: PaintItem[]): void {
  for (const item of items) into.push(translateItem(item, dx, dy));
}
