/**
 * Tab stops and the cursor that places a line's pieces between them: which stop a tab at a given
 * position goes to, where text after a right, centre or decimal tab goes, and how a leader is
 * drawn. Positions are measured from the paragraph box's left edge (Word's and LibreOffice's DOCX
 * mode: tab positions are not relative to the indent).
 */
import type { Paragraph, TabAlign, TabLeader, TabStop } from "../../model/types";
import type { PaintItem } from "../types";
import type { Piece } from "./piece";

/**
 * Widths are compared with this slack (pt), less than one of LibreOffice's layout pixels (1/120 pt,
 * font-face.ts), so float noise never pushes a word that fits to the next line while a word one
 * pixel too wide still goes (LibreOffice compares whole pixels).
 */
export const FIT_EPSILON = 0.004;

export interface ResolvedStop {
  pos: number;
  align: Exclude<TabAlign, "bar" | "clear">;
  leader: TabLeader;
}

/** Smallest advance a default tab stop must give: closer stops are skipped (Word and LibreOffice do the same). */
const MIN_DEFAULT_ADVANCE = 0;

/**
 * The stop a tab starting at `x` moves to: the first explicit stop after `x`, else the implicit stop
 * at the hanging indent (first line of a hanging paragraph), else the next multiple of the default
 * tab stop, counted from the left indent.
 */
export function nextStop(
  x: number,
  tabs: readonly TabStop[],
  defaultTab: number,
  implicitStop: number | null,
  origin: number,
): ResolvedStop {
  const eps = 0.01;
  let best: ResolvedStop | null = null;
  for (const t of tabs) {
    if (t.align === "bar" || t.align === "clear") continue;
    if (t.pos > x + eps) {
      best = { pos: t.pos, align: t.align, leader: t.leader };
      break;
    }
  }
  if (implicitStop !== null && implicitStop > x + eps && (!best || implicitStop < best.pos))
    return { pos: implicitStop, align: "left", leader: "none" };
  if (best) return best;
  const step = defaultTab > 0.5 ? defaultTab : 36;
  const k = Math.floor((x - origin + MIN_DEFAULT_ADVANCE) / step + 1e-6) + 1;
  return { pos: origin + k * step, align: "left", leader: "none" };
}

/** Character repeated to draw a leader, or null when the leader is a line (or none). */
export function leaderChar(leader: TabLeader): string | null {
  switch (leader) {
    case "dot":
      return ".";
    case "hyphen":
      return "-";
    case "middleDot":
      return "\u00B7";
    default:
      return null;
  }
}

/** The leader of a tab of width `w` at `x` (baseline `y`) that went to `stop`: repeated characters into `text`, or a line into `lines`. */
export function leaderItems(
  pc: Piece,
  x: number,
  w: number,
  y: number,
  stop: ResolvedStop | undefined,
  text: PaintItem[],
  lines: PaintItem[],
): void {
  if (!stop || stop.leader === "none" || w <= 0) return;
  const ch = leaderChar(stop.leader);
  if (ch) {
    const cw = pc.face.widthOf(ch, pc.size);
    if (cw <= 0) return;
    // LibreOffice (measured) counts leader characters with their width rounded up to whole twips,
    // then spreads them evenly over the whole tab, from the text before it to the stop.
    const n = Math.floor(w / (Math.ceil(cw * 20 - 1e-6) / 20));
    if (n <= 0) return;
    const spread = (w - n * cw) / n;
    text.push({
      kind: "text",
      x,
      y,
      text: ch.repeat(n),
      face: pc.face,
      size: pc.size,
      color: pc.style.color,
      charSpacing: spread,
      width: w,
    });
  } else {
    const thick = stop.leader === "heavy" ? pc.size * 0.1 : pc.size * 0.05;
    lines.push({
      kind: "line",
      x1: x,
      y1: y + pc.size * 0.1,
      x2: x + w,
      y2: y + pc.size * 0.1,
      width: thick,
      color: pc.style.color,
    });
  }
}

/**
 * The tab stops of a line of `p` starting `exLeft` pt right of the box edge (beside a float).
 * `inCell`: the paragraph is in a table cell, where a lone decimal stop aligns each line (`autoDecimal`).
 */
export function tabContext(p: Paragraph, defaultTab: number, first: boolean, exLeft: number, inCell = false): TabContext {
  const st = p.style;
  // Word's implicit stop at the left indent applies on the first line of a hanging paragraph.
  const implicit = first && st.firstLine < 0 ? exLeft + st.indentLeft : null;
  const tc: TabContext = { tabs: st.tabs, defaultTab, implicit, origin: exLeft };
  // (Not on a line that starts with a list label: the label comes first there.)
  if (inCell && st.tabs.length && !(first && p.numbering)) {
    const stops = st.tabs.filter((t) => t.align !== "clear");
    if (stops.length === 1 && stops[0]!.align === "decimal") tc.autoDecimal = true;
  }
  return tc;
}

/** The tab stops of a line: the paragraph's, the default interval, the hanging indent's implicit stop, the origin of default stops. */
export interface TabContext {
  tabs: Paragraph["style"]["tabs"];
  defaultTab: number;
  implicit: number | null;
  origin: number;
  /**
   * Each line starts as if after a tab to the paragraph's one stop, a decimal one: LibreOffice's
   * Word compatibility in table cells aligns numbers at it with no tab typed (measured).
   */
  autoDecimal?: boolean;
}

interface PendingTab {
  stop: ResolvedStop;
  /** Position in xs/ws; -1 for the line's automatic decimal tab, which has no piece. */
  index: number;
  startX: number;
  segW: number;
  /** Width before the decimal separator, once met (decimal tabs). */
  decW: number | null;
  /** A digit met after the tab (decimal tabs: the first other character after one aligns). */
  digit?: boolean;
}

/**
 * Advances along a line, placing pieces and tabs. Text after a right, centre or decimal tab is
 * placed relative to the tab until the next tab or the end of the line decides the tab's width.
 */
export class TabCursor {
  readonly xs: number[] = [];
  readonly ws: number[] = [];
  readonly stops = new Map<number, ResolvedStop>();
  private x: number;
  private pend: PendingTab | null = null;
  private base = -1;

  constructor(
    x0: number,
    private readonly tc: TabContext,
    private readonly right: number,
  ) {
    this.x = x0;
    if (tc.autoDecimal) {
      const stop = nextStop(x0, tc.tabs, tc.defaultTab, null, tc.origin);
      if (stop.align === "decimal") this.pend = { stop, index: -1, startX: x0, segW: 0, decW: null };
    }
  }

  end(): number {
    return this.pend ? this.pendStart(this.pend.segW, this.pend.decW) + this.pend.segW : this.x;
  }

  /**
   * Where the line's text may end: the right edge, or a right tab stop set past it, which the
   * text aligned to it may reach (LibreOffice's tab-over-margin for DOCX, measured).
   */
  limit(): number {
    const stop = this.pend?.stop;
    return stop && stop.align === "right" && stop.pos > this.right ? stop.pos : this.right;
  }

  /** End of the line if a piece of width `w` were added. */
  endWith(w: number): number {
    if (!this.pend) return this.x + w;
    return this.pendStart(this.pend.segW + w, this.pend.decW) + this.pend.segW + w;
  }

  add(pc: Piece, k: number): void {
    if (this.base < 0) this.base = k;
    const o = k - this.base;
    if (pc.kind === "tab") {
      this.resolve();
      let stop = nextStop(this.x, this.tc.tabs, this.tc.defaultTab, this.tc.implicit, this.tc.origin);
      // A default stop past the right edge ends at the edge (LibreOffice): what follows wraps.
      if (stop.pos > this.right && !this.tc.tabs.some((t) => t.pos === stop.pos))
        stop = { ...stop, pos: Math.max(this.x, this.right) };
      this.stops.set(k, stop);
      this.xs[o] = this.x;
      if (stop.align === "left") {
        this.ws[o] = stop.pos - this.x;
        this.x = stop.pos;
      } else {
        this.ws[o] = 0;
        this.pend = { stop, index: o, startX: this.x, segW: 0, decW: null };
      }
      return;
    }
    const w = pc.kind === "float" || pc.kind === "break" ? 0 : pc.width;
    this.ws[o] = w;
    if (this.pend) {
      const pend = this.pend;
      if (pend.stop.align === "decimal" && pend.decW === null) {
        const at = decimalAt(pc, pend);
        if (at >= 0)
          pend.decW =
            pend.segW +
            (pc.face.widthOf(pc.text.slice(0, at), pc.size) * pc.style.scale) / 100 +
            pc.style.charSpacing * at;
      }
      this.xs[o] = pend.segW;
      pend.segW += w;
    } else {
      this.xs[o] = this.x;
      this.x += w;
    }
  }

  /** Would a tab added now go to a default stop at or past the right edge? (Explicit stops are kept.) */
  tabReachesEdge(): boolean {
    const x = this.end();
    const stop = nextStop(x, this.tc.tabs, this.tc.defaultTab, this.tc.implicit, this.tc.origin);
    return stop.pos >= this.right - FIT_EPSILON && !this.tc.tabs.some((t) => t.pos === stop.pos);
  }

  /** Fixes the pending tab's width and the positions of the text after it. */
  resolve(): void {
    const pend = this.pend;
    if (!pend) return;
    const start = this.pendStart(pend.segW, pend.decW);
    if (pend.index >= 0) this.ws[pend.index] = start - pend.startX;
    for (let o = pend.index + 1; o < this.xs.length; o++) this.xs[o]! += start;
    this.x = start + pend.segW;
    this.pend = null;
  }

  private pendStart(segW: number, decW: number | null): number {
    const p = this.pend!;
    const pos = p.stop.pos;
    let start: number;
    if (p.stop.align === "right") start = pos - segW;
    else if (p.stop.align === "center") start = pos - segW / 2;
    // Text after a decimal tab that would run past the right edge moves left until it ends there
    // (the tab shrinking to nothing at most), rather than wrapping (LibreOffice; measured).
    else start = Math.min(pos - (decW ?? segW), this.right - segW);
    return Math.max(p.startX, start);
  }
}

/**
 * Where in piece `pc` text after a decimal tab aligns: its decimal point, or, by LibreOffice's Word
 * compatibility, the first character other than a digit or comma after a digit (a space too:
 * "F1 2.5" aligns after "F1"; measured). -1: not in this piece.
 */
function decimalAt(pc: Piece, pend: PendingTab): number {
  if (pc.kind === "space") return pend.digit ? 0 : -1;
  if (pc.kind !== "text") return -1;
  for (let i = 0; i < pc.text.length; i++) {
    const c = pc.text.charCodeAt(i);
    if (c === 0x2e) return i;
    if (c >= 0x30 && c <= 0x39) pend.digit = true;
    else if (pend.digit && c !== 0x2c) return i;
  }
  return -1;
}
