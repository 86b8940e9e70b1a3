/**
 * The flow cursor: owns pages, the column regions on them (a continuous section break starts a new
 * region below the previous one), footnote reservations and floats placed per page. Block layout
 * writes through it; it knows nothing about paragraphs or tables.
 */
import type { FlowArea, FlowCursor, PaintItem } from "../types";
import type { PlacedFloat } from "../objects/floats";
import { LIMITS } from "../../../limits";
import { PAGE_WORK, renderLimit } from "../../budgets";
import type { WorkBudget } from "../../../util/work-budget";

/** Where the body of a page goes, given its section: page size, body box and columns. */
export interface PageGeometry {
  width: number;
  height: number;
  /** Body box (margins, already pushed by a tall header/footer). */
  bodyTop: number;
  bodyBottom: number;
  /** Column boxes in page coordinates, left to right. */
  columns: { left: number; width: number }[];
  /** Draw a line between columns. */
  separator: boolean;
}

/** One column setup on a page (a section, or the part of it on this page). */
export interface Region {
  top: number;
  columns: { left: number; width: number }[];
  separator: boolean;
  /** Lowest y reached in each column. */
  columnBottoms: number[];
}

export interface FlowPage {
  width: number;
  height: number;
  /**
   * Section index whose page style this page has (header/footer, margins): the section it started
   * in, except that a page a continuous section runs onto keeps the style of the page before; from
   * the section's first page break on its own applies if it names headers or footers of its own,
   * else the page before's goes on (LibreOffice 7.4, measured).
   */
  section: number;
  /** The section's first page (its title-page header applies). */
  firstOfSection: boolean;
  /** Displayed page number (restarts where a section says so). */
  number: number;
  /** Body box of the page. */
  bodyTop: number;
  bodyBottom: number;
  /** Behind-text floats, body, in-front floats: painted in this order. */
  background: PaintItem[];
  items: PaintItem[];
  foreground: PaintItem[];
  /**
   * Footnotes whose reference is on this page, in order, and the height reserved for them: the
   * separator and every note, less the space after the last one (LibreOffice lets it fall away).
   */
  notes: string[];
  noteHeight: number;
  /** The first note carries on from the page before: it is shown from this offset of its stack. */
  noteFrom?: number;
  /** The last note runs on to the next page: only its stack above this offset is shown here. */
  noteCut?: number;
  floats: PlacedFloat[];
  regions: Region[];
  /** A page inserted blank by an odd/even section start. */
  blank: boolean;
  /** Body lines that take part in line numbering, in document order (line-numbers.ts). */
  numberedLines: NumberedLine[];
}

/** A body line counted by line numbering, in page coordinates. */
export interface NumberedLine {
  /** Left edge of the text column the line is in. */
  columnLeft: number;
  baseline: number;
  height: number;
  /** The count starts again here at this number (a section's first paragraph). */
  startAt?: number;
}

/** How the current area started: the first paragraph keeps its space before except after a soft break. */
export type AreaStart = "document" | "hard" | "soft";

export interface PagerOptions {
  /** The document's layout budget: each page opened counts `PAGE_WORK` units. */
  budget: WorkBudget;
  /** Page box and columns of a page of `section`; the header height may depend on the page kind. */
  geometry(section: number, firstOfSection: boolean, pageNumber: number, pageStyle: number): PageGeometry;
  /**
   * Whether a hard page break inside `section` gives the pages after it the section's own page style
   * (default: yes); see `FlowPage.section`.
   */
  pageStyleAtBreak?(section: number): boolean;
  /** w:pgNumType/@w:start of a section, if it restarts numbering. */
  numberStart(section: number): number | undefined;
  /** Height a footnote takes at the page bottom (its blocks laid out in the note width). */
  noteHeight(id: string): number;
  /** The space after a footnote's last paragraph, part of `noteHeight`; not reserved below a page's last note. */
  noteSpaceBelow?(id: string): number;
  /** Height of the separator line above the first footnote of a page. */
  noteSeparatorHeight: number;
  /** Offsets in a footnote's stack where it may be split across pages (line bottoms), ascending. */
  noteBreaks?(id: string): readonly number[];
}

export class Pager implements FlowCursor {
  readonly pages: FlowPage[] = [];
  /** Endnotes referenced so far, in order (they are laid out after the body). */
  readonly endnotes: string[] = [];
  private section = 0;
  /** The section whose page style new pages take (see `FlowPage.section`). */
  private styleSection = 0;
  private region!: Region;
  private column = 0;
  private cursorY = 0;
  private placed = false;
  /** Bottom of the current region when columns are being balanced (a continuous break follows). */
  private regionLimit: number | null = null;
  /** Index of the first page the region limit applies to (a section balanced on its last page). */
  private limitFrom = 0;
  /** The rest of a footnote that did not fit below its reference, for the next page's notes. */
  private noteCarry: { id: string; from: number }[] = [];
  start: AreaStart = "document";
  private readonly opts: PagerOptions;

  constructor(opts: PagerOptions) {
    this.opts = opts;
    this.openPage(true);
    this.start = "document";
  }

  get page(): FlowPage {
    return this.pages[this.pages.length - 1]!;
  }

  get columnIndex(): number {
    return this.column;
  }

  get columnCount(): number {
    return this.region.columns.length;
  }

  get area(): FlowArea {
    const col = this.region.columns[this.column]!;
    const bottom = this.activeLimit() ?? this.page.bodyBottom;
    return { left: col.left, width: col.width, top: this.region.top, bottom };
  }

  get y(): number {
    return this.cursorY;
  }

  set y(value: number) {
    this.cursorY = value;
    const bottoms = this.region.columnBottoms;
    if (value > bottoms[this.column]!) bottoms[this.column] = value;
  }

  emit(item: PaintItem): void {
    this.page.items.push(item);
    this.placed = true;
  }

  /** Something took room at the cursor without drawing (an empty line, a table's spacing). */
  markPlaced(): void {
    this.placed = true;
  }

  atAreaTop(): boolean {
    return !this.placed;
  }

  /** Usable height below the cursor: the column bottom less the room kept for this page's footnotes. */
  remaining(): number {
    return this.bottomLimit() - this.cursorY;
  }

  /** Lowest y content may reach in this area now. */
  bottomLimit(): number {
    const pageLimit = this.page.bodyBottom - this.page.noteHeight;
    return Math.min(this.activeLimit() ?? pageLimit, pageLimit);
  }

  private activeLimit(): number | null {
    return this.pages.length - 1 >= this.limitFrom ? this.regionLimit : null;
  }

  /** Height of the current area when empty (a block taller than this can never fit whole). */
  areaHeight(): number {
    return this.area.bottom - this.region.top;
  }

  /** Extra room `ids` would take at the page bottom if referenced now (notes not yet on this page). */
  noteRoom(ids: readonly string[] | undefined): number {
    if (!ids || ids.length === 0) return 0;
    const below = (id: string | undefined) => (id === undefined ? 0 : (this.opts.noteSpaceBelow?.(id) ?? 0));
    let room = 0;
    let first = this.page.notes.length === 0;
    let last: string | undefined;
    for (const id of ids) {
      if (!id.startsWith("footnote:") || this.page.notes.includes(id) || id === last) continue;
      room += this.opts.noteHeight(id) + (first ? this.opts.noteSeparatorHeight : 0);
      first = false;
      last = id;
    }
    // The space after the page's last note is not kept: the new last note's replaces the old one's.
    return last === undefined ? 0 : room - below(last) + below(this.page.notes.at(-1));
  }

  /**
   * Room below a line that references `ids` for it to stay on this page (LibreOffice): the first
   * line of its first new note after the notes already here, or, for the page's first note, the
   * separator and two lines (a note split across pages shows two lines at least).
   */
  noteMinRoom(ids: readonly string[] | undefined): number {
    const id = ids?.find((n) => n.startsWith("footnote:") && !this.page.notes.includes(n));
    if (id === undefined || this.noteCarry.length > 0) return 0;
    return this.noteStart(id, this.page.notes.length === 0);
  }

  /** The least of note `id` that must fit: its first line, or the separator and two lines when `first` on the page. */
  private noteStart(id: string, first: boolean): number {
    const whole = this.opts.noteHeight(id) - (this.opts.noteSpaceBelow?.(id) ?? 0);
    const breaks = this.opts.noteBreaks?.(id) ?? [];
    const lines = Math.min(breaks[first ? 1 : 0] ?? Infinity, whole);
    return first ? this.opts.noteSeparatorHeight + lines : lines;
  }

  /**
   * Room below a block (a table row's part) referencing `ids` for it to stay on this page: the new
   * notes before the last whole, and the start of the last one (`noteMinRoom`), which may run on to
   * the next page, as a line's note does (LibreOffice, measured on rows with several notes).
   */
  notesNeed(ids: readonly string[]): number {
    const fresh = ids.filter(
      (n, i) => n.startsWith("footnote:") && !this.page.notes.includes(n) && ids.indexOf(n) === i,
    );
    if (fresh.length === 0) return 0;
    const last = fresh[fresh.length - 1]!;
    const before = this.noteRoom(fresh.slice(0, -1));
    if (this.noteCarry.length > 0) return before;
    return before + this.noteStart(last, this.page.notes.length === 0 && fresh.length === 1);
  }

  /**
   * Notes referenced by content placed now. With `lineBottom` (a body line's bottom), a note that
   * does not fit between that line and the page bottom is split after its last line that does; the
   * rest (or the whole note, when no line fits) carries on at the top of the next page's notes
   * (LibreOffice keeps the reference line and continues the note).
   */
  noteRefs(ids: string[], lineBottom?: number): void {
    const page = this.page;
    const added: string[] = [];
    for (const id of ids) {
      if (id.startsWith("endnote:")) {
        if (!this.endnotes.includes(id)) this.endnotes.push(id);
        continue;
      }
      if (!id.startsWith("footnote:") || page.notes.includes(id) || this.noteCarry.some((c) => c.id === id)) continue;
      // Once a note runs on to the next page, later notes follow it there.
      if (this.noteCarry.length > 0) this.noteCarry.push({ id, from: 0 });
      else {
        page.notes.push(id);
        added.push(id);
      }
    }
    if (added.length === 0) return;
    page.noteHeight = this.notesHeight();
    if (lineBottom === undefined) return;
    while (added.length > 0 && lineBottom - (page.bodyBottom - page.noteHeight) > 0.01) {
      const overflow = lineBottom - (page.bodyBottom - page.noteHeight);
      const last = added.pop()!;
      const first = page.notes.length === 1;
      const from = first ? (page.noteFrom ?? 0) : 0;
      const shown = this.noteShown(last, first, true);
      let cut = 0;
      // Two lines at least before the split; one may follow it.
      for (const b of (this.opts.noteBreaks?.(last) ?? []).slice(1))
        if (b > from + 0.01 && b - from <= shown - overflow + 0.01) cut = b;
      if (cut > 0) page.noteCut = cut;
      else {
        page.notes.pop();
        if (page.notes.length === 0) page.noteFrom = undefined;
      }
      this.noteCarry.unshift({ id: last, from: cut });
      page.noteHeight = this.notesHeight();
      if (cut > 0) break;
    }
  }

  /** Height `id` shows on this page: from `noteFrom` when first, less its space after when last (not cut). */
  private noteShown(id: string, first: boolean, last: boolean): number {
    const page = this.page;
    const from = first ? (page.noteFrom ?? 0) : 0;
    if (last && page.noteCut !== undefined) return page.noteCut - from;
    const below = last ? (this.opts.noteSpaceBelow?.(id) ?? 0) : 0;
    return Math.max(0, this.opts.noteHeight(id) - from - below);
  }

  /** Room this page's notes take: the separator and what each note shows here. */
  private notesHeight(): number {
    const notes = this.page.notes;
    if (notes.length === 0) return 0;
    let h = this.opts.noteSeparatorHeight;
    notes.forEach((id, i) => (h += this.noteShown(id, i === 0, i === notes.length - 1)));
    return h;
  }

  breakArea(kind: "column" | "page", start: AreaStart = "soft"): void {
    if (kind === "column" && this.column < this.region.columns.length - 1) {
      this.column++;
      this.cursorY = this.region.top;
      this.placed = false;
      this.start = start;
      return;
    }
    if (this.activeLimit() !== null) {
      // Balancing a region: running out of its last column means the trial height was too small.
      throw new RegionOverflow();
    }
    if (kind === "page" && start === "hard" && (this.opts.pageStyleAtBreak?.(this.section) ?? true))
      this.styleSection = this.section;
    this.openPage(false);
    this.start = start;
  }

  /** Starts `section` on a new page. */
  newPage(section: number, start: AreaStart = "hard"): void {
    this.section = section;
    this.styleSection = section;
    this.openPage(true);
    this.start = start;
  }

  /** Number the next page of `section` would get if it started the section. */
  nextNumber(section: number): number {
    return this.opts.numberStart(section) ?? this.page.number + 1;
  }

  /** Inserts an empty page of the current section (odd/even section starts). */
  blankPage(): void {
    this.openPage(false);
    this.page.blank = true;
  }

  /**
   * Continues on the same page below everything placed so far, in a new column setup (a continuous
   * section break). Left/right margins and columns change now; the page box stays until the next page.
   */
  continueWith(section: number): void {
    const top = this.contentBottom();
    this.section = section;
    if (top >= this.page.bodyBottom - this.page.noteHeight) {
      this.openPage(false);
      this.start = "soft";
      return;
    }
    const below = top > this.page.bodyTop + 0.01;
    this.openRegion(top, this.opts.geometry(section, false, this.page.number, this.styleSection));
    // Text above on the page: the new region's first paragraph is not at the top of an area (it
    // keeps its space before, even after a column break in the section above, as in LibreOffice).
    if (below) this.placed = true;
  }

  /** Lowest y reached by any column of the current region. */
  contentBottom(): number {
    return Math.max(this.region.top, ...this.region.columnBottoms);
  }

  /**
   * Limits the columns to end at `bottom` (balancing) on page `fromPage` (default: the current one)
   * and later pages; null lifts the limit.
   */
  limitRegion(bottom: number | null, fromPage = this.pages.length - 1): void {
    this.regionLimit = bottom;
    this.limitFrom = fromPage;
  }

  /** Registers a floating object on the current page. */
  addFloat(f: PlacedFloat): void {
    this.page.floats.push(f);
  }

  /** State to return to when a trial layout (column balancing) is thrown away. */
  snapshot(): PagerSnapshot {
    const page = this.page;
    return {
      pages: this.pages.length,
      items: page.items.length,
      background: page.background.length,
      foreground: page.foreground.length,
      notes: page.notes.length,
      endnotes: this.endnotes.length,
      noteHeight: page.noteHeight,
      noteFrom: page.noteFrom,
      noteCut: page.noteCut,
      noteCarry: [...this.noteCarry],
      floats: page.floats.length,
      regions: page.regions.length,
      numberedLines: page.numberedLines.length,
      region: this.region,
      columnBottoms: [...this.region.columnBottoms],
      column: this.column,
      y: this.cursorY,
      placed: this.placed,
      start: this.start,
      section: this.section,
      styleSection: this.styleSection,
    };
  }

  restore(s: PagerSnapshot): void {
    this.pages.length = s.pages;
    const page = this.page;
    page.items.length = s.items;
    page.background.length = s.background;
    page.foreground.length = s.foreground;
    page.notes.length = s.notes;
    this.endnotes.length = s.endnotes;
    page.noteHeight = s.noteHeight;
    page.noteFrom = s.noteFrom;
    page.noteCut = s.noteCut;
    this.noteCarry = [...s.noteCarry];
    page.floats.length = s.floats;
    page.regions.length = s.regions;
    page.numberedLines.length = s.numberedLines;
    this.region = s.region;
    this.region.columnBottoms = [...s.columnBottoms];
    this.column = s.column;
    this.cursorY = s.y;
    this.placed = s.placed;
    this.start = s.start;
    this.section = s.section;
    this.styleSection = s.styleSection;
  }

  private openPage(firstOfSection: boolean): void {
    if (this.pages.length >= LIMITS.render.maxPages) {
      throw renderLimit(`lays out to more than ${LIMITS.render.maxPages} pages`);
    }
    this.opts.budget.tick(PAGE_WORK);
    const previous = this.pages.length > 0 ? this.page.number : 0;
    const number = (firstOfSection ? this.opts.numberStart(this.section) : undefined) ?? previous + 1;
    const g = this.opts.geometry(this.section, firstOfSection, number, this.styleSection);
    this.pages.push({
      width: g.width,
      height: g.height,
      section: this.styleSection,
      firstOfSection,
      number,
      bodyTop: g.bodyTop,
      bodyBottom: g.bodyBottom,
      background: [],
      items: [],
      foreground: [],
      notes: [],
      noteHeight: 0,
      floats: [],
      regions: [],
      blank: false,
      numberedLines: [],
    });
    this.openRegion(g.bodyTop, g);
    if (this.noteCarry.length > 0) {
      const page = this.page;
      page.notes.push(...this.noteCarry.map((c) => c.id));
      page.noteFrom = this.noteCarry[0]!.from || undefined;
      this.noteCarry = [];
      page.noteHeight = this.notesHeight();
    }
  }

  private openRegion(top: number, g: PageGeometry): void {
    const columns = g.columns.length > 0 ? g.columns : [{ left: 0, width: g.width }];
    this.region = { top, columns, separator: g.separator, columnBottoms: columns.map(() => top) };
    this.page.regions.push(this.region);
    this.column = 0;
    this.cursorY = top;
    this.placed = false;
  }
}

export interface PagerSnapshot {
  pages: number;
  items: number;
  background: number;
  foreground: number;
  notes: number;
  endnotes: number;
  noteHeight: number;
  noteFrom: number | undefined;
  noteCut: number | undefined;
  noteCarry: { id: string; from: number }[];
  floats: number;
  regions: number;
  numberedLines: number;
  region: Region;
  columnBottoms: number[];
  column: number;
  y: number;
  placed: boolean;
  start: AreaStart;
  section: number;
  styleSection: number;
}

/** Thrown inside a balancing trial when the content does not fit the trial height. */
export class RegionOverflow extends Error {
  constructor() {
    super("region overflow");
  }
}
