/**
 * Layout: a document model laid out into pages of positioned paint items (types.ts). The rooms,
 * in the order a document goes through them:
 *
 * - flow/: pages: sections, columns, the pager, paragraphs paginated, floats, footnotes, headers
 *   and footers (flow/document.ts runs it);
 * - block/: blocks without pagination (stacks for cells, text boxes, headers and notes) and tables
 *   (measured, then placed across pages or stacked);
 * - inline/: a paragraph's lines: pieces, line breaking, arrangement, height, items;
 * - objects/: what stands in or floats beside the text: equations, charts, floats, metafiles,
 *   inline pictures and text boxes.
 *
 * The entry points that recurse into each other (a cell holds a table, a text box holds
 * paragraphs) are wired here, once, into the context's `routines`: no other module imports them.
 */
import type { FontBook } from "../fonts/types";
import type { DocumentModel } from "../model/types";
import { stackBlocks } from "./block/stack";
import { placeTable, stackTable } from "./block/table";
import { flowDocument } from "./flow/document";
import { layoutParagraph } from "./inline/paragraph";
import type { LaidOutDocument, LayoutContext, LayoutRoutines } from "./types";
import { layoutBudget } from "../budgets";
import type { WorkBudget } from "../../util/work-budget";

export const ROUTINES: LayoutRoutines = { layoutParagraph, stackBlocks, stackTable, placeTable };

/**
 * A body context: no table around it, no field values known yet (their cached results show); its
 * work counts against `budget` (a fresh `layoutBudget()` unless given).
 */
export function layoutContext(
  fonts: FontBook,
  defaultTabStop = 36,
  budget: WorkBudget = layoutBudget(),
): LayoutContext {
  return { fonts, budget, defaultTabStop, fieldValue: () => undefined, tableDepth: 0, routines: ROUTINES };
}

/** Lays out the document; `budget` counts the work and stops it at its limit (422 render_limit). */
export function layoutDocument(
  model: DocumentModel,
  fonts: FontBook,
  budget: WorkBudget = layoutBudget(),
): LaidOutDocument {
  const ctx = layoutContext(fonts, model.defaultTabStop > 0 ? model.defaultTabStop : 36, budget);
  if (model.paragraphSpacingAdds) ctx.paragraphSpacingAdds = true;
  return flowDocument(model, ctx);
}
