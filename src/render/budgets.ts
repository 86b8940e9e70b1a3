/**
 * The renderer's work budgets and their refusal, 422 `render_limit`. Layout ticks for the
 * characters it measures and the pieces it places (tables, headers on every page and balancing
 * trials lay out again, and count again) against `LIMITS.render.maxLayoutWork`; painting counts
 * the pixels of the pictures it decodes against `LIMITS.paint.maxDecodedPixels`. Documents past
 * the page and paragraph limits are refused the same way.
 */
import { LimitExceeded } from "../errors";
import { LIMITS } from "../limits";
import { WorkBudget } from "../util/work-budget";

/**
 * A unit is about a microsecond of layout on the development machine (measured on hostile
 * documents of each kind: 0.2-1.3 µs). A piece placed on a line is one unit; characters measured
 * are cheaper (`measureWork`); a paragraph laid out costs the flow more than its characters (an
 * empty one about 6 µs), and a page opened about 20 µs to lay out plus its page object to paint.
 */
export const PARAGRAPH_WORK = 8;
export const PAGE_WORK = 100;
const CHARS_PER_UNIT = 16;

/** Units for measuring (or scanning) `chars` characters. */
export function measureWork(chars: number): number {
  return Math.ceil(chars / CHARS_PER_UNIT);
}

/** 422 `render_limit`: the document cannot be laid out within one of Signet's rendering limits. */
export function renderLimit(what: string): LimitExceeded {
  return new LimitExceeded("render_limit", `The document ${what}; Signet renders documents within its limits only.`);
}

export function layoutBudget(max: number = LIMITS.render.maxLayoutWork): WorkBudget {
  return new WorkBudget(max, (m) =>
    renderLimit(
      `needs more than ${m} units of layout work (characters measured and pieces placed): it is too long or too complex`,
    ),
  );
}

/** Pixels of PNG and GIF pictures pdf-lib decodes for one document (JPEGs are copied, not decoded). */
export function imageBudget(max: number = LIMITS.paint.maxDecodedPixels): WorkBudget {
  return new WorkBudget(max, (m) => renderLimit(`has pictures to decode of more than ${m} pixels together`));
}
