/**
 * Headers and footers: which part a page shows (title page → first, even pages with
 * evenAndOddHeaders → even, else default), their heights before pagination (with placeholder page
 * numbers, so a tall header can push the body down), and their items per page once NUMPAGES is known.
 */
import type { Block, DocumentModel, NumberFormat, Paragraph, Section } from "../../model/types";
import { floatPartTables } from "./floating-tables";
import type { LayoutContext, PaintItem, StackedBlocks } from "../types";
import { translateItems } from "../items";
import type { NumberedLine } from "./pager";
import { stackLines } from "./line-numbers";

export interface PartChoice {
  firstOfSection: boolean;
  pageNumber: number;
}

/**
 * The header or footer part id a page shows; undefined = none (a missing first part is blank). A
 * page left without a part where the section has one for the other parity (an even part and no
 * default, or the reverse under evenAndOddHeaders) shows the empty part `empty`: LibreOffice keeps
 * the header on for both and it takes its room (measured, with and without evenAndOddHeaders).
 */
export function choosePart(
  parts: Section["headers"],
  section: Pick<Section, "titlePage">,
  evenAndOddHeaders: boolean,
  page: PartChoice,
  empty?: string,
): string | undefined {
  if (section.titlePage && page.firstOfSection) return parts.first;
  if (!evenAndOddHeaders) return parts.default ?? (parts.even !== undefined ? empty : undefined);
  const even = page.pageNumber % 2 === 0;
  const own = even ? parts.even : parts.default;
  return own ?? ((even ? parts.default : parts.even) !== undefined ? empty : undefined);
}

/** Stacks of header/footer parts in a width, cached: for heights before pagination. */
export class PartHeights {
  private readonly cache = new Map<string, number>();
  private readonly ctx: LayoutContext;
  constructor(
    private readonly model: DocumentModel,
    ctx: LayoutContext,
  ) {
    this.ctx = partContext(ctx);
  }

  height(partId: string | undefined, width: number): number {
    if (partId === undefined) return 0;
    const key = `${partId}@${width}`;
    let h = this.cache.get(key);
    if (h === undefined) {
      const blocks = this.model.headerFooters.get(partId);
      h =
        blocks && blocks.length > 0
          ? this.ctx.routines.stackBlocks(partBlocks(blocks, width, this.ctx), width, this.ctx).height
          : 0;
      this.cache.set(key, h);
    }
    return h;
  }
}

/** Field values of one page (PAGE in the section's format unless the field names its own). */
export function pageFieldContext(
  base: LayoutContext,
  values: { page: string; pageNumber: number; sectionFormat: NumberFormat; numPages: number; sectionPages: number },
  format: (n: number, f: NumberFormat) => string,
): LayoutContext {
  return {
    ...base,
    fieldValue(field, fmt) {
      if (field === "PAGE") return fmt === "decimal" ? values.page : format(values.pageNumber, fmt);
      if (field === "NUMPAGES") return format(values.numPages, fmt);
      return format(values.sectionPages, fmt);
    },
  };
}

/** Header items at `top` (from the page top), footer items ending `bottom` pt above the page bottom. */
export function placePart(
  blocks: Block[] | undefined,
  kind: "header" | "footer",
  box: { left: number; width: number; pageHeight: number; distance: number },
  ctx: LayoutContext,
  into: PaintItem[],
  lines?: NumberedLine[],
): void {
  if (!blocks || blocks.length === 0) return;
  ctx = partContext(ctx);
  blocks = partBlocks(blocks, box.width, ctx);
  let stack: StackedBlocks = ctx.routines.stackBlocks(blocks, box.width, ctx);
  const top = kind === "header" ? box.distance : box.pageHeight - box.distance - stack.height;
  // Objects placed against the page are laid out again at their page position (floats take no height).
  const pinned = pinPageAnchors(blocks, box.left, top);
  if (pinned !== blocks) stack = ctx.routines.stackBlocks(pinned, box.width, ctx);
  translateItems(stack.items, box.left, top, into);
  stackLines(stack, box.left, top, lines);
}

/** The context a header's or footer's own blocks are laid out in (LayoutContext.partTables). */
function partContext(ctx: LayoutContext): LayoutContext {
  return ctx.partTables ? ctx : { ...ctx, partTables: true };
}

const partBlocksCache = new WeakMap<Block[], { width: number; blocks: Block[] }>();
/** Paragraphs of parts given the floating table above them (floating-tables.ts). */
const anchoring = new WeakMap<Paragraph, Paragraph>();

/**
 * A header's or footer's blocks (`width` wide) with its floating tables made floats of the
 * paragraphs after them (floating-tables.ts). Same array when no table.
 */
function partBlocks(blocks: Block[], width: number, ctx: LayoutContext): Block[] {
  if (!blocks.some((b) => b.type === "table")) return blocks;
  const cached = partBlocksCache.get(blocks);
  if (cached && cached.width === width) return cached.blocks;
  const out = floatPartTables(blocks, width, ctx, anchoring);
  partBlocksCache.set(blocks, { width, blocks: out });
  return out;
}

/**
 * A header's or footer's floating objects positioned by offset against the page (a cover page's
 * footer band) made relative to the part's own box at (`left`, `top`), where the stack puts them.
 * Returns `blocks` itself when nothing changes.
 */
function pinPageAnchors(blocks: Block[], left: number, top: number): Block[] {
  let changed = false;
  const out = blocks.map((b) => {
    if (b.type !== "paragraph") return b;
    let touched = false;
    const inlines = b.inlines.map((inl) => {
      if ((inl.type !== "image" && inl.type !== "box") || !inl.anchor) return inl;
      const { x, y } = inl.anchor;
      const pinX = x.relativeTo === "page" && !x.align;
      const pinY = y.relativeTo === "page" && !y.align;
      if (!pinX && !pinY) return inl;
      touched = true;
      return {
        ...inl,
        anchor: {
          ...inl.anchor,
          x: pinX ? { relativeTo: "column" as const, offset: (x.offset ?? 0) - left } : x,
          y: pinY ? { relativeTo: "paragraph" as const, offset: (y.offset ?? 0) - top } : y,
        },
      };
    });
    if (!touched) return b;
    changed = true;
    return { ...b, inlines };
  });
  return changed ? out : blocks;
}
