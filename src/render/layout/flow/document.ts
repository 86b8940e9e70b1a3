/**
 * Page flow of the DOCX renderer: sections (page box, margins, columns, start types, page
 * numbering), paragraphs and tables placed through the pager with keep/widow rules, floats,
 * footnotes at the page bottom, endnotes at the end, and headers/footers laid out per page once the
 * page count is known.
 */
import { EMPTY_PARTS, type Block, type DocumentModel, type NumberFormat, type Paragraph, type Section, type Table } from "../../model/types";
import { turnPageBack, turnSection } from "./vertical";
import { drawMetafiles } from "../objects/metafile";
import type { FontBook } from "../../fonts/types";
import type { LaidOutDocument, LaidOutPage, LayoutContext, PaintItem, ParagraphLayout } from "../types";
import { layoutParagraph } from "../inline/paragraph";
import { lastRowKeepsWithNext, placeTableKeeping, stackTable } from "../block/table";
import { bordersJoin, stackBlocks } from "../block/stack";
import { BOX_INSET_X, BOX_INSET_Y } from "../objects/inline-objects";
import { Pager, RegionOverflow, type FlowPage, type PageGeometry, type PagerSnapshot } from "./pager";
import { leadingHeight, paragraphHeight, placeParagraph, type ParagraphFlowRules, type PlacedLine, type Relayout } from "./paragraph-pagination";
import { exclusionsFor, floatsBeside, floatWrap, positionFloat } from "../objects/floats";
import { shownBlocks } from "../block/hidden-paragraph";
import { translateItems } from "../items";
import { chartItems } from "../objects/chart";
import { choosePart, pageFieldContext, PartHeights, placePart } from "./header-footer";
import { formatNumber } from "../../model/number-format";
import { framePieces, paintFrame, withBorderRoom } from "./paragraph-frame";

/** US Letter with 1-inch margins: the page of a document without sections. */
const DEFAULT_SECTION: Section = {
  pageWidth: 612,
  pageHeight: 792,
  margins: { top: 72, right: 72, bottom: 72, left: 72, header: 36, footer: 36, gutter: 0 },
  columns: { count: 1, space: 36, separator: false },
  start: "nextPage",
  headers: {},
  footers: {},
  titlePage: false,
  pageNumberFormat: "decimal",
  blocks: [],
};

/** Smallest page side and body height we lay out in (hostile sizes are clamped to it). */
const MIN_PAGE_SIDE = 72;
const MIN_BODY = 12;
/** Binary-search steps when balancing columns before a continuous section break. */
const BALANCE_STEPS = 10;
/**
 * The footnote separator as LibreOffice lays it out (its page defaults, kept for DOCX): 57 twips
 * (0.1 cm) above a 0.5 pt line and 57 below it, a quarter of the text width long.
 */
const NOTE_SEPARATOR_GAP = 2.85;
const NOTE_SEPARATOR_WIDTH = 0.5;
const NOTE_SEPARATOR_HEIGHT = 2 * NOTE_SEPARATOR_GAP + NOTE_SEPARATOR_WIDTH;
const NOTE_SEPARATOR_SHARE = 0.25;
/**
 * Where a note's paint item sits when the note is split at a line bottom: a text's baseline (inside
 * its line), anything else just below its top.
 */
function noteItemY(item: PaintItem): number {
  if (item.kind === "text") return item.y;
  if (item.kind === "line") return Math.min(item.y1, item.y2) + 0.25;
  return item.y + 0.25;
}

/** Margins of LibreOffice's endnote pages (2 cm). */
const ENDNOTE_MARGIN = (2 / 2.54) * 72;

export function layoutDocument(model: DocumentModel, fonts: FontBook): LaidOutDocument {
  return new DocumentFlow(model, fonts).run();
}

/** Page box of a section with hostile values made sane. */
function sanePage(s: Section): { width: number; height: number; left: number; right: number; top: number; bottom: number } {
  const num = (v: number, d: number) => (Number.isFinite(v) ? v : d);
  const width = Math.min(Math.max(num(s.pageWidth, 612), MIN_PAGE_SIDE), 14_400);
  const height = Math.min(Math.max(num(s.pageHeight, 792), MIN_PAGE_SIDE), 14_400);
  let left = Math.max(0, num(s.margins.left, 72)) + Math.max(0, num(s.margins.gutter, 0));
  let right = Math.max(0, num(s.margins.right, 72));
  if (width - left - right < MIN_BODY) {
    left = (width - MIN_BODY) / 2;
    right = left;
  }
  return { width, height, left, right, top: num(s.margins.top, 72), bottom: num(s.margins.bottom, 72) };
}

/** The flow's state where a block of a section starts (for balancing trials to resume from). */
interface BlockMark {
  index: number;
  snapshot: PagerSnapshot;
  looseArea: string;
  lastParagraph: Paragraph | undefined;
}

class DocumentFlow {
  private readonly sections: Section[];
  private readonly ctx: LayoutContext;
  /** Context for the current section's body text (its line grid); headers, footers and notes use `ctx`. */
  private bodyCtx: LayoutContext;
  private readonly heights: PartHeights;
  private readonly pager: Pager;
  private readonly layouts = new Map<Paragraph, { width: number; layout: ParagraphLayout }>();
  /** Paragraphs of a bordered group, with the joined sides taken out (see `bordersGrouped`). */
  private readonly joined = new WeakMap<Paragraph, Paragraph>();
  private readonly noteStacks = new Map<string, { height: number; items: PaintItem[]; breakPoints: number[]; spaceBelow?: number }>();
  /** Index of the page the current section started on. */
  private sectionFirstPage = 0;
  /** The area (see `areaKey`) where the last block without keep-with-next ended (a table counts as one). */
  private looseArea = "";
  /** The last block placed (a table is `undefined`), and the one above a continuous section's first block. */
  private lastParagraph: Paragraph | undefined;
  private paragraphAboveSection: Paragraph | undefined;

  constructor(
    private readonly model: DocumentModel,
    fonts: FontBook,
  ) {
    // Vertical sections are laid out on their page turned a quarter turn (layout/vertical.ts).
    this.sections = (model.sections.length > 0 ? [...model.sections] : [DEFAULT_SECTION]).map((s) => (s.vertical ? turnSection(s) : s));
    this.ctx = { fonts, defaultTabStop: model.defaultTabStop > 0 ? model.defaultTabStop : 36, fieldValue: () => undefined };
    // Header heights before pagination: wide page numbers stand in for the real ones.
    this.heights = new PartHeights(model, { ...this.ctx, fieldValue: () => "99" });
    this.bodyCtx = this.ctx;
    this.pager = new Pager({
      geometry: (section, first, number, style) => this.geometry(section, first, number, style),
      numberStart: (section) => this.sections[section]?.pageNumberStart,
      noteHeight: (id) => this.noteHeight(id),
      noteSpaceBelow: (id) => Math.min(this.noteStack(id).spaceBelow ?? 0, this.noteHeight(id)),
      noteBreaks: (id) => this.noteStack(id).breakPoints,
      noteSeparatorHeight: NOTE_SEPARATOR_HEIGHT,
    });
  }

  run(): LaidOutDocument {
    this.sections.forEach((section, i) => {
      this.bodyCtx = section.lineGrid ? { ...this.ctx, linePitch: section.lineGrid.linePitch } : this.ctx;
      this.paragraphAboveSection = undefined;
      if (i > 0) this.startSection(i);
      this.sectionFirstPage = this.pager.pages.length - 1;
      const next = this.sections[i + 1];
      const balance = section.columns.count > 1 && next?.start === "continuous";
      const blocks = next ? withoutBreakMark(section.blocks) : section.blocks;
      if (balance) this.placeBalanced(blocks);
      else this.placeBlocks(blocks);
    });
    // Endnotes follow the body on pages of their own, as LibreOffice prints DOCX endnotes.
    if (this.pager.endnotes.length > 0) {
      this.sections.push(endnoteSection(this.sections[this.sections.length - 1]!));
      this.pager.newPage(this.sections.length - 1);
    }
    for (let i = 0; i < this.pager.endnotes.length; i++) {
      const blocks = this.model.notes.get(this.pager.endnotes[i]!);
      if (blocks) this.placeBlocks(blocks);
    }
    return { pages: drawMetafiles(this.finishPages(), this.model.images, this.ctx.fonts), title: this.model.title };
  }

  // --- sections ------------------------------------------------------------------------------

  /** Page box and columns of `sectionIndex`; header, footer and top/bottom margins of the page style's section. */
  private geometry(sectionIndex: number, firstOfSection: boolean, pageNumber: number, styleIndex = sectionIndex): PageGeometry {
    const s = this.sections[sectionIndex] ?? DEFAULT_SECTION;
    const st = this.sections[styleIndex] ?? s;
    const page = sanePage(s);
    const style = sanePage(st);
    const textWidth = page.width - page.left - page.right;
    const choice = { firstOfSection, pageNumber };
    const headerPart = choosePart(st.headers, st, this.model.evenAndOddHeaders, choice, EMPTY_PARTS.header);
    const footerPart = choosePart(st.footers, st, this.model.evenAndOddHeaders, choice, EMPTY_PARTS.footer);
    const header = this.heights.height(headerPart, style.width - style.left - style.right);
    const footer = this.heights.height(footerPart, style.width - style.left - style.right);
    // A negative top/bottom margin is exact: the body does not move for a tall header/footer. A page
    // without a header (footer) keeps its margin even when the header (footer) distance is larger
    // (LibreOffice turns the header off).
    const top = style.top < 0 || headerPart === undefined ? Math.abs(style.top) : Math.max(style.top, Math.max(0, st.margins.header) + header);
    const bottomMargin = style.bottom < 0 || footerPart === undefined ? Math.abs(style.bottom) : Math.max(style.bottom, Math.max(0, st.margins.footer) + footer);
    let bodyTop = Math.min(Math.max(0, top), page.height - MIN_BODY);
    let bodyBottom = page.height - Math.max(0, bottomMargin);
    if (bodyBottom - bodyTop < MIN_BODY) {
      bodyTop = Math.min(bodyTop, page.height - MIN_BODY);
      bodyBottom = bodyTop + MIN_BODY;
    }
    // LibreOffice centres a whole number of grid lines in the body (measured).
    const pitch = s.lineGrid?.linePitch;
    if (pitch && pitch > 0 && bodyBottom - bodyTop >= pitch) {
      const rest = (bodyBottom - bodyTop) % pitch;
      bodyTop += rest / 2;
      bodyBottom -= rest / 2;
    }
    return { width: page.width, height: page.height, bodyTop, bodyBottom, columns: columnBoxes(s, page.left, textWidth), separator: s.columns.separator };
  }

  private startSection(i: number): void {
    const s = this.sections[i]!;
    const pager = this.pager;
    const page = sanePage(s);
    if (s.start !== "continuous" && s.start !== "nextColumn" && this.emptyBreakPage()) {
      // A page break that ends a section left an empty page: the new section's page replaces it
      // (LibreOffice prints no blank page for a page break just before a section break).
      pager.pages.pop();
    }
    // A turned (vertical) page is another page even where its turned size matches.
    const sameDirection = !!s.vertical === !!this.sections[pager.page.section]?.vertical;
    const samePage = page.width === pager.page.width && page.height === pager.page.height && sameDirection;
    switch (s.start) {
      case "continuous":
        if (samePage) {
          const pages = pager.pages.length;
          pager.continueWith(i);
          // Below the previous section on the same page, the paragraph gap is max(after, before) as
          // between any two paragraphs (LibreOffice, measured).
          if (pager.pages.length === pages) this.paragraphAboveSection = this.lastParagraph;
        } else pager.newPage(i);
        return;
      case "nextColumn":
        if (samePage && pager.columnIndex < pager.columnCount - 1) pager.breakArea("column", "hard");
        else pager.newPage(i);
        return;
      case "evenPage":
      case "oddPage": {
        const wantEven = s.start === "evenPage";
        if ((pager.nextNumber(i) % 2 === 0) !== wantEven) pager.blankPage();
        pager.newPage(i);
        return;
      }
      default:
        pager.newPage(i);
    }
  }

  /**
   * Columns of a section followed by a continuous break end level (Word and LibreOffice balance
   * them): find the lowest column bottom at which the blocks still fit. A section that runs onto
   * further pages fills its columns there and is balanced on its last page only (LibreOffice): the
   * trials place it all again with the limit on that page.
   */
  private placeBalanced(blocks: Block[]): void {
    const pager = this.pager;
    const start = pager.snapshot();
    const marks: BlockMark[] = [];
    this.placeBlocks(blocks, 0, marks);
    const page = pager.pages.length - 1;
    const pages = pager.pages.length;
    const full = pager.contentBottom();
    // The last page's region of this section: it starts at the top of the body there.
    let lo = page === start.pages - 1 ? start.y : pager.area.top;
    let hi = full;
    // Trials start again from the last block that began on an earlier page: what comes before it
    // does not depend on the limit (the first block when the section began on this page).
    const resume = [...marks].reverse().find((m) => m.snapshot.pages - 1 < page) ?? marks[0];
    const restart = () => {
      if (!resume) return pager.restore(start);
      pager.restore(resume.snapshot);
      this.looseArea = resume.looseArea;
      this.lastParagraph = resume.lastParagraph;
    };
    const attempt = (limit: number): boolean => {
      restart();
      pager.limitRegion(limit, page);
      try {
        this.placeBlocks(blocks, resume?.index ?? 0);
        return pager.pages.length === pages && pager.contentBottom() <= limit + 0.5;
      } catch (e) {
        if (!(e instanceof RegionOverflow)) throw e;
        return false;
      }
    };
    for (let step = 0; step < BALANCE_STEPS && hi - lo > 1; step++) {
      const mid = (lo + hi) / 2;
      if (attempt(mid)) hi = mid;
      else lo = mid;
    }
    if (!attempt(hi)) {
      restart();
      pager.limitRegion(null);
      this.placeBlocks(blocks, resume?.index ?? 0);
    }
    pager.limitRegion(null);
  }

  // --- blocks --------------------------------------------------------------------------------

  /** Places the shown blocks from index `from`; with `marks`, records the flow state where each block starts. */
  private placeBlocks(allBlocks: Block[], from = 0, marks?: BlockMark[]): void {
    const blocks = this.bordersGrouped(shownBlocks(allBlocks));
    for (let i = from; i < blocks.length; i++) {
      const block = blocks[i]!;
      marks?.push({ index: i, snapshot: this.pager.snapshot(), looseArea: this.looseArea, lastParagraph: this.lastParagraph });
      if (block.type === "table") {
        const keep = lastRowKeepsWithNext(block) && blocks[i + 1]?.type === "paragraph" ? this.keepChainHeight(blocks, i + 1, this.pager.area.width) : 0;
        placeTableKeeping(block, this.pager, this.bodyCtx, keep <= this.pager.areaHeight() ? keep : 0);
        this.pager.markPlaced();
        this.looseArea = this.areaKey();
        this.lastParagraph = undefined;
        continue;
      }
      const prev = i === 0 ? this.paragraphAboveSection : blocks[i - 1];
      const next = blocks[i + 1];
      this.placeParagraphBlock(block, prev?.type === "paragraph" ? prev : undefined, next?.type === "paragraph" ? next : undefined, blocks, i);
      if (!block.style.keepNext) this.looseArea = this.areaKey();
      this.lastParagraph = block;
    }
  }

  /**
   * Consecutive paragraphs with the same borders and indents form one bordered group, as in a cell
   * (LibreOffice, measured in the body too): the sides where they meet are neither drawn nor take
   * room; their spacing stays. A joined paragraph stands in for the original (one per paragraph,
   * so its layout is cached like any other).
   */
  private bordersGrouped(blocks: Block[]): Block[] {
    return blocks.map((b, i) => {
      if (b.type !== "paragraph") return b;
      const above = blocks[i - 1];
      const below = blocks[i + 1];
      const prev = above?.type === "paragraph" && bordersJoin(above, b);
      const next = below?.type === "paragraph" && bordersJoin(b, below);
      if (!prev && !next) return b;
      let joined = this.joined.get(b);
      if (!joined) {
        const borders = { ...b.style.borders, top: prev ? undefined : b.style.borders.top, bottom: next ? undefined : b.style.borders.bottom };
        joined = { ...b, style: { ...b.style, borders } };
        this.joined.set(b, joined);
      }
      return joined;
    });
  }

  /** Whether the current page was opened by an explicit break inside the section and holds nothing. */
  private emptyBreakPage(): boolean {
    const pager = this.pager;
    const page = pager.page;
    if (pager.pages.length - 1 <= this.sectionFirstPage || !pager.atAreaTop() || pager.columnIndex !== 0 || page.regions.length !== 1) return false;
    return page.items.length === 0 && page.background.length === 0 && page.foreground.length === 0 && page.notes.length === 0 && page.floats.length === 0;
  }

  /** Identifies the current column of the current region of the current page. */
  private areaKey(): string {
    const pager = this.pager;
    return `${pager.pages.length}:${pager.page.regions.length}:${pager.columnIndex}`;
  }

  private layoutFor(p: Paragraph, width: number): ParagraphLayout {
    const cached = this.layouts.get(p);
    if (cached && cached.width === width) return cached.layout;
    const layout = withBorderRoom(p, layoutParagraph(p, width, this.bodyCtx));
    this.layouts.set(p, { width, layout });
    return layout;
  }

  private rulesFor(p: Paragraph, layout: ParagraphLayout, prev: Paragraph | undefined, next: Paragraph | undefined): ParagraphFlowRules {
    const style = p.style;
    // LibreOffice drops the automatic (HTML-like) space before the document's first paragraph.
    const documentStart = this.pager.start === "document" && this.pager.atAreaTop();
    const before = style.autoSpaceBefore && documentStart ? 0 : ownSpace(p, layout.spaceBefore, prev);
    // LibreOffice (measured on DOCX) separates paragraphs by the larger of the space after and
    // the next space before, not their sum: the space after is already below the previous one.
    const prevAfter = prev ? ownSpace(prev, this.layoutFor(prev, this.pager.area.width).spaceAfter, p) : 0;
    return {
      spaceBefore: before,
      previousAfter: prevAfter,
      spaceAfter: ownSpace(p, layout.spaceAfter, next),
      keepLines: style.keepLines,
      widowControl: style.widowControl,
      pageBreakBefore: style.pageBreakBefore,
      lineMultiple: style.line.rule === "auto" ? style.line.value : 1,
    };
  }

  private placeParagraphBlock(p: Paragraph, prev: Paragraph | undefined, next: Paragraph | undefined, blocks: Block[], index: number): void {
    const pager = this.pager;
    const width = pager.area.width;
    let layout = this.layoutFor(p, width);
    const rules = this.rulesFor(p, layout, prev, next);
    // After a page break the paragraph above is on another page: contextual spacing no longer takes
    // this one's space before (LibreOffice keeps it at the top of the page).
    if (pager.atAreaTop() && pager.start === "hard" && p.style.contextualSpacing) rules.spaceBefore = layout.spaceBefore;
    if (rules.pageBreakBefore && !(pager.atAreaTop() && pager.columnIndex === 0)) {
      pager.breakArea("page", "hard");
      rules.pageBreakBefore = false;
    }
    // LibreOffice moves a keep-with-next chain on only when a block without keep sits above it in
    // this column (a table counts as one): a chain running from the column top is broken where the
    // column is full; a chain below a loose block moves whole, even when it is taller than a page.
    if (p.style.keepNext && !pager.atAreaTop() && this.looseArea === this.areaKey()) {
      const room = pager.remaining();
      if (this.keepChainHeight(blocks, index, width, room) > room) pager.breakArea("column");
    }
    // Square-wrapped floats beside where the paragraph goes: lay it out around them.
    const area = pager.area;
    if (floatsBeside(pager.page.floats, area, pager.y, pager.y + paragraphHeight(layout, rules))) {
      const excl = exclusionsFor(pager.page.floats, area, pager.y + rules.spaceBefore);
      layout = withBorderRoom(p, layoutParagraph(p, width, this.bodyCtx, excl));
    }
    if (layout.floats.length === 0) {
      // Lines that go on in a column of another width are laid out again there (no floats beside).
      const relayout: Relayout | undefined =
        layout === this.layoutFor(p, width) ? { width, at: (widthOf) => withBorderRoom(p, layoutParagraph(p, width, this.bodyCtx, undefined, widthOf)) } : undefined;
      const placed = placeParagraph(pager, layout, rules, relayout);
      this.decorate(p, relayout?.latest ?? layout, placed);
      return;
    }
    // Anchored objects: place the paragraph, position its floats from where it went; when they
    // change the text around them on that page, place it again with them already there.
    const before = pager.snapshot();
    const startedAtTop = pager.atAreaTop();
    const placed = placeParagraph(pager, layout, rules);
    const floats = this.positionFloats(layout, placed);
    const affectsText = floats.some((f) => f.placed.wrap !== "none");
    if (affectsText) {
      pager.restore(before);
      if (pager.pages.length - 1 === floats[0]!.page) {
        for (const f of floats) if (f.page === pager.pages.length - 1) pager.addFloat(f.placed);
        const a = pager.area;
        const excl = exclusionsFor(pager.page.floats, a, pager.y + rules.spaceBefore);
        const relaid = excl ? withBorderRoom(p, layoutParagraph(p, a.width, this.bodyCtx, excl)) : layout;
        const again = placeParagraph(pager, { ...relaid, floats: [] }, rules);
        const pushedOff = !startedAtTop && again[0] !== undefined && again[0].page > floats[0]!.page;
        const top = placed[0]!.top;
        const page = before.pages - 1;
        // An empty paragraph holding only floats, whose line they push off the page, stays on the page
        // with them unless a float at its top itself runs past the bottom (LibreOffice): what follows
        // goes to the next page.
        if (pushedOff && layout.lines.every((l) => l.items.length === 0) && !this.floatOverrunsTop(floats, top, page, false)) {
          pager.restore(before);
          for (const f of floats) if (f.page === pager.pages.length - 1) pager.addFloat(f.placed);
          pager.y = Math.max(pager.y, pager.bottomLimit());
          pager.markPlaced();
          this.paintFloats(floats, true);
          return;
        }
        if (pushedOff && this.floatOverrunsTop(floats, top, page, true)) {
          // A float at the paragraph's top (or one stacked below it) runs past the page bottom and
          // pushed the first line off the page: LibreOffice moves the paragraph, floats and all, to the
          // next page (measured with top-and-bottom wrap; a float offset below a first line that fits stays).
          pager.restore(before);
          pager.breakArea("column");
          this.placeParagraphBlock(p, prev, next, blocks, index);
          return;
        }
        this.decorate(p, relaid, again);
        this.paintFloats(floats, true);
        return;
      }
      if (!startedAtTop && placed[0] && placed[0].page > before.pages - 1) {
        // The whole paragraph went on to a later page (widow/orphan or keep rules): lay it out there,
        // so its floats are on that page before its lines are and the text wraps around them.
        pager.breakArea("column");
        this.placeParagraphBlock(p, prev, next, blocks, index);
        return;
      }
      this.decorate(p, layout, placeParagraph(pager, layout, rules));
      this.paintFloats(floats, false);
      return;
    }
    this.decorate(p, layout, placed);
    this.paintFloats(floats, false);
  }

  /**
   * Whether, on page `page`, a float of `floats` starts at the paragraph top (`top`) and ends below the
   * body; with `stacked`, also when another float of the paragraph (below the first, which the text
   * had to pass too) is the one that ends below it.
   */
  private floatOverrunsTop(floats: ReturnType<DocumentFlow["positionFloats"]>, top: number, page: number, stacked: boolean): boolean {
    const bottom = this.pager.pages[page]?.bodyBottom ?? Number.POSITIVE_INFINITY;
    const onPage = floats.filter((f) => f.page === page);
    const atTop = (f: (typeof onPage)[number]) => f.placed.y - f.placed.distance.top <= top + 0.5;
    const overruns = (f: (typeof onPage)[number]) => f.placed.y + f.placed.height > bottom;
    if (onPage.some((f) => atTop(f) && overruns(f))) return true;
    return stacked && onPage.some(atTop) && onPage.some(overruns);
  }

  /**
   * Height of a keep-with-next chain from `index`: every kept paragraph and the start of the next
   * block; it stops counting once past `limit` (a chain can run for pages).
   */
  private keepChainHeight(blocks: Block[], index: number, width: number, limit = Number.POSITIVE_INFINITY): number {
    // The footnotes referenced in the chain's lines need their room at the page bottom too.
    const notes: string[] = [];
    const withNotes = (h: number, lines: ParagraphLayout["lines"]) => {
      for (const line of lines) notes.push(...(line.noteRefs ?? []));
      return h + this.pager.noteRoom(notes);
    };
    let h = 0;
    for (let i = index; i < blocks.length && h <= limit; i++) {
      const b = blocks[i]!;
      // A table after the kept paragraphs: its first row must come along.
      if (b.type === "table") return i === index ? h : h + this.firstRowHeight(b, width);
      const prev = blocks[i - 1];
      const next = blocks[i + 1];
      const layout = this.layoutFor(b, width);
      const rules = this.rulesFor(b, layout, prev?.type === "paragraph" ? prev : undefined, next?.type === "paragraph" ? next : undefined);
      if (i > index && rules.pageBreakBefore) return h;
      if (!b.style.keepNext || i === blocks.length - 1) {
        // The next paragraph's first lines must come along: under widow control two, or all of
        // a paragraph of three lines or fewer (it cannot split without a lone line).
        const n = layout.lines.length;
        const lines = b.style.keepLines ? n : b.style.widowControl ? (n <= 3 ? n : 2) : 1;
        if (i === index) return withNotes(h + paragraphHeight(layout, rules), layout.lines);
        return withNotes(h + leadingHeight(layout, rules, lines), layout.lines.slice(0, lines));
      }
      h += paragraphHeight(layout, rules);
      for (const line of layout.lines) notes.push(...(line.noteRefs ?? []));
    }
    return withNotes(h, []);
  }

  private firstRowHeight(t: Table, width: number): number {
    if (t.rows.length === 0) return 0;
    return stackTable({ ...t, rows: t.rows.slice(0, 1) }, width, this.bodyCtx, 0).bottom;
  }

  /** Shading and borders around each page's part of the paragraph. */
  private decorate(p: Paragraph, layout: ParagraphLayout, placed: PlacedLine[]): void {
    const { shading, borders } = p.style;
    if (!shading && !borders.top && !borders.bottom && !borders.left && !borders.right) return;
    const width = this.pager.area.width;
    for (const piece of framePieces(layout, placed, () => width)) {
      const page = this.pager.pages[piece.page];
      if (page) paintFrame(p, piece, page.background, page.items);
    }
  }

  // --- floats --------------------------------------------------------------------------------

  private positionFloats(layout: ParagraphLayout, placed: PlacedLine[]) {
    const out: { page: number; placed: ReturnType<typeof toPlaced>; float: ParagraphLayout["floats"][number] }[] = [];
    const firstLine = placed[0];
    for (const float of layout.floats) {
      const line = placed[Math.min(float.line, placed.length - 1)] ?? firstLine;
      if (!line) continue;
      const page = this.pager.pages[line.page]!;
      const s = this.sections[page.section] ?? DEFAULT_SECTION;
      const box = sanePage(s);
      const column = { left: line.left, width: this.pager.area.width };
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

  /** Adds float drawings (and, unless already registered, their wrap) to their pages. */
  private paintFloats(floats: ReturnType<DocumentFlow["positionFloats"]>, registered: boolean): void {
    for (const f of floats) {
      const page = this.pager.pages[f.page];
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
      if (inline.chart) into.push(...chartItems(inline.chart, f.placed, this.ctx.fonts));
      const inner = Math.max(1, width - 2 * BOX_INSET_X);
      const stack = stackBlocks(inline.blocks, inner, this.ctx);
      translateItems(stack.items, x + BOX_INSET_X, y + BOX_INSET_Y, into);
      const b = inline.border;
      if (b && b.style !== "nil" && b.style !== "none" && b.width > 0) {
        const line = (x1: number, y1: number, x2: number, y2: number): PaintItem => ({ kind: "line", x1, y1, x2, y2, width: b.width, color: b.color });
        into.push(line(x, y, x + width, y), line(x + width, y, x + width, y + height), line(x + width, y + height, x, y + height), line(x, y + height, x, y));
      }
    }
  }

  // --- notes ---------------------------------------------------------------------------------

  private noteStack(id: string): { height: number; items: PaintItem[]; breakPoints: number[]; spaceBelow?: number } {
    let stack = this.noteStacks.get(id);
    if (!stack) {
      const blocks = this.model.notes.get(id);
      const width = this.noteWidth();
      stack = blocks && blocks.length > 0 ? stackBlocks(blocks, width, this.ctx) : { height: 0, items: [], breakPoints: [] };
      this.noteStacks.set(id, stack);
    }
    return stack;
  }

  private noteWidth(): number {
    const page = this.pager.page;
    const s = this.sections[page.section] ?? DEFAULT_SECTION;
    const box = sanePage(s);
    return box.width - box.left - box.right;
  }

  /** Room a note takes; a note taller than half the body is only partly reserved (it carries on below). */
  private noteHeight(id: string): number {
    const page = this.pager.page;
    return Math.min(this.noteStack(id).height, (page.bodyBottom - page.bodyTop) / 2);
  }

  // --- pages ---------------------------------------------------------------------------------

  private finishPages(): LaidOutPage[] {
    const pages = this.pager.pages;
    const sectionPages = new Map<number, number>();
    for (const p of pages) sectionPages.set(p.section, (sectionPages.get(p.section) ?? 0) + 1);
    const restart = this.model.footnotesRestartEachPage;
    const noteLabels = new Map<string, string>();
    // LibreOffice does not export the blank pages odd/even section starts insert (they still count).
    return pages.filter((page) => !page.blank).map((page) => {
      const s = this.sections[page.section] ?? DEFAULT_SECTION;
      const items: PaintItem[] = [...page.background];
      this.paintHeaderFooter(page, s, pages.length, sectionPages.get(page.section) ?? 1, items);
      items.push(...page.items);
      this.paintNotes(page, s, items);
      this.paintSeparators(page, items);
      items.push(...page.foreground);
      if (restart) numberNotesOnPage(page, { ...restart, perPage: !!s.footnotesRestartEachPage }, noteLabels, items);
      const laidOut = { width: page.width, height: page.height, items };
      return s.vertical ? turnPageBack(laidOut) : laidOut;
    });
  }

  private paintHeaderFooter(page: FlowPage, s: Section, numPages: number, sectionPages: number, into: PaintItem[]): void {
    const box = sanePage(s);
    const width = box.width - box.left - box.right;
    const ctx = pageFieldContext(
      this.ctx,
      { page: formatNumber(page.number, s.pageNumberFormat), pageNumber: page.number, sectionFormat: s.pageNumberFormat, numPages, sectionPages },
      formatNumber,
    );
    const choice = { firstOfSection: page.firstOfSection, pageNumber: page.number };
    const header = choosePart(s.headers, s, this.model.evenAndOddHeaders, choice, EMPTY_PARTS.header);
    const footer = choosePart(s.footers, s, this.model.evenAndOddHeaders, choice, EMPTY_PARTS.footer);
    const frame = { left: box.left, width, pageHeight: page.height };
    placePart(header ? this.model.headerFooters.get(header) : undefined, "header", { ...frame, distance: Math.max(0, s.margins.header) }, ctx, into);
    placePart(footer ? this.model.headerFooters.get(footer) : undefined, "footer", { ...frame, distance: Math.max(0, s.margins.footer) }, ctx, into);
  }

  /** Footnotes stacked at the bottom of the body, under a short separator line. */
  private paintNotes(page: FlowPage, s: Section, into: PaintItem[]): void {
    if (page.notes.length === 0) return;
    const box = sanePage(s);
    const width = box.width - box.left - box.right;
    let y = page.bodyBottom - page.noteHeight;
    const lineY = y + NOTE_SEPARATOR_GAP + NOTE_SEPARATOR_WIDTH / 2;
    into.push({ kind: "line", x1: box.left, y1: lineY, x2: box.left + width * NOTE_SEPARATOR_SHARE, y2: lineY, width: NOTE_SEPARATOR_WIDTH, color: null });
    y += NOTE_SEPARATOR_HEIGHT;
    page.notes.forEach((id, i) => {
      const stack = this.noteStack(id);
      // A note split across pages: the lines above the cut here, the rest on the next page.
      const from = i === 0 ? (page.noteFrom ?? 0) : 0;
      const cut = i === page.notes.length - 1 ? (page.noteCut ?? Infinity) : Infinity;
      const items = from > 0 || cut < Infinity ? stack.items.filter((it) => noteItemY(it) > from && noteItemY(it) < cut) : stack.items;
      translateItems(items, box.left, y - from, into);
      y += stack.height - from;
    });
  }

  private paintSeparators(page: FlowPage, into: PaintItem[]): void {
    for (const region of page.regions) {
      if (!region.separator || region.columns.length < 2) continue;
      const bottom = Math.max(...region.columnBottoms);
      if (bottom <= region.top) continue;
      for (let c = 1; c < region.columns.length; c++) {
        const left = region.columns[c - 1]!;
        const right = region.columns[c]!;
        const x = (left.left + left.width + right.left) / 2;
        into.push({ kind: "line", x1: x, y1: region.top, x2: x, y2: bottom, width: 0.5, color: null });
      }
    }
  }
}

/** LibreOffice's endnote page style: the last section's page size, 2 cm margins, no header or footer. */
function endnoteSection(last: Section): Section {
  const m = ENDNOTE_MARGIN;
  return {
    ...last,
    margins: { top: m, right: m, bottom: m, left: m, header: 0, footer: 0, gutter: 0 },
    columns: { count: 1, space: 0, separator: false },
    start: "nextPage",
    headers: {},
    footers: {},
    titlePage: false,
    pageNumberStart: undefined,
    blocks: [],
  };
}

/** Contextual spacing drops a paragraph's own space next to a paragraph of the same style. */
function ownSpace(p: Paragraph, space: number, neighbour: Paragraph | undefined): number {
  return p.style.contextualSpacing && neighbour !== undefined && neighbour.style.styleId === p.style.styleId ? 0 : space;
}

/**
 * A section's blocks without the empty paragraph that only carries its section break: LibreOffice
 * drops that paragraph on import, so it takes no room.
 */
function withoutBreakMark(blocks: Block[]): Block[] {
  const last = blocks[blocks.length - 1];
  if (last?.type !== "paragraph" || last.numbering) return blocks;
  const empty = last.inlines.every((i) => i.type === "text" && i.text === "");
  return empty ? blocks.slice(0, -1) : blocks;
}

/** Column boxes of a section (equal widths, or the explicit ones), in page coordinates. */
export function columnBoxes(s: Section, left: number, textWidth: number): { left: number; width: number }[] {
  const count = Math.min(Math.max(1, Math.floor(s.columns.count) || 1), 45);
  if (count === 1) return [{ left, width: textWidth }];
  const explicit = s.columns.widths;
  if (explicit && explicit.length === count) {
    // Explicit widths that do not add up to the text width are scaled to it as LibreOffice does:
    // each column with half the space on its inner sides is scaled, and the spaces themselves stay.
    const gap = (i: number) => (i >= 0 && i < count - 1 ? Math.max(0, explicit[i]!.space) / 2 : 0);
    const total = explicit.reduce((sum, c, i) => sum + Math.max(0, c.width) + gap(i - 1) + gap(i), 0);
    const scale = total > 0 ? textWidth / total : 1;
    const boxes: { left: number; width: number }[] = [];
    let x = left;
    explicit.forEach((c, i) => {
      const share = (Math.max(0, c.width) + gap(i - 1) + gap(i)) * scale;
      boxes.push({ left: x + gap(i - 1), width: Math.max(1, share - gap(i - 1) - gap(i)) });
      x += share;
    });
    return boxes;
  }
  const space = Math.max(0, Math.min(s.columns.space, textWidth / count));
  const width = Math.max(1, (textWidth - space * (count - 1)) / count);
  return Array.from({ length: count }, (_, i) => ({ left: left + i * (width + space), width }));
}

function floatSize(inline: ParagraphLayout["floats"][number]["inline"]): { width: number; height: number } {
  const ok = (v: number) => (Number.isFinite(v) && v > 0 ? Math.min(v, 14_400) : 1);
  return { width: ok(inline.width), height: ok(inline.height) };
}

function toPlaced(pos: { x: number; y: number }, width: number, height: number, anchor: ParagraphLayout["floats"][number]["anchor"], column: { left: number; width: number }) {
  const d = anchor.distance;
  const distance = { top: Math.max(0, d.top || 0), bottom: Math.max(0, d.bottom || 0), left: Math.max(0, d.left || 0), right: Math.max(0, d.right || 0) };
  return { ...pos, width, height, distance, ...floatWrap({ ...anchor, distance }, pos.x, width, column) };
}

/**
 * Footnote numbers restarting on each page (w:numRestart="eachPage"): the notes whose references
 * are on the page count from the start number, in order; a note continued from the page before keeps
 * its number. In sections without the restart the numbers run on from page to page.
 */
function numberNotesOnPage(page: FlowPage, numbering: { start: number; format: NumberFormat; perPage: boolean }, labels: Map<string, string>, items: PaintItem[]): void {
  const running = labels.get(RUNNING) ?? String(numbering.start);
  let n = numbering.perPage ? numbering.start : Number(running);
  page.notes.forEach((id) => {
    if (id.startsWith("footnote:") && !labels.has(id)) labels.set(id, formatNumber(n++, numbering.format));
  });
  if (!numbering.perPage) labels.set(RUNNING, String(n));
  for (let i = 0; i < items.length; i++) {
    const it = items[i]!;
    if (it.kind !== "text" || !it.noteLabelOf) continue;
    const label = labels.get(it.noteLabelOf);
    if (label !== undefined && label !== it.text) items[i] = { ...it, text: label };
  }
}

/** Key of the running footnote number in `numberNotesOnPage`'s map (not a note id). */
const RUNNING = "#running";
