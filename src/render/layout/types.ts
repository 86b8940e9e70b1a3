/**
 * The layout result: pages of positioned drawing items, the contract between layout and paint.
 * Coordinates are in pt from the page's top-left corner, y growing downwards (paint flips them).
 */
import type { Color, UnderlineStyle } from "../model/types";
import type { FontFace } from "../fonts/types";
import type { WorkBudget } from "../../util/work-budget";

export type PaintItem =
  /**
   * A piece of text drawn with one face at one size; `y` is the baseline; `rtl`: at a right-to-left
   * bidi level (paint reverses and mirrors it); `typed`: the characters copied and searched where
   * `text` draws others (vertical forms of punctuation); `joinBefore`/`joinAfter`: part of a word
   * stretched by a kashida, its first/last letter shaped as joined across the stretch.
   */
  | {
      kind: "text";
      x: number;
      y: number;
      text: string;
      face: FontFace;
      size: number;
      color: Color | null;
      charSpacing?: number;
      scale?: number;
      width: number;
      rtl?: boolean;
      typed?: string;
      kern?: boolean;
      joinBefore?: boolean;
      joinAfter?: boolean;
      noteLabelOf?: string;
    }
  /** Filled rectangle (shading, highlight). */
  | { kind: "rect"; x: number; y: number; width: number; height: number; fill: Color }
  /** Straight line (borders, underline, strike, leaders drawn as lines). */
  | {
      kind: "line";
      x1: number;
      y1: number;
      x2: number;
      y2: number;
      width: number;
      color: Color | null;
      style?: UnderlineStyle | "dashed" | "dotted" | "double";
    }
  /** Filled polygon (chart pie slices): `points` are dx0, dy0, dx1, dy1 ... from (x, y), its top-left corner. */
  | { kind: "polygon"; x: number; y: number; points: number[]; fill: Color }
  /** Image id from DocumentModel.images, scaled into the box. */
  | { kind: "image"; x: number; y: number; width: number; height: number; image: string }
  /** Clickable area opening a URI (w:hyperlink with r:id to an external target). */
  | { kind: "link"; x: number; y: number; width: number; height: number; uri: string };

export interface LaidOutPage {
  width: number;
  height: number;
  /** Items in painting order (backgrounds first). */
  items: PaintItem[];
}

export interface LaidOutDocument {
  pages: LaidOutPage[];
  title?: string;
}

// ---------------------------------------------------------------------------------------------
// Contracts between the layout modules: inline/ (lines), block/ (stacks and tables), flow/ (pages).

import type { Anchor, Block, Inline, NumberFormat, Paragraph, Table } from "../model/types";
import type { FontBook } from "../fonts/types";

/** What every block-level layout function needs besides the block. */
export interface LayoutContext {
  fonts: FontBook;
  /** The fill behind the blocks being laid out (a shaded table cell's): automatic text colour contrasts with it. */
  background?: Color | null;
  /** The document's layout work budget (render/budgets.ts), shared by every context derived from it. */
  budget: WorkBudget;
  /** w:defaultTabStop, pt. */
  defaultTabStop: number;
  /**
   * Value of a PAGE/NUMPAGES/SECTIONPAGES field where it is known (headers and footers are laid out
   * per page, after pagination); undefined → the field's cached result is shown.
   */
  fieldValue(field: "PAGE" | "NUMPAGES" | "SECTIONPAGES", format: NumberFormat): string | undefined;
  /** Line grid pitch (pt) of the section's body text (w:docGrid type lines), if any: single-spaced lines snap to it. */
  linePitch?: number;
  /** The document's paragraph spacing adds up (DocumentModel.paragraphSpacingAdds) instead of keeping the larger. */
  paragraphSpacingAdds?: boolean;
  /** Laying out a table cell's content: CJK punctuation does not hang past the cell's edge (LibreOffice, measured). */
  inTableCell?: boolean;
  /**
   * Stacks record their paragraphs' lines for line numbering (`StackedBlocks.numberedLines`): set for
   * headers, footers and footnotes when the document numbers lines; a table's cells never count.
   */
  countLines?: boolean;
  /**
   * Laying out a header's or footer's own blocks: LibreOffice counts what its tables' cells add below
   * their last paragraph (space after and proportional line spacing) twice. Not passed into cells.
   */
  partTables?: boolean;
  /** Tables the content being laid out sits in (0 in the body, a header, a note); past LIMITS.render.maxNesting a table is flattened. */
  tableDepth: number;
  /** The layout entry points, for content that holds blocks (cells, text boxes): see `LayoutRoutines`. */
  routines: LayoutRoutines;
}

/**
 * The layout entry points that call each other: a stack lays out paragraphs and tables, a table's
 * cells are stacks, a paragraph's text box stacks blocks. They are wired once (layout/index.ts)
 * and reached through the context, as typst routes its layout recursion through one table of
 * routines, so no module imports another's entry point and the modules form no import cycle.
 */
export interface LayoutRoutines {
  layoutParagraph: LayoutParagraph;
  stackBlocks: StackBlocks;
  stackTable: StackTable;
  placeTable: PlaceTable;
}

/** One line of a paragraph. Item coordinates are relative to the line box: x from the paragraph's box left edge, y from the line top. */
export interface LineBox {
  height: number;
  /** Baseline offset from the line top. */
  baseline: number;
  /** Proportional-spacing room below a paragraph's last line (inside `height`): like space after, it need not fit at a page bottom. */
  extraBelow?: number;
  /** Proportional-spacing room above the text of a line after the first (inside `height`; dropped at a page top). */
  extraAbove?: number;
  /** The proportional-spacing room a paragraph's first line leaves out (not in `height`; see pushBelowFloats). */
  extraWithheld?: number;
  items: PaintItem[];
  /** An explicit page or column break ends this line (w:br type=page/column inside the paragraph). */
  breakAfter?: "page" | "column";
  /** The line holds nothing but the paragraph mark (and floats' anchors): not a space or tab. */
  markOnly?: boolean;
  /** Footnote references placed on this line ("footnote:ID"), so the flow can keep the note on the same page. */
  noteRefs?: string[];
}

/** A picture or text box in a paragraph: inline (on a line) or anchored (floating). */
export type ObjectInline = Extract<Inline, { type: "image" } | { type: "box" }>;

/** A floating object (anchored image or text box) met in a paragraph; the flow positions it. */
export interface FloatingObject {
  inline: ObjectInline;
  anchor: Anchor;
  /** Index of the line it is attached to (for relativeTo paragraph/line/character). */
  line: number;
}

export interface ParagraphLayout {
  /** Space before/after in pt, before contextual-spacing suppression (the flow applies that). */
  spaceBefore: number;
  spaceAfter: number;
  lines: LineBox[];
  floats: FloatingObject[];
}

/**
 * Width left and right of text at a vertical position, when floats with square wrap sit beside the
 * paragraph: offsets in pt from the box's left and right edges for a line spanning [top, top+height)
 * measured from the paragraph's first line top.
 */
export type Exclusions = (top: number, height: number) => { left: number; right: number };

/**
 * inline/paragraph.ts: `layoutParagraph(p, width, ctx, exclusions?, widthOf?) → ParagraphLayout`; `widthOf`
 * gives line `k` its own width (a paragraph continued in a column of another width).
 */
export type LayoutParagraph = (
  p: Paragraph,
  width: number,
  ctx: LayoutContext,
  exclusions?: Exclusions,
  widthOf?: (line: number) => number,
) => ParagraphLayout;

/** The current column of the current page, in page coordinates. */
export interface FlowArea {
  left: number;
  width: number;
  top: number;
  bottom: number;
}

/**
 * Block placement writes through a cursor that owns pages and columns, so tables and paragraphs
 * can break across pages without knowing about sections, headers or footnotes.
 */
export interface FlowCursor {
  readonly area: FlowArea;
  /** Next free y in the area (page coordinates); blocks advance it. */
  y: number;
  /** Adds an item to the current page (page coordinates). */
  emit(item: PaintItem): void;
  /** Moves to the next column, or the next page when in the last column (or when `kind` is "page"). */
  breakArea(kind: "column" | "page"): void;
  /** True when nothing has been placed in the current area yet (never break there again). */
  atAreaTop(): boolean;
  /**
   * Footnotes referenced by content placed now; the flow reserves room for them at the page bottom.
   * With `lineBottom` (the bottom of the referencing line or row part), a note that does not fit
   * below it runs on to the next page.
   */
  noteRefs(ids: string[], lineBottom?: number): void;
  /**
   * Room content referencing `ids` needs below it to stay in this area: the new notes whole, but
   * only the start of the last one, which may run on (the pager's `notesNeed`); none when absent.
   */
  notesNeed?(ids: readonly string[]): number;
  /** Height still usable in this area, after reserving room for footnotes already referenced. */
  remaining(): number;
}

/**
 * block/table.ts: places a table at the cursor, splitting rows across pages and repeating header rows;
 * its last row shares its page with `keepAfter` pt of what follows (the row keeps with the next paragraph).
 */
export type PlaceTable = (t: Table, cursor: FlowCursor, ctx: LayoutContext, keepAfter?: number) => void;

/**
 * block/table.ts: a table laid out without pagination at `top` in a box of `width` starting at x = 0
 * (cells, text boxes, headers): its items, the y below it and its row boundaries.
 */
export type StackTable = (
  t: Table,
  width: number,
  ctx: LayoutContext,
  top: number,
) => {
  items: PaintItem[];
  bottom: number;
  breakPoints: number[];
  /** Room the content asks for above it when continued on a new page from a break point (negative: moved down). */
  continueTrim: Map<number, number>;
};

/** Height and items of blocks laid out in a fixed width without pagination (table cells, text boxes, notes, headers). */
export interface StackedBlocks {
  height: number;
  /** Lines of every paragraph in order with their y offset from the top; tables as groups of items. */
  items: PaintItem[];
  /** Break points (y offsets) where the stack may be split across pages. */
  breakPoints: number[];
  /** Proportional-spacing extra above the line after a break point, dropped when the stack continues on a new page. */
  continueTrim?: Map<number, number>;
  /** Space after the last block, included in `height` (LibreOffice drops it below a page's last footnote). */
  spaceBelow?: number;
  /** What a table cell ends with below its last line (space after, else the proportional extra), included in `height`: it may run past the page bottom where the row splits (LibreOffice). */
  endSlack?: number;
  /** With `LayoutContext.countLines`: the lines line numbering counts, baselines from the stack's top. */
  numberedLines?: { baseline: number; height: number }[];
  /** Note references of the stack's paragraph lines, by the top of the line that makes them. */
  noteLines?: { top: number; ids: string[] }[];
}
/** block/stack.ts; `inCell`: the stack is a table cell's content, which grows to hold its wrapped floats. */
export type StackBlocks = (
  blocks: Block[],
  width: number,
  ctx: LayoutContext,
  opts?: { inCell?: boolean },
) => StackedBlocks;

/** A section's page size and margins, pt, made sane (flow/sections.ts `sanePage`). */
export interface PageBox {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}
