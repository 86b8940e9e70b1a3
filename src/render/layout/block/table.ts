/**
 * Tables: placed at the flow cursor (rows across pages, table-pagination.ts) or stacked without
 * pagination in a cell, text box or header, once measured (table-prepare.ts). Tables nested past
 * the limit show their paragraphs one after another.
 */
import type { Block, Paragraph, Table } from "../../model/types";
import { LIMITS } from "../../../limits";
import { translateItem } from "../items";
import type { FlowCursor, LayoutContext, PaintItem, PlaceTable } from "../types";
import { stackBlocks } from "./stack";
import { paginate } from "./table-pagination";
import { prepareTable } from "./table-prepare";

/** Tables currently being laid out inside each other (cells hold tables). */
let nesting = 0;

export const placeTable: PlaceTable = (t, cursor, ctx) => placeTableKeeping(t, cursor, ctx, 0);

/**
 * Places a table whose last row must share its page with `keepAfter` pt of what follows (the row's
 * paragraphs keep with the next one): a last row that fits only without them moves to the next page.
 */
export function placeTableKeeping(t: Table, cursor: FlowCursor, ctx: LayoutContext, keepAfter: number): void {
  if (nesting >= LIMITS.render.maxNesting) return placeFlattened(t, cursor, ctx);
  nesting++;
  try {
    const prepared = prepareTable(t, cursor.area.left, cursor.area.width, ctx, nesting > 1);
    paginate(prepared, cursor, undefined, keepAfter);
  } finally {
    nesting--;
  }
}

/** Whether a cell of the table's last row starts with a keep-with-next paragraph (LibreOffice keeps the row with what follows). */
export function lastRowKeepsWithNext(t: Table): boolean {
  const row = t.rows[t.rows.length - 1];
  return !!row && row.cells.some((c) => c.blocks[0]?.type === "paragraph" && c.blocks[0].style.keepNext);
}

/**
 * A table laid out without pagination at `top` in a box of `width` starting at x = 0 (for cells,
 * text boxes, headers). Returns the items, the y below the table and the row boundaries.
 */
export function stackTable(t: Table, width: number, ctx: LayoutContext, top: number): { items: PaintItem[]; bottom: number; breakPoints: number[] } {
  const items: PaintItem[] = [];
  const breakPoints: number[] = [];
  const cursor = unboundedCursor(width, top, items);
  if (nesting >= LIMITS.render.maxNesting) {
    placeFlattened(t, cursor, ctx);
    return { items, bottom: cursor.y, breakPoints };
  }
  nesting++;
  try {
    const prepared = prepareTable(t, 0, width, ctx, nesting > 1);
    paginate(prepared, cursor, (y) => breakPoints.push(y));
  } finally {
    nesting--;
  }
  return { items, bottom: cursor.y, breakPoints };
}

/** A cursor with one endless area: nothing ever breaks. */
function unboundedCursor(width: number, top: number, items: PaintItem[]): FlowCursor {
  return {
    area: { left: 0, width, top, bottom: Number.POSITIVE_INFINITY },
    y: top,
    emit: (item) => void items.push(item),
    breakArea: () => {},
    atAreaTop: () => true,
    noteRefs: () => {},
    remaining: () => Number.POSITIVE_INFINITY,
  };
}

/** Beyond the nesting limit a table's paragraphs are shown one after another (text kept, grid lost). */
function placeFlattened(t: Table, cursor: FlowCursor, ctx: LayoutContext): void {
  const paragraphs: Paragraph[] = [];
  const pending: Block[] = [t];
  while (pending.length > 0) {
    const b = pending.shift()!;
    if (b.type === "paragraph") paragraphs.push(b);
    else for (const row of b.rows) for (const cell of row.cells) pending.push(...cell.blocks);
  }
  const stacked = stackBlocks(paragraphs, cursor.area.width, ctx);
  for (const item of stacked.items) cursor.emit(translateItem(item, cursor.area.left, cursor.y));
  cursor.y += stacked.height;
}
