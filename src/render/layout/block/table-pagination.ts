/**
 * A prepared table's rows placed across pages: a row that does not fit moves to the next page, or
 * splits at line boundaries of its cells; header rows repeat at the top of each continued page;
 * rows kept with the next go on together; merged cells span pages; borders take room between rows
 * (as in LibreOffice) and are drawn as lines centred in that room.
 */
import type { Table } from "../../model/types";
import { anchorY, translateItem } from "../items";
import type { FlowCursor } from "../types";
import { horizontalEdgeWidth, horizontalLines, verticalEdge, verticalLines } from "./table-borders";
import type { GridCell, TableGrid } from "./table-grid";
import { cellNeed, EPS, type PreparedTable } from "./table-prepare";

/** Leading header rows that repeat; none when every row is a header (nothing would follow them). */
function headerRowCount(t: Table): number {
  let n = 0;
  while (n < t.rows.length && t.rows[n]!.header) n++;
  return n === t.rows.length ? 0 : n;
}

/** A merged cell open on the current page: where its box starts. */
interface OpenMerge {
  top: number;
  /** First row of the span on this page. */
  firstRow: number;
  /** Whether its content was already drawn on an earlier page. */
  drawn: boolean;
}

/**
 * Places a prepared table's rows at the cursor, row by row: a row that does not fit moves to the
 * next page or splits at line boundaries of its cells; header rows repeat; merged cells are drawn
 * once their span (or the page) ends; `onRowBoundary` hears the y below each whole row.
 */
export function paginate(
  p: PreparedTable,
  cursor: FlowCursor,
  onRowBoundary?: (y: number, continueTrim?: number) => void,
  keepAfter = 0,
): void {
  if (p.t.rows.length === 0) return;
  new RowPaginator(p, cursor, onRowBoundary, keepAfter).run();
}

class RowPaginator {
  private readonly t: Table;
  private readonly grid: TableGrid;
  private readonly rowCount: number;
  private readonly headers: number;
  /** Row above on this page (-1: the next row starts the table's part on this page). */
  private above = -1;
  /** Rows other than repeated headers placed on this page (whole or in part). */
  private bodyRowsHere = 0;
  /** Content already placed of the cells of a row that was split (offset into their stacks). */
  private consumed: Map<GridCell, number> | null = null;
  /**
   * Where each cell of a split row was cut, when its continuation is drawn from higher up (a
   * paragraph continued in a cell shows its space before again above its next line): content above
   * the cut is not drawn twice.
   */
  private cutAt: Map<GridCell, number> | null = null;
  private fresh: boolean;
  private readonly open = new Map<GridCell, OpenMerge>();
  private readonly drawnMerges = new Set<GridCell>();

  constructor(
    private readonly p: PreparedTable,
    private readonly cursor: FlowCursor,
    private readonly onRowBoundary: ((y: number, continueTrim?: number) => void) | undefined,
    private readonly keepAfter: number,
  ) {
    this.t = p.t;
    this.grid = p.grid;
    this.rowCount = p.t.rows.length;
    this.headers = headerRowCount(p.t);
    this.fresh = cursor.atAreaTop();
  }

  run(): void {
    const { p, t, cursor, rowCount } = this;
    let r = 0;
    // Every pass places a row, splits one after at least one line, or breaks the page once before doing so.
    let guard = 16;
    for (const c of p.content.values()) guard += 2 * c.breakPoints.length;
    guard += rowCount * 3;
    while (r < rowCount && guard-- > 0) {
      const room = this.roomOver(r);
      const under = this.roomUnder(r);
      const consumed = this.consumed;
      const left = consumed ? remainingHeight(p, r, consumed) : p.heights[r]!;
      const available = cursor.remaining() - room - under;
      const kept = r === rowCount - 1 && consumed === null && !this.fresh ? this.keepAfter : 0;
      // The row (or its rest) with the footnotes it references, the last of them only begun.
      const rowNotes = this.notesOf(r, consumed, null);
      const need = left + (cursor.notesNeed?.(rowNotes) ?? 0);
      if (need <= available + EPS && need + kept > available + EPS) {
        // The last row fits but what it keeps with does not: both go on.
        this.nextPage(r);
        continue;
      }
      if (
        need <= available + EPS &&
        consumed === null &&
        this.bodyRowsHere > 0 &&
        this.above === r - 1 &&
        !rowKeepsWithNext(t, this.above) &&
        this.keptRowsOverflow(r, available)
      ) {
        // Rows that keep with the next one go on with the first row that does not fit whole, when a
        // row without keep stays above them (else LibreOffice splits as if they did not keep).
        this.nextPage(r);
        continue;
      }
      if (need <= available + EPS) {
        const box = this.placeRow(r, left, consumed, null);
        cursor.noteRefs(rowNotes, box.bottom);
        this.consumed = null;
        this.cutAt = null;
        this.fresh = false;
        if (this.onRowBoundary) {
          // A stacked table (in a cell) tells the cell where it may be cut: inside its rows too, so a
          // row of a table nested in a table nested in a cell splits across pages as LibreOffice
          // splits it, instead of running off the page.
          if (consumed === null)
            for (const { y, trim } of innerBreakPoints(p, r, box.top, box.bottom))
              this.onRowBoundary(y, trim - this.continuedRoom(r));
          this.onRowBoundary(cursor.y);
        }
        r++;
        continue;
      }
      // A row that keeps with the next one is not split where it could go on whole (LibreOffice, measured).
      const keepWhole: boolean = consumed === null && !this.fresh && rowKeepsWithNext(t, r);
      // A row taller than an empty page splits at its lines even when marked cantSplit (LibreOffice),
      // rather than let what runs off the page be lost. An exact height still clips its content.
      const tallerThanPage =
        (this.fresh || cursor.atAreaTop()) && left > available + EPS && t.rows[r]!.height?.rule !== "exact";
      const split = (canSplit(p, r) || tallerThanPage) && !keepWhole ? this.splitWithNotes(r, available) : null;
      if (split && split.progress && (consumed !== null || this.everyCellStarts(r, split.cut))) {
        const box = this.placeRow(r, split.height, consumed, split.cut);
        cursor.noteRefs(this.notesOf(r, consumed, split.cut), box.bottom);
        this.consumed = split.cut;
        this.cutAt = new Map(split.cut);
        this.nextPage(r);
        // LibreOffice drops a continued line's proportional-spacing extra at the top of a page.
        for (const [g, at] of split.cut) split.cut.set(g, at + (p.content.get(g)!.continueTrim?.get(at) ?? 0));
        continue;
      }
      if (this.fresh || cursor.atAreaTop()) {
        // Nothing fits even on an empty page and the row has no line to split at: place it whole and overflow.
        const box = this.placeRow(r, left, consumed, null);
        cursor.noteRefs(rowNotes, box.bottom);
        this.consumed = null;
        this.cutAt = null;
        this.fresh = false;
        r++;
        continue;
      }
      this.nextPage(r);
    }
    // Never reached when the pass count above holds; if it did not, the rest still shows (unpaginated).
    for (; r < rowCount; r++) {
      const consumed = this.consumed;
      this.placeRow(r, consumed ? remainingHeight(p, r, consumed) : p.heights[r]!, consumed, null);
      this.consumed = null;
    }
    this.closeTable();
  }

  /**
   * Note references of row r's part from `from` (null: its start) to `to` (null: its end): the
   * notes of the lines whose tops are in it, for the cells starting in the row (a merged cell's
   * with its first part).
   */
  private notesOf(r: number, from: Map<GridCell, number> | null, to: Map<GridCell, number> | null): string[] {
    const out: string[] = [];
    for (const g of cellsStartingOrCovering(this.grid, r)) {
      const lines = this.p.notes.get(g);
      if (!lines || g.row !== r) continue;
      if (g.rowSpan > 1) {
        if (from === null) for (const n of lines) out.push(...n.ids);
        continue;
      }
      const a = from?.get(g) ?? 0;
      const b = to?.get(g) ?? Number.POSITIVE_INFINITY;
      for (const n of lines) if (n.top >= a - EPS && n.top < b - EPS) out.push(...n.ids);
    }
    return out;
  }

  /**
   * splitRow with room left for the footnotes the part references (LibreOffice shrinks the body by
   * them): the longest part that fits with the notes of its lines, the last note only begun. A
   * longer part never needs less room, so the cut is found by bisection over the cells' line ends.
   */
  private splitWithNotes(r: number, available: number): ReturnType<typeof splitRow> {
    const { p, cursor } = this;
    const consumed = this.consumed;
    const plain = splitRow(p, r, consumed, available);
    const need = cursor.notesNeed?.bind(cursor);
    if (!need || this.notesOf(r, consumed, null).length === 0) return plain;
    // A null split here means the whole rest fits without its notes, and the caller found it does not with them.
    const fits = (s: ReturnType<typeof splitRow>) =>
      s !== null && s.height + need(this.notesOf(r, consumed, s.cut)) <= available + EPS;
    if (fits(plain)) return plain;
    const rooms = new Set<number>();
    for (const g of cellsStartingOrCovering(p.grid, r)) {
      if (g.rowSpan > 1) continue;
      const from = consumed?.get(g) ?? 0;
      const margins = g.cell.margins.top + g.cell.margins.bottom;
      for (const bp of p.content.get(g)!.breakPoints)
        if (bp > from + EPS && bp - from + margins < available - EPS) rooms.add(bp - from + margins);
    }
    const sorted = [...rooms].sort((a, b) => a - b);
    let lo = 0;
    let hi = sorted.length - 1;
    let best: ReturnType<typeof splitRow> = null;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = splitRow(p, r, consumed, sorted[mid]!);
      if (fits(s)) {
        best = s;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    // At the top of a page the first lines go here even when their notes do not fit.
    if (!best && (this.fresh || cursor.atAreaTop()) && sorted.length) return splitRow(p, r, consumed, sorted[0]!);
    return best;
  }

  /**
   * The row part that continues a split row at the top of a page takes the row's bottom border as
   * its top one when its own top edge has none (LibreOffice draws a rule there, measured).
   */
  private continuedTop(r: number, continuing: boolean): boolean {
    return continuing && horizontalEdgeWidth(this.t, this.grid, -1, r) === 0;
  }

  /** Room above row r's part that continues it at the top of a page (its top rule, see continuedTop). */
  private continuedRoom(r: number): number {
    const { t, grid } = this;
    return this.continuedTop(r, true) ? horizontalEdgeWidth(t, grid, r, -1) : horizontalEdgeWidth(t, grid, -1, r);
  }

  private roomOver(r: number, continuing = this.consumed !== null): number {
    const { t, grid } = this;
    return this.above >= 0
      ? this.p.roomAbove[r]!
      : this.continuedTop(r, continuing)
        ? horizontalEdgeWidth(t, grid, r, -1)
        : horizontalEdgeWidth(t, grid, -1, r);
  }

  private roomUnder(r: number): number {
    return horizontalEdgeWidth(this.t, this.grid, r, -1);
  }

  /** Places row r (or what is left of it) with cell boxes of height h; `cut` limits each cell's content. */
  private placeRow(
    r: number,
    h: number,
    from: Map<GridCell, number> | null,
    cut: Map<GridCell, number> | null,
  ): { top: number; bottom: number } {
    const { p, t, grid, cursor } = this;
    const y = cursor.y;
    const continuing = from !== null && this.above < 0;
    const room = this.roomOver(r, from !== null);
    const top = y + room;
    const bottom = top + h;
    const rowCells = cellsStartingOrCovering(grid, r);
    // Backgrounds, then content, then borders (painting order).
    for (const g of rowCells) {
      if (g.rowSpan > 1) {
        if (!this.open.has(g)) this.open.set(g, { top, firstRow: r, drawn: this.drawnMerges.has(g) });
        continue;
      }
      const skip = from !== null ? this.cutAt?.get(g) : undefined;
      drawCell(
        p,
        g,
        cursor,
        top,
        bottom,
        from?.get(g) ?? 0,
        cut?.get(g) ?? null,
        from === null && cut === null,
        true,
        skip,
      );
    }
    const topEdge = this.continuedTop(r, continuing)
      ? horizontalLines(t, grid, r, -1, y + room / 2, p.edges, p.left)
      : horizontalLines(t, grid, this.above, r, y + room / 2, p.edges, p.left);
    for (const line of topEdge) cursor.emit(line);
    for (const line of verticalLines(t, grid, r, y, bottom, p.edges, p.left)) cursor.emit(line);
    cursor.y = bottom;
    this.above = r;
    if (r >= this.headers) this.bodyRowsHere++;
    for (const [g, o] of this.open) if (g.row + g.rowSpan - 1 === r) this.closeMerge(g, o, bottom, true);
    return { top, bottom };
  }

  private closeMerge(g: GridCell, o: OpenMerge, bottom: number, complete: boolean): void {
    const { p, cursor } = this;
    this.open.delete(g);
    drawCell(p, g, cursor, o.top, bottom, 0, null, complete && !o.drawn && o.firstRow === g.row, !o.drawn);
    this.drawnMerges.add(g);
    // Its shading went over the halves of its side borders drawn with the rows: draw them again.
    if (!g.cell.shading) return;
    for (const c of [g.col, g.col + g.colSpan]) {
      const b = verticalEdge(this.t, this.grid, o.firstRow, c);
      if (!b) continue;
      const x = p.left + p.edges[c]!;
      cursor.emit({ kind: "line", x1: x, y1: o.top, x2: x, y2: bottom, width: b.width, color: b.color });
    }
  }

  /** Ends the table's part on this page: bottom border, merged cells cut here. */
  private closePage(): void {
    if (this.above < 0) return;
    for (const [g, o] of this.open) this.closeMerge(g, o, this.cursor.y, false);
    this.bottomBorder();
  }

  /** The border under the last row placed, and the room it takes. */
  private bottomBorder(): void {
    const { p, cursor } = this;
    const room = this.roomUnder(this.above);
    for (const line of horizontalLines(this.t, this.grid, this.above, -1, cursor.y + room / 2, p.edges, p.left))
      cursor.emit(line);
    cursor.y += room;
  }

  private nextPage(r: number): void {
    const { p, t, grid, cursor, headers } = this;
    this.closePage();
    cursor.breakArea("page");
    this.above = -1;
    this.bodyRowsHere = 0;
    this.fresh = true;
    if (headers > 0 && r >= headers) {
      let need = 0;
      for (let h = 0; h < headers; h++)
        need += (h === 0 ? horizontalEdgeWidth(t, grid, -1, 0) : p.roomAbove[h]!) + p.heights[h]!;
      // Headers taking more than half the page would leave little room for the rows they head: drop them.
      if (need + this.roomUnder(headers - 1) <= cursor.remaining() / 2)
        for (let h = 0; h < headers; h++) this.placeRow(h, p.heights[h]!, null, null);
    }
  }

  /**
   * Word's "table row keep" as LibreOffice follows it for DOCX: a row whose first cell starts with a
   * keep-with-next paragraph stays on the page of the row after it. Whether rows r.. that keep, and
   * the first row after them that does not, overflow `available` (r itself fits).
   */
  private keptRowsOverflow(r: number, available: number): boolean {
    const { p, t, rowCount } = this;
    if (!rowKeepsWithNext(t, r)) return false;
    // `available` is what row r has between its borders; rows below add their own.
    let used = p.heights[r]! - this.roomUnder(r);
    for (let k = r + 1; k < rowCount; k++) {
      if (!rowKeepsWithNext(t, k - 1)) return false; // all of the chain and the row after it fit
      const room = available - used - p.roomAbove[k]! - this.roomUnder(k);
      if (p.heights[k]! <= room + EPS) {
        used += p.roomAbove[k]! + p.heights[k]!;
        continue;
      }
      // Row k is the first that does not fit whole: LibreOffice splits it where it can, else the
      // rows keeping with it go on with it.
      return !this.rowSplitsEverywhere(k, room);
    }
    return false;
  }

  /** Row k splits in `room` (see everyCellStarts); a row that keeps with the next does not. */
  private rowSplitsEverywhere(k: number, room: number): boolean {
    const split = canSplit(this.p, k) && !rowKeepsWithNext(this.t, k) ? splitRow(this.p, k, null, room) : null;
    return !!split?.progress && this.everyCellStarts(k, split.cut);
  }

  /**
   * LibreOffice splits a row only where the first line (or kept group) of every cell fits above the
   * cut; else the row goes on whole (measured).
   */
  private everyCellStarts(k: number, cut: Map<GridCell, number>): boolean {
    for (const g of cellsStartingOrCovering(this.grid, k))
      if (g.row === k && this.p.content.get(g)!.height > EPS && !((cut.get(g) ?? 0) > EPS)) return false;
    return true;
  }

  private closeTable(): void {
    for (const [g, o] of this.open) this.closeMerge(g, o, this.cursor.y, true);
    if (this.above >= 0) this.bottomBorder();
  }
}

/** How far vAlign moves a cell's whole content down in a box of height h. */
function alignOffset(p: PreparedTable, g: GridCell, h: number): number {
  const { cell } = g;
  if (cell.vAlign === "top") return 0;
  const free = h - cell.margins.top - cell.margins.bottom - p.content.get(g)!.height;
  if (free <= 0) return 0;
  return cell.vAlign === "center" ? free / 2 : free;
}

/**
 * Where row r, drawn whole in [top, bottom), may be cut: at a y where every cell of the row is cut
 * at one of its own break points (a line or row boundary of its content) or has no content across
 * it; `trim` is what the cells' content asks for when continued from there (see StackedBlocks).
 * Rows with merged cells are not cut inside.
 */
function innerBreakPoints(p: PreparedTable, r: number, top: number, bottom: number): { y: number; trim: number }[] {
  const cells = cellsStartingOrCovering(p.grid, r);
  if (cells.some((g) => g.rowSpan > 1)) return [];
  const spans = cells.map((g) => {
    const c = p.content.get(g)!;
    const from = top + g.cell.margins.top + alignOffset(p, g, bottom - top);
    // `next`: the first of the cell's (ascending) break points not below the y looked at, so the
    // row costs one pass over its cells' break points, however many lines a nested cell holds.
    return { from, to: from + c.height, c, next: 0 };
  });
  const out: { y: number; trim: number }[] = [];
  for (const y of spans.flatMap((s) => s.c.breakPoints.map((bp) => s.from + bp)).sort((a, b) => a - b)) {
    if (y <= top + EPS || y >= bottom - EPS) continue;
    if (out.length > 0 && y - out[out.length - 1]!.y <= EPS) continue;
    let trim = 0;
    let everyCell = true;
    for (const s of spans) {
      if (y <= s.from + EPS || y >= s.to - EPS) continue;
      const points = s.c.breakPoints;
      while (s.next < points.length && s.from + points[s.next]! < y - EPS) s.next++;
      const at = points[s.next];
      if (at === undefined || Math.abs(s.from + at - y) > EPS) {
        everyCell = false;
        break;
      }
      trim = Math.min(trim, s.c.continueTrim?.get(at) ?? 0);
    }
    if (everyCell) out.push({ y, trim });
  }
  return out;
}

/** Whether a cell of the table's last row starts with a keep-with-next paragraph (LibreOffice keeps the row with what follows). */
export function lastRowKeepsWithNext(t: Table): boolean {
  const row = t.rows[t.rows.length - 1];
  return !!row && row.cells.some((c) => c.blocks[0]?.type === "paragraph" && c.blocks[0].style.keepNext);
}

/** The row's first cell starts with a keep-with-next paragraph (LibreOffice looks at that cell only). */
function rowKeepsWithNext(t: Table, r: number): boolean {
  const first = t.rows[r]?.cells[0]?.blocks[0];
  return first?.type === "paragraph" && first.style.keepNext;
}

/** Cells with a box in row r: those starting there and merged cells covering it. */
function cellsStartingOrCovering(grid: TableGrid, r: number): GridCell[] {
  const out: GridCell[] = [];
  // A cell's slots are consecutive: comparing with the previous slot is enough.
  let prev: GridCell | null = null;
  for (const g of grid.slots[r] ?? []) {
    if (g && g !== prev) out.push(g);
    prev = g;
  }
  return out;
}

/**
 * Rows with exact heights or cantSplit stay whole, and so does a row whose minimum height holds all
 * its content: LibreOffice moves it whole (measured). Rows with merged cells split too (LibreOffice,
 * measured), as long as the merged cells' content fits above the cut: see `splitRow`.
 */
function canSplit(p: PreparedTable, r: number): boolean {
  const row = p.t.rows[r]!;
  if (row.cantSplit || row.height?.rule === "exact") return false;
  const cells = cellsStartingOrCovering(p.grid, r).filter((g) => g.row === r);
  if (row.height && Number.isFinite(row.height.value)) {
    const tallest = Math.max(0, ...cells.map((g) => cellNeed(g, p.content)));
    if (tallest <= row.height.value + EPS) return false;
  }
  return true;
}

/** Height of what is left of a split row: its tallest cell's remaining content plus margins. */
function remainingHeight(p: PreparedTable, r: number, consumed: Map<GridCell, number>): number {
  let h = 0;
  for (const g of cellsStartingOrCovering(p.grid, r)) {
    // A merged cell's content went whole onto the first part (splitRow); its box runs on regardless.
    if (g.rowSpan > 1) continue;
    const c = p.content.get(g)!;
    h = Math.max(h, g.cell.margins.top + Math.max(0, c.height - (consumed.get(g) ?? 0)) + g.cell.margins.bottom);
  }
  return h;
}

/**
 * Where each cell of row r breaks so that the row's part fits in `available`: the lowest line
 * boundary of each cell that fits. `progress` says whether any cell placed a line.
 */
function splitRow(
  p: PreparedTable,
  r: number,
  consumed: Map<GridCell, number> | null,
  available: number,
): { cut: Map<GridCell, number>; height: number; progress: boolean } | null {
  const cut = new Map<GridCell, number>();
  let height = 0;
  let progress = false;
  for (const g of cellsStartingOrCovering(p.grid, r)) {
    const c = p.content.get(g)!;
    const from = consumed?.get(g) ?? 0;
    const room = available - g.cell.margins.top - g.cell.margins.bottom;
    if (g.rowSpan > 1) {
      // A merged cell keeps its content whole above the cut (its box continues over the next page);
      // one whose content does not fit there keeps the row whole.
      cut.set(g, c.height);
      if (from >= c.height - EPS) continue;
      let over = 0; // its rows above this one
      for (let k = g.row; k < r; k++) over += p.heights[k]! + p.roomAbove[k + 1]!;
      if (c.height - from > room + over + EPS) return null;
      if (g.row === r) height = Math.max(height, g.cell.margins.top + (c.height - from) + g.cell.margins.bottom);
      continue;
    }
    let to = from;
    if (c.height - from - (c.endSlack ?? 0) <= room + EPS) to = c.height;
    else for (const bp of c.breakPoints) if (bp > from + EPS && bp - from <= room + EPS) to = Math.max(to, bp);
    if (to > from + EPS) progress = true;
    cut.set(g, to);
    height = Math.max(height, g.cell.margins.top + (to - from) + g.cell.margins.bottom);
  }
  // A split that places nothing on the next page either is no split.
  if (![...cut.entries()].some(([g, to]) => to < p.content.get(g)!.height - EPS)) return null;
  return { cut, height, progress };
}

/**
 * Shading and content of one cell box [top, bottom). `from`/`to` select the part of its content
 * drawn here (a split row); `align` applies vAlign (only when the whole content is drawn).
 */
function drawCell(
  p: PreparedTable,
  g: GridCell,
  cursor: FlowCursor,
  top: number,
  bottom: number,
  from: number,
  to: number | null,
  align: boolean,
  content = true,
  skipBefore?: number,
): void {
  const { cell } = g;
  const a = p.edges[g.col]!;
  const b = p.edges[g.col + g.colSpan]!;
  const x = p.left + Math.min(a, b);
  const width = Math.abs(b - a);
  if (cell.shading && bottom > top)
    cursor.emit({ kind: "rect", x, y: top, width, height: bottom - top, fill: cell.shading });
  if (!content) return;
  const stacked = p.content.get(g)!;
  const dy = top + cell.margins.top - from + (align ? alignOffset(p, g, bottom - top) : 0);
  const dx = x + cell.margins.left;
  // Content taller than the box (exact row heights): what starts below the box is cut off, as
  // LibreOffice clips it; a line crossing the bottom edge stays.
  const limit =
    stacked.height - from > bottom - top - cell.margins.top + EPS
      ? from + (bottom - top - cell.margins.top)
      : Number.POSITIVE_INFINITY;
  for (const item of stacked.items) {
    const ay = anchorY(item);
    if (ay < (skipBefore ?? from) - EPS) continue;
    if (to !== null && ay >= to - EPS) continue;
    if ((item.kind === "text" ? ay - item.face.ascent(item.size) : ay) >= limit) continue;
    cursor.emit(translateItem(item, dx, dy));
  }
}
