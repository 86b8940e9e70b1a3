/**
 * Page flow of the DOCX renderer: each section's blocks placed through the pager (pager.ts) with
 * section starts, keep-with-next chains and balanced columns; paragraphs paginated by
 * paragraph-pagination.ts and laid out around their floats (page-floats.ts); endnotes on pages of
 * their own; then every page finished (finalize.ts) with its header and footer, footnotes, column
 * separators and footnote numbers. Page boxes and columns: sections.ts.
 */
import type { Block, Border, DocumentModel, Paragraph, Section, Table } from "../../model/types";
import { shownBlocks } from "../block/hidden-paragraph";
import { bordersJoin, paragraphBorderRoom } from "../block/paragraph-borders";
import { lastRowKeepsWithNext } from "../block/table-pagination";
import { exclusionsFor, floatsBeside } from "../objects/floats";
import { drawMetafiles } from "../objects/metafile";
import type { LaidOutDocument, LayoutContext, LayoutRoutines, ParagraphLayout } from "../types";
import { finishPages } from "./finalize";
import { recordNumberedLines } from "./line-numbers";
import { PartHeights } from "./header-footer";
import { Footnotes, NOTE_SEPARATOR_HEIGHT } from "./notes";
import { floatTables } from "./floating-tables";
import { floatOverrunsTop, paintFloats, positionFloats } from "./page-floats";
import { Pager, RegionOverflow, type PagerSnapshot } from "./pager";
import { framePieces, paintFrame, withBorderRoom } from "./paragraph-frame";
import {
  fitHeight,
  paragraphHeight,
  placeParagraph,
  type ParagraphFlowRules,
  type PlacedLine,
  type Relayout,
} from "./paragraph-pagination";
import { DEFAULT_SECTION, endnoteSection, pageGeometry, sanePage, withoutBreakMark } from "./sections";
import { turnSection } from "./vertical";

/** Binary-search steps when balancing columns before a continuous section break. */
const BALANCE_STEPS = 10;

/** The pages of `model`; `ctx`: the document's fonts, default tab stop and layout routines (layout/index.ts). */
export function flowDocument(model: DocumentModel, ctx: LayoutContext): LaidOutDocument {
  return new DocumentFlow(model, ctx).run();
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
  /** A joined paragraph's own top and bottom borders, taken out of it: they come back at page edges (see `rulesFor`). */
  private readonly groupTop = new WeakMap<Paragraph, Border>();
  private readonly groupBottom = new WeakMap<Paragraph, Border>();
  private readonly notes: Footnotes;
  /** The section being placed. */
  private section: Section = DEFAULT_SECTION;
  /** Paragraphs given the floating table above them (floating-tables.ts). */
  private readonly anchoring = new WeakMap<Paragraph, Paragraph>();
  /** Index of the page the current section started on. */
  private sectionFirstPage = 0;
  /** Body paragraphs placed now take part in line numbering (not endnotes, not vertical sections). */
  private numberLines = false;
  /** The current section's line-number start (`Section.lineNumberStart`), for its first block. */
  private sectionLineStart: number | undefined;
  /** The start number for the paragraph being placed, if it restarts the count. */
  private lineNumberStart: number | undefined;
  /** The area (see `areaKey`) where the last block without keep-with-next ended (a table counts as one). */
  private looseArea = "";
  /** The last block placed (a table is `undefined`), and the one above a continuous section's first block. */
  private lastParagraph: Paragraph | undefined;
  private paragraphAboveSection: Paragraph | undefined;

  constructor(
    private readonly model: DocumentModel,
    ctx: LayoutContext,
  ) {
    // Vertical sections are laid out on their page turned a quarter turn (vertical.ts).
    this.sections = (model.sections.length > 0 ? [...model.sections] : [DEFAULT_SECTION]).map((s) =>
      s.vertical ? turnSection(s) : s,
    );
    this.ctx = ctx;
    // Header heights before pagination: wide page numbers stand in for the real ones.
    this.heights = new PartHeights(model, { ...this.ctx, fieldValue: () => "99" });
    this.bodyCtx = this.ctx;
    // Footnote lines are numbered too (in the count of headers, footnotes and footers: line-numbers.ts).
    const notesCtx = model.lineNumbering ? { ...this.ctx, countLines: true } : this.ctx;
    this.notes = new Footnotes(model.notes, notesCtx, () => this.noteWidth());
    this.pager = new Pager({
      budget: ctx.budget,
      geometry: (section, first, number, style) => {
        const s = this.sectionOf(section);
        return pageGeometry(s, this.sections[style] ?? s, model.evenAndOddHeaders, this.heights, first, number);
      },
      pageStyleAtBreak: (section) => {
        const s = this.sections[section];
        return !s || (s.start !== "continuous" && s.start !== "nextColumn") || !!s.ownHeadersFooters;
      },
      numberStart: (section) => this.sections[section]?.pageNumberStart,
      noteHeight: (id) => this.notes.height(id, this.pager.page),
      noteSpaceBelow: (id) => Math.min(this.notes.stack(id).spaceBelow ?? 0, this.notes.height(id, this.pager.page)),
      noteBreaks: (id) => this.notes.stack(id).breakPoints,
      noteSeparatorHeight: NOTE_SEPARATOR_HEIGHT,
    });
  }

  run(): LaidOutDocument {
    this.sections.forEach((section, i) => {
      this.section = section;
      this.bodyCtx = section.lineGrid ? { ...this.ctx, linePitch: section.lineGrid.linePitch } : this.ctx;
      this.numberLines = !!this.model.lineNumbering && !section.vertical;
      this.sectionLineStart = section.lineNumberStart;
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
    this.numberLines = false;
    if (this.pager.endnotes.length > 0) {
      this.sections.push(endnoteSection(this.sections[this.sections.length - 1]!));
      this.pager.newPage(this.sections.length - 1);
    }
    for (let i = 0; i < this.pager.endnotes.length; i++) {
      const blocks = this.model.notes.get(this.pager.endnotes[i]!);
      if (blocks) this.placeBlocks(blocks);
    }
    const pages = finishPages(this.pager.pages, (i) => this.sectionOf(i), this.model, this.notes, this.ctx);
    return { pages: drawMetafiles(pages, this.model.images, this.ctx.fonts), title: this.model.title };
  }

  /** The layout entry points (layout/index.ts). */
  private get routines(): LayoutRoutines {
    return this.ctx.routines;
  }

  private sectionOf(index: number): Section {
    return this.sections[index] ?? DEFAULT_SECTION;
  }

  /** Text width of the current page, where a footnote is first laid out. */
  private noteWidth(): number {
    const box = sanePage(this.sectionOf(this.pager.page.section));
    return box.width - box.left - box.right;
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
    const grouped = this.bordersGrouped(shownBlocks(allBlocks));
    const blocks = floatTables(grouped, this.section, sanePage(this.section), this.bodyCtx, this.anchoring);
    for (let i = from; i < blocks.length; i++) {
      const block = blocks[i]!;
      marks?.push({
        index: i,
        snapshot: this.pager.snapshot(),
        looseArea: this.looseArea,
        lastParagraph: this.lastParagraph,
      });
      if (block.type === "table") {
        const keep =
          lastRowKeepsWithNext(block) && blocks[i + 1]?.type === "paragraph"
            ? this.keepChainHeight(blocks, i + 1, this.pager.area.width)
            : 0;
        this.routines.placeTable(block, this.pager, this.bodyCtx, keep <= this.pager.areaHeight() ? keep : 0);
        this.pager.markPlaced();
        this.looseArea = this.areaKey();
        this.lastParagraph = undefined;
        continue;
      }
      const prev = i === 0 ? this.paragraphAboveSection : blocks[i - 1];
      const next = blocks[i + 1];
      // A section's start number goes to its first block, when that is a paragraph (LibreOffice).
      this.lineNumberStart = i === 0 ? this.sectionLineStart : undefined;
      this.placeParagraphBlock(
        block,
        prev?.type === "paragraph" ? prev : undefined,
        next?.type === "paragraph" ? next : undefined,
        blocks,
        i,
      );
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
        const borders = {
          ...b.style.borders,
          top: prev ? undefined : b.style.borders.top,
          bottom: next ? undefined : b.style.borders.bottom,
        };
        joined = { ...b, style: { ...b.style, borders } };
        this.joined.set(b, joined);
        if (prev && b.style.borders.top) this.groupTop.set(joined, b.style.borders.top);
        if (next && b.style.borders.bottom) this.groupBottom.set(joined, b.style.borders.bottom);
      }
      return joined;
    });
  }

  /** Whether the current page was opened by an explicit break inside the section and holds nothing. */
  private emptyBreakPage(): boolean {
    const pager = this.pager;
    const page = pager.page;
    if (
      pager.pages.length - 1 <= this.sectionFirstPage ||
      !pager.atAreaTop() ||
      pager.columnIndex !== 0 ||
      page.regions.length !== 1
    )
      return false;
    return (
      page.items.length === 0 &&
      page.background.length === 0 &&
      page.foreground.length === 0 &&
      page.notes.length === 0 &&
      page.floats.length === 0
    );
  }

  /** Identifies the current column of the current region of the current page. */
  private areaKey(): string {
    const pager = this.pager;
    return `${pager.pages.length}:${pager.page.regions.length}:${pager.columnIndex}`;
  }

  private layoutFor(p: Paragraph, width: number): ParagraphLayout {
    const cached = this.layouts.get(p);
    if (cached && cached.width === width) return cached.layout;
    const layout = withBorderRoom(p, this.routines.layoutParagraph(p, width, this.bodyCtx));
    this.layouts.set(p, { width, layout });
    return layout;
  }

  private rulesFor(
    p: Paragraph,
    layout: ParagraphLayout,
    prev: Paragraph | undefined,
    next: Paragraph | undefined,
  ): ParagraphFlowRules {
    const style = p.style;
    // LibreOffice drops the automatic (HTML-like) space before the document's first paragraph.
    const documentStart = this.pager.start === "document" && this.pager.atAreaTop();
    const before = style.autoSpaceBefore && documentStart ? 0 : ownSpace(p, layout.spaceBefore, prev);
    // LibreOffice (measured on DOCX) separates paragraphs by the larger of the space after and
    // the next space before, not their sum: the space after is already below the previous one.
    // Where the document's spacing adds up, the whole space before goes below it.
    const prevAfter =
      prev && !this.ctx.paragraphSpacingAdds
        ? ownSpace(prev, this.layoutFor(prev, this.pager.area.width).spaceAfter, p)
        : 0;
    return {
      spaceBefore: before,
      previousAfter: prevAfter,
      previousExtraBelow: prev ? (this.layoutFor(prev, this.pager.area.width).lines.at(-1)?.extraBelow ?? 0) : 0,
      spaceAfter: ownSpace(p, layout.spaceAfter, next),
      keepLines: style.keepLines,
      widowControl: style.widowControl,
      pageBreakBefore: style.pageBreakBefore,
      topBorderRoom: paragraphBorderRoom(style.borders.top ?? this.groupTop.get(p)),
      firstLineHasTopBorder: paragraphBorderRoom(style.borders.top) > 0,
      bottomBorderRoom: paragraphBorderRoom(style.borders.bottom ?? this.groupBottom.get(p)),
    };
  }

  private placeParagraphBlock(
    p: Paragraph,
    prev: Paragraph | undefined,
    next: Paragraph | undefined,
    blocks: Block[],
    index: number,
  ): void {
    const pager = this.pager;
    const width = pager.area.width;
    let layout = this.layoutFor(p, width);
    const rules = this.rulesFor(p, layout, prev, next);
    // After a page break the paragraph above is on another page: contextual spacing no longer takes
    // this one's space before (LibreOffice keeps it at the top of the page).
    if (pager.atAreaTop() && pager.start === "hard" && p.style.contextualSpacing)
      rules.spaceBefore = layout.spaceBefore;
    if (rules.pageBreakBefore && !(pager.atAreaTop() && pager.columnIndex === 0)) {
      pager.breakArea("page", "hard");
      rules.pageBreakBefore = false;
    } else if (p.style.columnBreakBefore) pager.breakArea("column", "hard");
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
      layout = withBorderRoom(p, this.routines.layoutParagraph(p, width, this.bodyCtx, excl));
    }
    if (layout.floats.length === 0) {
      // Lines that go on in a column of another width are laid out again there (no floats beside).
      const relayout: Relayout | undefined =
        layout === this.layoutFor(p, width)
          ? {
              width,
              at: (widthOf) =>
                withBorderRoom(p, this.routines.layoutParagraph(p, width, this.bodyCtx, undefined, widthOf)),
            }
          : undefined;
      const placed = placeParagraph(pager, layout, rules, relayout);
      this.decorate(p, relayout?.latest ?? layout, placed);
      return;
    }
    this.placeWithFloats(p, layout, rules, () => this.placeParagraphBlock(p, prev, next, blocks, index));
  }

  /**
   * A paragraph with anchored objects: placed, its floats positioned from where it went; when they
   * change the text around them on that page, placed again with them already there. `retry` places
   * the paragraph anew once it has been moved to the next column.
   */
  private placeWithFloats(p: Paragraph, layout: ParagraphLayout, rules: ParagraphFlowRules, retry: () => void): void {
    const pager = this.pager;
    const before = pager.snapshot();
    const startedAtTop = pager.atAreaTop();
    const placed = placeParagraph(pager, layout, rules);
    const floats = positionFloats(this.pager, (i) => this.sectionOf(i), layout, placed);
    const affectsText = floats.some((f) => f.placed.wrap !== "none");
    if (affectsText) {
      pager.restore(before);
      if (pager.pages.length - 1 === floats[0]!.page) {
        for (const f of floats) if (f.page === pager.pages.length - 1) pager.addFloat(f.placed);
        const a = pager.area;
        const excl = exclusionsFor(pager.page.floats, a, pager.y + rules.spaceBefore);
        const relaid = excl ? withBorderRoom(p, this.routines.layoutParagraph(p, a.width, this.bodyCtx, excl)) : layout;
        const again = placeParagraph(pager, { ...relaid, floats: [] }, rules);
        const pushedOff = !startedAtTop && again[0] !== undefined && again[0].page > floats[0]!.page;
        const top = placed[0]!.top;
        const page = before.pages - 1;
        // An empty paragraph holding only floats, whose line they push off the page, stays on the page
        // with them unless a float at its top itself runs past the bottom (LibreOffice): what follows
        // goes to the next page.
        if (
          pushedOff &&
          layout.lines.every((l) => l.items.length === 0) &&
          !floatOverrunsTop(this.pager, floats, top, page, false)
        ) {
          pager.restore(before);
          for (const f of floats) if (f.page === pager.pages.length - 1) pager.addFloat(f.placed);
          pager.y = Math.max(pager.y, pager.bottomLimit());
          pager.markPlaced();
          paintFloats(this.pager, floats, true, this.ctx);
          return;
        }
        if (pushedOff && floatOverrunsTop(this.pager, floats, top, page, true)) {
          // A float at the paragraph's top (or one stacked below it) runs past the page bottom and
          // pushed the first line off the page: LibreOffice moves the paragraph, floats and all, to the
          // next page (measured with top-and-bottom wrap; a float offset below a first line that fits stays).
          pager.restore(before);
          pager.breakArea("column");
          retry();
          return;
        }
        this.decorate(p, relaid, again);
        paintFloats(this.pager, floats, true, this.ctx);
        return;
      }
      if (!startedAtTop && placed[0] && placed[0].page > before.pages - 1) {
        // The whole paragraph went on to a later page (widow/orphan or keep rules): lay it out there,
        // so its floats are on that page before its lines are and the text wraps around them.
        pager.breakArea("column");
        retry();
        return;
      }
      this.decorate(p, layout, placeParagraph(pager, layout, rules));
      paintFloats(this.pager, floats, false, this.ctx);
      return;
    }
    this.decorate(p, layout, placed);
    paintFloats(this.pager, floats, false, this.ctx);
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
      const rules = this.rulesFor(
        b,
        layout,
        prev?.type === "paragraph" ? prev : undefined,
        next?.type === "paragraph" ? next : undefined,
      );
      if (i > index && rules.pageBreakBefore) return h;
      if (!b.style.keepNext || i === blocks.length - 1) {
        // The next paragraph's first lines must come along: under widow control two, or all of
        // a paragraph of three lines or fewer (it cannot split without a lone line).
        const n = layout.lines.length;
        const lines = b.style.keepLines ? n : b.style.widowControl ? (n <= 3 ? n : 2) : 1;
        // Its space after need not fit: at the page bottom it falls away (LibreOffice keeps a table's
        // last row with a one-line paragraph whose space after runs past the page, measured), nor
        // its last line's proportional extra below.
        return withNotes(h + fitHeight(layout, rules, lines), layout.lines.slice(0, lines));
      }
      h += paragraphHeight(layout, rules);
      for (const line of layout.lines) notes.push(...(line.noteRefs ?? []));
    }
    return withNotes(h, []);
  }

  private firstRowHeight(t: Table, width: number): number {
    if (t.rows.length === 0) return 0;
    return this.routines.stackTable({ ...t, rows: t.rows.slice(0, 1) }, width, this.bodyCtx, 0).bottom;
  }

  /** Shading and borders around each page's part of the paragraph. */
  private decorate(p: Paragraph, layout: ParagraphLayout, placed: PlacedLine[]): void {
    // A framed paragraph is a text frame to LibreOffice: its lines are not numbered.
    if (this.numberLines && !p.style.suppressLineNumbers && !p.style.frame)
      recordNumberedLines(this.pager.pages, layout, placed, this.lineNumberStart);
    const { shading, borders } = p.style;
    if (!shading && !borders.top && !borders.bottom && !borders.left && !borders.right) return;
    const width = this.pager.area.width;
    for (const piece of framePieces(layout, placed, () => width)) {
      const page = this.pager.pages[piece.page];
      if (page) paintFrame(p, piece, page.background, page.items, this.groupTop.get(p), this.groupBottom.get(p));
    }
  }
}

/** Contextual spacing drops a paragraph's own space next to a paragraph of the same style. */
function ownSpace(p: Paragraph, space: number, neighbour: Paragraph | undefined): number {
  return p.style.contextualSpacing && neighbour !== undefined && neighbour.style.styleId === p.style.styleId
    ? 0
    : space;
}
