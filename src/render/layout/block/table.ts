/**
 * Tables: placed at the flow cursor (rows across pages, table-pagination.ts) or stacked without
 * pagination in a cell, text box or header, once measured (table-prepare.ts). Tables nested past
 * the limit show their paragraphs one after another.
 */
import type { Block, Paragraph, Table } from "../../model/types";
import { LIMITS } from "../../../limits";
import { translateItem } from "../items";
import type { FlowCursor, LayoutContext, PaintItem, PlaceTable, StackTable } from "../types";
import { paginate } from "./table-pagination";
import { prepareTable } from "./table-prepare";

/**
 * Places a table at the cursor; its last row must share its page with `keepAfter` pt of what follows
 * (the row's paragraphs keep with the next one): a last row that fits only without them moves to
 * the next page.
 */
export const placeTable: PlaceTable = (t, cursor, ctx, keepAfter = 0) => {
  if (ctx.tableDepth >= LIMITS.render.maxNesting) return placeFlattened(t, cursor, ctx);
  paginate(prepareTable(t, cursor.area.left, cursor.area.width, ctx), cursor, undefined, keepAfter);
};

export const stackTable: StackTable = (t, width, ctx, top) => {
  const items: PaintItem[] = [];
  const breakPoints: number[] = [];
  const continueTrim = new Map<number, number>();
  const onBreakPoint = (y: number, trim = 0) => {
    breakPoints.push(y);
    if (trim !== 0) continueTrim.set(y, trim);
  };
  const cursor = unboundedCursor(width, top, items);
  if (ctx.tableDepth >= LIMITS.render.maxNesting) placeFlattened(t, cursor, ctx, onBreakPoint);
  else paginate(prepareTable(t, 0, width, ctx), cursor, onBreakPoint);
  return { items, bottom: cursor.y, breakPoints, continueTrim };
};

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

/**
 * Beyond the nesting limit a table's paragraphs are shown one after another (text kept, grid lost);
 * `onBreakPoint` hears where they may be cut (their line boundaries).
 */
function placeFlattened(t: Table, cursor: FlowCursor, ctx: LayoutContext, onBreakPoint?: (y: number) => void): void {
  const paragraphs: Paragraph[] = [];
  const pending: Block[] = [t];
  while (pending.length > 0) {
    const b = pending.shift()!;
    if (b.type === "paragraph") paragraphs.push(b);
    else for (const row of b.rows) for (const cell of row.cells) pending.push(...cell.blocks);
  }
  const stacked = ctx.routines.stackBlocks(paragraphs, cursor.area.width, ctx);
  for (const item of stacked.items) cursor.emit(translateItem(item, cursor.area.left, cursor.y));
  for (const bp of stacked.breakPoints) onBreakPoint?.(cursor.y + bp);
  cursor.y += stacked.height;
}
