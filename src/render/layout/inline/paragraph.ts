/**
 * Paragraph (inline) layout: a paragraph's pieces broken into lines within a width, with Word's and
 * LibreOffice's rules for indents, numbering labels, tabs, alignment, line height and run
 * decorations. Items are relative to the line box (x from the paragraph box's left edge, y from the
 * line top, text y = baseline).
 *
 * Right-to-left: lines are laid out from the start edge and mirrored for bidi paragraphs; pieces
 * carry their bidi embedding level (layout/bidi.ts, no explicit embeddings) and a line's pieces
 * are put in visual order by rule L2; paint shapes and mirrors the right-to-left items.
 */
import { LIMITS } from "../../../limits";
import { isEastAsian } from "../../fonts/east-asian";
import type { Paragraph, RunStyle } from "../../model/types";
import { decorate } from "./decorations";
import { buildPieces, type Piece } from "./pieces";
import { visualOrderOfLevels } from "./bidi";
import { leaderChar, nextStop, type ResolvedStop } from "./tabs";
import { chartItems } from "../objects/chart";
import { mathOf } from "../objects/math";
import { kashidaPositions } from "./kashida";
import { joinedAdvances, joinedWidth, needsJoining } from "./arabic-joining";
import { translateItem } from "../items";
import { BOX_INSET_X, BOX_INSET_Y, stackBlocks } from "../block/stack";
import type { Exclusions, FloatingObject, LayoutContext, LayoutParagraph, LineBox, PaintItem, ParagraphLayout } from "../types";

/**
 * Widths are compared with this slack (pt), less than one of LibreOffice's layout pixels (1/120 pt,
 * font-face.ts), so float noise never pushes a word that fits to the next line while a word one
 * pixel too wide still goes (LibreOffice compares whole pixels).
 */
const FIT_EPSILON = 0.004;
/** LibreOffice puts the baseline of an exact-height line at 80 % of the height. */
const EXACT_ASCENT_RATIO = 0.8;

export const layoutParagraph: LayoutParagraph = (p, width, ctx, exclusions, widthOf) => new ParagraphLayouter(p, width, ctx, exclusions, widthOf).run();

interface Placement {
  xs: number[];
  ws: number[];
  /** Tab stops the tabs of the line went to (index → stop), for leaders. */
  stops: Map<number, ResolvedStop>;
}

const TATWEEL = 0x640;

/** Where a justified line stretches its Arabic words: piece index → UTF-16 offsets, and the width of each kashida. */
interface KashidaPlan {
  at: Map<number, number[]>;
  add: number;
}

class ParagraphLayouter {
  private readonly pieces: Piece[];
  private readonly lines: LineBox[] = [];
  private readonly floats: FloatingObject[] = [];
  private readonly bidi: boolean;
  private readonly indentStart: number;
  private readonly indentEnd: number;
  /** Font height (single-spaced, without inline objects) of the last line laid out. */
  private lastNatural = 0;
  /** The kashidas of the line being emitted (finishLine → emitLine). */
  private kashidas: KashidaPlan | null = null;
  /** Nothing but spaces and tabs: the paragraph style's font, not the runs', sets the height. */
  private readonly blank: boolean;

  constructor(
    private readonly p: Paragraph,
    private readonly width: number,
    private readonly ctx: LayoutContext,
    private readonly exclusions?: Exclusions,
    private readonly widthOf?: (line: number) => number,
  ) {
    this.bidi = p.style.bidi;
    this.indentStart = p.style.indentLeft;
    this.indentEnd = p.style.indentRight;
    this.pieces = buildPieces(p, ctx);
    this.addLabelSuffix();
    const isBlank = (pc: Piece) => pc.kind === "space" || pc.kind === "tab";
    this.blank = !!p.styleRun && this.pieces.some(isBlank) && this.pieces.every((pc) => isBlank(pc) || pc.kind === "float");
  }

  run(): ParagraphLayout {
    const pieces = this.pieces;
    let i = 0;
    let top = 0;
    let first = true;
    // A paragraph ending in a break still has a line after it (the paragraph mark's).
    let markLine = false;
    while (i < pieces.length || first || markLine) {
      const startX = this.indentStart + (first ? this.p.style.firstLine : 0);
      const labelShift = first ? this.labelShift() : 0;
      let dy = 0;
      let end: number;
      let right: number;
      let left: number;
      let steps = 0;
      let exLeft = 0;
      let split: { index: number; at: number } | undefined;
      for (;;) {
        const ex = this.exclusions ? this.exclusions(top + dy, this.estimateHeight(i)) : { left: 0, right: 0 };
        exLeft = ex.left;
        left = ex.left + startX - labelShift;
        right = this.lineWidth() - this.indentEnd - ex.right;
        const fit = this.fitLine(i, left, right, first, ex.left);
        end = fit.end;
        split = fit.split;
        const narrowed = ex.left > 0 || ex.right > 0;
        if (!narrowed || !fit.forced || ++steps > LIMITS.paragraph.maxExclusionSteps) break;
        // Not even one word fits beside the float: try lower, one line at a time.
        dy += Math.max(1, this.estimateHeight(i));
      }
      if (split) this.splitPiece(split.index, split.at);
      else if (end < pieces.length && pieces[end - 1]?.softHyphen) this.showSoftHyphen(end - 1);
      const line = this.finishLine(i, end, left, right, first, exLeft, dy);
      this.lines.push(line);
      top += line.height;
      markLine = end >= pieces.length && end > i && pieces[end - 1]!.kind === "break";
      i = end;
      first = false;
      if (this.lines.length > LIMITS.paragraph.maxLines) break;
    }
    // LibreOffice gives the first line no extra space above; instead the last line gets its own extra below.
    const rule = this.p.style.line;
    const last = this.lines[this.lines.length - 1];
    if (rule.rule === "auto" && rule.value > 1 && last) {
      const extra = (rule.value - 1) * this.lastNatural;
      last.height += extra;
      last.extraBelow = extra;
    }
    return { spaceBefore: this.p.style.spaceBefore, spaceAfter: this.p.style.spaceAfter, lines: this.lines, floats: this.floats };
  }

  /** Width of the line being laid out (the next one of `lines`). */
  private lineWidth(): number {
    return this.widthOf ? this.widthOf(this.lines.length) : this.width;
  }

  /** The numbering label's suffix: a tab (to the next stop after the label) or a space. */
  private addLabelSuffix(): void {
    const num = this.p.numbering;
    if (!num) return;
    let last = -1;
    for (let k = 0; k < this.pieces.length && this.pieces[k]!.label; k++) {
      this.pieces[k]!.breakAfter = false;
      last = k;
    }
    const face = this.ctx.fonts.face({ family: num.style.font, bold: num.style.bold, italic: num.style.italic });
    const base = { face, metrics: face, size: num.style.size, style: num.style, rise: 0, breakAfter: false, label: true, chars: 1, rtl: false };
    if (num.suffix === "tab") this.pieces.splice(last + 1, 0, { ...base, kind: "tab", text: "\t", width: 0 });
    else if (num.suffix === "space") {
      const w = face.widthOf(" ", num.style.size) + num.style.charSpacing;
      this.pieces.splice(last + 1, 0, { ...base, kind: "space", text: " ", width: w });
    }
  }

  /** How far a centred or right-aligned label starts before the first-line position. */
  private labelShift(): number {
    const num = this.p.numbering;
    // A bidi paragraph's label keeps lvlJc's left and right as page directions (LibreOffice,
    // measured): a left-aligned label starts at its position and runs towards the right, the start edge.
    const align = this.bidi && num && num.align !== "center" ? (num.align === "left" ? "right" : "left") : num?.align;
    if (!num || align === "left") return 0;
    let w = 0;
    for (const pc of this.pieces) {
      if (!pc.label || (pc.kind !== "text" && pc.kind !== "object")) break;
      w += pc.width;
    }
    return align === "right" ? w : w / 2;
  }

  /** Height of the line starting at piece `i`, guessed before it is laid out (for exclusions). */
  private estimateHeight(i: number): number {
    const pc = this.blank ? undefined : this.pieces[i];
    const face = pc ? pc.face : this.markFace();
    const size = pc ? pc.style.size : this.emptyLineStyle().size;
    return this.spaced(face.lineHeight(size), face.ascent(size), this.lines.length === 0).height;
  }

  /** The font of a line without text: the paragraph mark's, or the style's for a blank paragraph. */
  private emptyLineStyle() {
    return this.blank ? this.p.styleRun! : (this.p.emptyLine ?? this.p.markStyle);
  }

  private markFace() {
    const s = this.emptyLineStyle();
    return this.ctx.fonts.face({ family: s.font, bold: s.bold, italic: s.italic });
  }

  // -------------------------------------------------------------------------------------------
  // Breaking

  /**
   * Greedy fit of pieces from `start` into [left, right]: returns the index after the line's last
   * piece, and whether a word had to be cut by characters (or an object overflowed) because no
   * break opportunity was on the line.
   */
  private fitLine(start: number, left: number, right: number, first: boolean, exLeft: number): { end: number; forced: boolean; split?: { index: number; at: number } } {
    const pieces = this.pieces;
    const cursor = new TabCursor(left, this.tabContext(first, exLeft), right);
    let lastBreak = -1;
    let i = start;
    let hasContent = false; // text or objects other than the label
    while (i < pieces.length) {
      const pc = pieces[i]!;
      if (pc.kind === "float") {
        i++;
        continue;
      }
      if (pc.kind === "break") {
        // Spaces that run past the right edge push a line break after them onto a line of its own
        // (LibreOffice): the text after the break starts a line lower.
        if (pc.breakKind === "line" && hasContent && cursor.end() > cursor.limit() + FIT_EPSILON) return { end: i, forced: false };
        return { end: i + 1, forced: false };
      }
      // A tab whose stop is at or past the right edge starts the next line (LibreOffice).
      if (pc.kind === "tab" && !pc.label && i > start && cursor.tabReachesEdge()) return { end: i, forced: false };
      if ((pc.kind === "text" || pc.kind === "object") && cursor.endWith(pc.width) > cursor.limit() + FIT_EPSILON) {
        // CJK commas and full stops may hang past the right edge rather than take their ideograph
        // down (Word's overflowPunct; LibreOffice does it for runs in a CJK language only, and not
        // in table cells, where the punctuation takes its ideograph to the next line).
        const canEnd = pc.breakAfter || i === pieces.length - 1 || pieces[i + 1]!.kind === "break";
        // Only after an East Asian character, not after a Latin word or digits (LibreOffice, measured),
        // also when the mark is a piece of its own (another face than the text before it).
        const hang = pc.kind === "text" && pc.style.cjkTypography && !this.ctx.inTableCell ? hangingWidth(pc, hasContent ? pieces[i - 1] : undefined) : 0;
        if (hang > 0 && canEnd && cursor.endWith(pc.width - hang) <= right + FIT_EPSILON) {
          return { end: i + 1, forced: false };
        }
        if (lastBreak > start) return { end: lastBreak, forced: false };
        if (pc.kind === "text" && !pc.label) {
          const room = right - cursor.end();
          let k = fitChars(pc, room);
          if (k === 0 && hasContent) return { end: i, forced: true };
          if (k === 0) k = firstCharLength(pc.text);
          // The caller cuts the piece once the line's place is final (exclusions may retry lower).
          return { end: i + 1, forced: true, split: k < pc.text.length ? { index: i, at: k } : undefined };
        }
        if (hasContent) return { end: i, forced: true };
        if (pc.kind === "object") return { end: i + 1, forced: true };
      }
      cursor.add(pc, i);
      if (!pc.label && (pc.kind === "text" || pc.kind === "object")) hasContent = true;
      i++;
      // A soft hyphen is a place to end the line only where the hyphen it then shows fits too.
      if (pc.breakAfter && (!pc.softHyphen || cursor.end() + hyphenWidth(pc) <= cursor.limit() + FIT_EPSILON)) lastBreak = i;
    }
    return { end: i, forced: false };
  }

  /** Cuts piece `i` after `k` code units (a word broken by characters). */
  private splitPiece(i: number, k: number): void {
    const pc = this.pieces[i]!;
    const make = (text: string, breakAfter: boolean): Piece => {
      let chars = 0;
      for (const _ of text) chars++;
      // Each part is drawn (and measured) on its own, Arabic letters joined within it.
      return { ...pc, text, chars, breakAfter, width: (joinedWidth(pc.face, text, pc.size) * pc.style.scale) / 100 + pc.style.charSpacing * chars };
    };
    this.pieces.splice(i, 1, make(pc.text.slice(0, k), true), make(pc.text.slice(k), pc.breakAfter));
  }

  private tabContext(first: boolean, exLeft: number): TabContext {
    const st = this.p.style;
    // Word's implicit stop at the left indent applies on the first line of a hanging paragraph.
    const implicit = first && st.firstLine < 0 ? exLeft + st.indentLeft : null;
    return { tabs: st.tabs, defaultTab: this.ctx.defaultTabStop, implicit, origin: exLeft };
  }

  // -------------------------------------------------------------------------------------------
  // Line geometry and items

  /** The line ends at piece `i`'s soft hyphen: the piece shows a hyphen. */
  private showSoftHyphen(i: number): void {
    const pc = this.pieces[i]!;
    this.pieces[i] = { ...pc, text: pc.text + "-", width: pc.width + hyphenWidth(pc), chars: pc.chars + 1, softHyphen: false };
  }

  private finishLine(start: number, end: number, left: number, right: number, first: boolean, exLeft: number, dy: number): LineBox {
    const pieces = this.pieces;
    const lineIndex = this.lines.length;
    const cursor = new TabCursor(left, this.tabContext(first, exLeft), right);
    let breakKind: Piece["breakKind"];
    for (let k = start; k < end; k++) {
      const pc = pieces[k]!;
      if (pc.kind === "float") this.floats.push({ inline: pc.object as FloatingObject["inline"], anchor: pc.object!.anchor!, line: lineIndex });
      // Floats take no width but keep their slot, so positions stay indexed from the line start.
      cursor.add(pc, k);
      if (pc.kind === "break") breakKind = pc.breakKind;
    }
    cursor.resolve();
    const place: Placement = { xs: cursor.xs, ws: cursor.ws, stops: cursor.stops };
    const off = (k: number) => k - start;

    // Trailing spaces (and the break) neither count for alignment nor are drawn.
    let lastVisible = end - 1;
    while (lastVisible >= start && (pieces[lastVisible]!.kind === "space" || pieces[lastVisible]!.kind === "break" || pieces[lastVisible]!.kind === "float")) lastVisible--;
    const contentEnd = lastVisible >= start ? place.xs[off(lastVisible)]! + place.ws[off(lastVisible)]! : left;

    // Alignment.
    // A line ending in a line break is not the paragraph's last: the mark's line follows it.
    const isLast = end >= pieces.length && breakKind === undefined;
    // In a bidi paragraph Word reads left/right as start/end: positions here are from the start edge.
    const align = this.p.style.align;
    const free = right - contentEnd;
    let shift = 0;
    let stretch = 0;
    let stretchFrom = start;
    let kashidas: KashidaPlan | null = null;
    if (align === "center") shift = free / 2;
    else if (align === "right") shift = free;
    else if ((align === "justify" && !isLast && breakKind !== "page" && breakKind !== "column") || align === "distribute") {
      // Only spaces after the line's last tab stretch (the tab absorbs what comes before it).
      let lastTab = start - 1;
      for (let k = start; k <= lastVisible; k++) if (pieces[k]!.kind === "tab") lastTab = k;
      stretchFrom = lastTab + 1;
      if (align === "justify" && free > 0) kashidas = this.kashidaPlan(stretchFrom, lastVisible, free);
      let spaces = 0;
      for (let k = stretchFrom; k <= lastVisible; k++) if (pieces[k]!.kind === "space") spaces += pieces[k]!.chars;
      if (!kashidas && spaces > 0 && free > 0) stretch = free / spaces;
    }

    // Final positions (start-edge coordinates).
    const xs: number[] = new Array(end - start);
    const ws: number[] = new Array(end - start);
    let extra = 0;
    for (let k = start; k < end; k++) {
      const o = off(k);
      const pc = pieces[k]!;
      xs[o] = place.xs[o]! + shift + extra;
      ws[o] = k > lastVisible ? 0 : place.ws[o]!;
      if (stretch > 0 && k >= stretchFrom && k <= lastVisible && pc.kind === "space") {
        const add = stretch * pc.chars;
        ws[o]! += add;
        extra += add;
      }
      const places = kashidas?.at.get(k);
      if (places) {
        ws[o]! += kashidas!.add * places.length;
        extra += kashidas!.add * places.length;
      }
    }
    this.kashidas = kashidas;

    // Visual order: reorder RTL runs, and mirror bidi paragraphs.
    const visible: number[] = [];
    for (let k = start; k <= lastVisible; k++) if (pieces[k]!.kind !== "float" && pieces[k]!.kind !== "break") visible.push(k);
    const needsBidi = this.bidi || visible.some((k) => pieces[k]!.rtl);
    if (needsBidi && visible.length > 0) {
      // Pieces made here (label suffix) have no level of their own: the paragraph's.
      const order = visualOrderOfLevels(visible.map((k) => pieces[k]!.level ?? (pieces[k]!.rtl || this.bidi ? 1 : 0)));
      const startX = xs[off(visible[0]!)]!;
      const last = visible[visible.length - 1]!;
      const endX = xs[off(last)]! + ws[off(last)]!;
      let x = this.bidi ? this.lineWidth() - endX : startX;
      const vis: number[] = [];
      for (const o of order) {
        const k = visible[o]!;
        xs[off(k)] = x;
        x += ws[off(k)]!;
        vis.push(k);
      }
      return this.emitLine(start, end, vis, xs, ws, place, stretch > 0 || kashidas !== null, breakKind, dy);
    }
    return this.emitLine(start, end, visible, xs, ws, place, stretch > 0 || kashidas !== null, breakKind, dy);
  }

  /**
   * Kashida justification of a line holding Arabic-script words (see kashida.ts), as LibreOffice
   * does it: the words stretch, the spaces do not; while the share of each kashida would be
   * narrower than the font's tatweel, the line's first kashidas are dropped. Null: the spaces
   * stretch (no place to stretch, or a face without a tatweel).
   */
  private kashidaPlan(from: number, to: number, free: number): KashidaPlan | null {
    const places: { k: number; at: number; min: number }[] = [];
    for (let k = from; k <= to; k++) {
      const pc = this.pieces[k]!;
      if (pc.kind !== "text" || !pc.rtl || !needsJoining(pc.text)) continue;
      const at = kashidaPositions(pc.text);
      if (at.length === 0) continue;
      // LibreOffice asks the run's own font (not the one its glyphs fall back to) for a tatweel:
      // Arabic in Times New Roman (Tinos has none) stretches its spaces, in a stand-in font its words.
      if (!pc.face.covers(TATWEEL) || !pc.metrics.covers(TATWEEL)) return null;
      // The narrowest kashida: the tatweel's advance. (LibreOffice once kept 3.1 pt kashidas of a
      // 3.52 pt tatweel in a document holding only that paragraph; in longer ones it used the advance.)
      const min = (pc.face.widthOf("\u0640", pc.size) * pc.style.scale) / 100;
      for (const a of at) places.push({ k, at: a, min });
    }
    let first = 0;
    while (first < places.length && free / (places.length - first) < places[first]!.min) first++;
    if (first >= places.length) return null;
    const at = new Map<number, number[]>();
    for (const p of places.slice(first)) {
      if (!at.has(p.k)) at.set(p.k, []);
      at.get(p.k)!.push(p.at);
    }
    return { at, add: free / (places.length - first) };
  }

  /** The first piece of the word that piece `k`, joined across runs, belongs to; `item` is noted as a joined part. */
  private joinedWordStart(k: number, joined: Set<PaintItem>, item: PaintItem): number {
    joined.add(item);
    while (k > 0 && this.pieces[k]!.joinBefore) k--;
    return k;
  }

  /**
   * A right-to-left word stretched by kashidas: its parts, each shaped as if joined across the
   * stretch, from the right edge leftwards, with a bar in the tatweel's outline filling each gap.
   * The gaps hold no text, so copied text reads the parts as LibreOffice's PDF does.
   */
  private kashidaWord(pc: Piece, x: number, w: number, y: number, at: number[], add: number, out: PaintItem[]): void {
    const cuts = [0, ...at, pc.text.length];
    const scale = pc.style.scale / 100;
    const tatweel = pc.face.widthOf("\u0640", pc.size);
    const bar = pc.face.glyphBounds?.(TATWEEL, pc.size) ?? null;
    let right = x + w;
    for (let i = 0; i + 1 < cuts.length; i++) {
      const part = pc.text.slice(cuts[i], cuts[i + 1]);
      const stretchAfter = i + 2 < cuts.length;
      const before = i > 0 || !!pc.joinBefore;
      const after = stretchAfter || (i + 2 === cuts.length && !!pc.joinAfter);
      const shaped = (before ? "\u0640" : "") + part + (after ? "\u0640" : "");
      const width = (joinedWidth(pc.face, shaped, pc.size) - tatweel * (Number(before) + Number(after))) * scale + pc.style.charSpacing * [...part].length;
      const item: Extract<PaintItem, { kind: "text" }> = { kind: "text", x: right - width, y, text: part, face: pc.face, size: pc.size, color: pc.style.color, width, rtl: true };
      if (before) item.joinBefore = true;
      if (after) item.joinAfter = true;
      if (pc.style.charSpacing) item.charSpacing = pc.style.charSpacing;
      if (pc.style.scale !== 100) item.scale = pc.style.scale;
      out.push(item);
      right -= width;
      if (stretchAfter) {
        if (bar && bar.top > bar.bottom) out.push({ kind: "rect", x: right - add, y: y - bar.top, width: add, height: bar.top - bar.bottom, fill: pc.style.color ?? "000000" });
        right -= add;
      }
    }
  }

  /**
   * Applies the paragraph's line spacing rule to a line's natural height and ascent, as LibreOffice
   * does for DOCX (measured): a multiple adds its extra space above the text, except on a
   * paragraph's first line, which keeps its natural height (the last line gets extra space below
   * instead, see `run`); the extra is a share of the line's font height (`fontHeight`), not of an
   * inline image's; a multiple below 1 cuts the ascent.
   * Exact lines put the baseline at 80 % of the height; at-least lines add the extra above.
   */
  private spaced(natural: number, ascent: number, first: boolean, fontHeight = natural): { height: number; baseline: number } {
    const rule = this.p.style.line;
    const pitch = this.ctx.linePitch;
    if (pitch && pitch > 0 && this.p.style.snapToGrid !== false) {
      // A line grid (LibreOffice, measured): the line takes whole grid lines, its text centred in
      // them; exact and at-least rules give way to the grid, a multiple multiplies grid lines.
      const grid = Math.max(1, Math.ceil(natural / pitch - 1e-6)) * pitch;
      const gridAscent = ascent + (grid - natural) / 2;
      if (rule.rule !== "auto" || rule.value <= 1) return { height: grid, baseline: gridAscent };
      natural = grid;
      ascent = gridAscent;
      fontHeight = grid;
    }
    if (rule.rule === "exact" && rule.value > 0) return { height: rule.value, baseline: rule.value * EXACT_ASCENT_RATIO };
    if (rule.rule === "atLeast") {
      if (rule.value > natural) return { height: rule.value, baseline: ascent + (rule.value - natural) };
      return { height: natural, baseline: ascent };
    }
    const multiple = rule.value > 0 ? rule.value : 1;
    if (multiple >= 1) {
      // LibreOffice works in whole twips: the font height in twips times the percentage, truncated
      // (Tinos 11 pt at 1.15: 253 tw x 115 % = 290 tw = 14.5 pt, not 14.55).
      const twips = Math.round(fontHeight * 20);
      const extra = first ? 0 : Math.floor((twips * Math.round(multiple * 100)) / 100) / 20 - twips / 20;
      return { height: natural + extra, baseline: ascent + extra };
    }
    const height = natural * multiple;
    return { height, baseline: first ? ascent * multiple : ascent - (natural - height) };
  }

  private emitLine(start: number, end: number, order: number[], xs: number[], ws: number[], place: Placement, stretched: boolean, breakKind: Piece["breakKind"], dy: number): LineBox {
    const pieces = this.pieces;
    const off = (k: number) => k - start;

    // Which pieces set the line's height (LibreOffice's rules, see lineHeightPieces); "style": the
    // paragraph style's font alone.
    const kinds = kindsOnLine(pieces, start, end);
    const counts = lineHeightPieces(kinds, pieces, start, end, this.lines.length === 0);
    const blankLine = counts === "style" && !!this.p.styleRun;
    let ascent = 0;
    let below = 0;
    // The tallest font on the line: proportional spacing multiplies this, never an object's height.
    let fontHeight = 0;
    let any = false;
    let hasObject = false;
    let mathDepth = 0;
    // On a paragraph's first line with text or pictures, spaces and tabs do not size the line, on
    // later lines they do; a break beside more never does (LibreOffice, measured: 24 pt tabs, spaces
    // or a break beside 10 pt text leave a first line 10 pt). Pictures with only spaces and breaks
    // make a picture line: pictures at the top, the height of the paragraph style's font (picture,
    // 24 pt break, picture stand on two 11 pt lines).
    const pictureLine = kinds.objects && !kinds.text && !kinds.tabs;
    let blankFontHeight = 0;
    for (let k = start; k < end; k++) {
      const pc = pieces[k]!;
      if (pc.kind === "float" || this.blank || blankLine) continue;
      if (counts !== "style" && !counts(pc)) {
        // ... but their font still sets the proportional spacing of a text line (measured: a 14 pt
        // space between 12 pt words at 1.5 lines adds half of 14 pt's line, not of 12 pt's).
        if (pc.kind === "space" || pc.kind === "tab") blankFontHeight = Math.max(blankFontHeight, pc.metrics.lineHeight(pc.size));
        continue;
      }
      any = true;
      if (pc.kind === "object") {
        hasObject = true;
        // An inline object stands on the baseline and brings no descent of its own (LibreOffice, measured).
        const h = pc.object!.height + pc.rise;
        if (h > ascent) ascent = h;
        // An equation has a depth (denominators, subscripts) the line must hold.
        mathDepth = Math.max(mathDepth, (mathOf(pc.object!)?.descent ?? 0) - pc.rise);
        continue;
      }
      const m = pc.metrics;
      // A superscript or subscript (automatic escapement) holds the line at its run's full size,
      // however small and high it is drawn (LibreOffice, measured).
      const escaped = pc.style.vertAlign !== "baseline";
      const size = escaped ? pc.style.size : pc.size;
      const rise = escaped ? 0 : pc.rise;
      const a = m.ascent(size) + rise;
      const b = m.lineHeight(size) - m.ascent(size) - rise;
      if (a > ascent) ascent = a;
      if (b > below) below = b;
      if (m.lineHeight(size) > fontHeight) fontHeight = m.lineHeight(size);
    }
    if (fontHeight === 0) {
      // Nothing but objects (or nothing at all): the paragraph's font sets the minimum height and the
      // spacing. For a picture line, a first line of only blanks and the empty line after a last
      // break that is the paragraph style's font, not the mark's or the runs' (LibreOffice, measured:
      // a 24 pt mark leaves an 11 pt style's picture line 11 pt).
      const style = (blankLine || pictureLine) && this.p.styleRun ? this.p.styleRun : this.emptyLineStyle();
      const face = this.ctx.fonts.face({ family: style.font, bold: style.bold, italic: style.italic });
      const size = style.size;
      fontHeight = face.lineHeight(size);
      if (!any) ascent = face.ascent(size);
      // A picture line's blanks in a larger font make it taller, its pictures still at the top
      // (LibreOffice, measured: picture, 24 pt space, picture on a first line: 24 pt's line).
      if (pictureLine) fontHeight = Math.max(fontHeight, blankFontHeight);
      below = Math.max(0, fontHeight - ascent);
    }
    if (mathDepth > below) below = mathDepth;
    const natural = ascent + below;
    // Without objects the whole line (raised and lowered text included) is the font height.
    if (!hasObject) fontHeight = Math.max(natural, blankFontHeight);
    this.lastNatural = fontHeight;
    const { height: h0, baseline: b0 } = this.spaced(natural, ascent, this.lines.length === 0, fontHeight);
    const height = h0 + dy;
    const baseline = b0 + dy;

    const back: PaintItem[] = [];
    const text: PaintItem[] = [];
    const lines: PaintItem[] = [];
    const links: PaintItem[] = [];
    const noteRefs: string[] = [];

    let merge: Extract<PaintItem, { kind: "text" }> | null = null;
    let mergeWith: Piece | null = null;
    // A merged item's words are joined once the line is done: `+=` word by word left V8 rope
    // strings about 8 times the text's size alive until paint (a dense 7 MiB document ran out of
    // the isolate's 128 MB).
    const mergedParts = new Map<Extract<PaintItem, { kind: "text" }>, string[]>();
    // The logical position of each drawn item's first piece: see the sort below.
    const logicalAt = new Map<PaintItem, number>();
    // The piece (its portion and whether a fallback face draws it) each text item starts with.
    const portionOf = new Map<PaintItem, Piece>();
    const joined = new Set<PaintItem>();
    for (const k of order) {
      const pc = pieces[k]!;
      const x = xs[off(k)]!;
      const w = ws[off(k)]!;
      const y = baseline - pc.rise;
      if (pc.noteRef && !noteRefs.includes(pc.noteRef)) noteRefs.push(pc.noteRef);
      const places = pc.kind === "text" && pc.rtl ? this.kashidas?.at.get(k) : undefined;
      if (places) {
        merge = null;
        const from = text.length;
        this.kashidaWord(pc, x, w, y, places, this.kashidas!.add, text);
        for (let i = from; i < text.length; i++) logicalAt.set(text[i]!, k);
      } else if (pc.kind === "text" || (pc.kind === "space" && !stretched)) {
        // Text stays in logical order: paint draws right-to-left runs inside an item reversed (and
        // shaped). Right-to-left words are therefore never merged with their visual neighbours.
        const drawn = pc.text;
        const rtlWord = pc.rtl;
        if (!stretched && !rtlWord && merge && !pc.noteLabelOf && !mergeWith!.noteLabelOf && sameLook(mergeWith!, pc) && samePortionKind(mergeWith!, pc) && Math.abs(merge.x + merge.width - x) < 0.01) {
          let parts = mergedParts.get(merge);
          if (!parts) mergedParts.set(merge, (parts = [merge.text]));
          parts.push(drawn);
          merge.width += w;
        } else if (pc.kind === "text") {
          merge = { kind: "text", x, y, text: drawn, face: pc.face, size: pc.size, color: pc.style.color, width: w };
          if (pc.style.charSpacing) merge.charSpacing = pc.style.charSpacing;
          if (pc.style.scale !== 100) merge.scale = pc.style.scale;
          if (rtlWord) merge.rtl = true;
          if (pc.noteLabelOf) merge.noteLabelOf = pc.noteLabelOf;
          if (pc.joinBefore) merge.joinBefore = true;
          if (pc.joinAfter) merge.joinAfter = true;
          mergeWith = pc;
          text.push(merge);
          logicalAt.set(merge, pc.joinBefore || pc.joinAfter ? this.joinedWordStart(k, joined, merge) : k);
          if (pc.portion) portionOf.set(merge, pc);
          if (rtlWord) merge = null;
        } else merge = null;
      } else {
        merge = null;
        const from = text.length;
        if (pc.kind === "tab") this.leader(pc, x, w, y, place.stops.get(k), text, lines);
        else if (pc.kind === "object") this.object(pc, x, y, text);
        for (let i = from; i < text.length; i++) logicalAt.set(text[i]!, k);
      }
      if (w > 0 && pc.kind !== "break") decorate(pc, x, w, y, back, lines);
      if (pc.link && w > 0) {
        const prev = links[links.length - 1];
        if (prev && prev.kind === "link" && prev.uri === pc.link && Math.abs(prev.x + prev.width - x) < 0.01) prev.width += w;
        else links.push({ kind: "link", x, y: 0, width: w, height, uri: pc.link });
      }
    }
    for (const [item, parts] of mergedParts) item.text = parts.join("");
    // Positions are visual, but the text is written to the page in logical (reading) order, as
    // LibreOffice and Word write it: text extraction then reads mixed-direction lines as typed, and
    // a right-to-left word never runs on into the number or Latin word drawn beside it.
    if (order.some((k, i) => i > 0 && k < order[i - 1]!)) {
      const at = (it: PaintItem) => logicalAt.get(it) ?? -1;
      // The parts of a word joined across runs go out left to right, as one word is drawn, so a
      // reader takes them for one word.
      text.sort((a, b) => at(a) - at(b) || (joined.has(a) && joined.has(b) ? (a as { x: number }).x - (b as { x: number }).x : 0));
    }
    if (portionOf.size) fallbackGlyphsLast(text, portionOf);
    for (const t of this.p.style.tabs) {
      if (t.align !== "bar") continue;
      const x = this.bidi ? this.lineWidth() - t.pos : t.pos;
      lines.push({ kind: "line", x1: x, y1: 0, x2: x, y2: height, width: 0.5, color: null });
    }
    const line: LineBox = { height, baseline, items: [...back, ...text, ...mergeLines(lines), ...links] };
    if (breakKind === "page" || breakKind === "column") line.breakAfter = breakKind;
    if (noteRefs.length) line.noteRefs = noteRefs;
    return line;
  }

  private leader(pc: Piece, x: number, w: number, y: number, stop: ResolvedStop | undefined, text: PaintItem[], lines: PaintItem[]): void {
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
      text.push({ kind: "text", x, y, text: ch.repeat(n), face: pc.face, size: pc.size, color: pc.style.color, charSpacing: spread, width: w });
    } else {
      const thick = stop.leader === "heavy" ? pc.size * 0.1 : pc.size * 0.05;
      lines.push({ kind: "line", x1: x, y1: y + pc.size * 0.1, x2: x + w, y2: y + pc.size * 0.1, width: thick, color: pc.style.color });
    }
  }

  private object(pc: Piece, x: number, y: number, out: PaintItem[]): void {
    const obj = pc.object!;
    const math = mathOf(obj);
    if (math) {
      for (const item of math.items) out.push(translateItem(item, x, y));
      return;
    }
    const top = y - obj.height;
    if (obj.type === "image") {
      out.push({ kind: "image", x, y: top, width: obj.width, height: obj.height, image: obj.image });
      return;
    }
    // Inline text boxes: frame, then their text inset as in a floating box (not clipped).
    if (obj.fill) out.push({ kind: "rect", x, y: top, width: obj.width, height: obj.height, fill: obj.fill });
    if (obj.chart) out.push(...chartItems(obj.chart, { x, y: top, width: obj.width, height: obj.height }, this.ctx.fonts));
    if (obj.blocks.length && obj.width > 2 * BOX_INSET_X && obj.height > 0) {
      for (const item of stackBlocks(obj.blocks, obj.width - 2 * BOX_INSET_X, this.ctx).items) out.push(translateItem(item, x + BOX_INSET_X, top + BOX_INSET_Y));
    }
    if (obj.border && obj.border.width > 0) {
      const b = obj.border;
      const c = b.color;
      out.push({ kind: "line", x1: x, y1: top, x2: x + obj.width, y2: top, width: b.width, color: c });
      out.push({ kind: "line", x1: x, y1: y, x2: x + obj.width, y2: y, width: b.width, color: c });
      out.push({ kind: "line", x1: x, y1: top, x2: x, y2: y, width: b.width, color: c });
      out.push({ kind: "line", x1: x + obj.width, y1: top, x2: x + obj.width, y2: y, width: b.width, color: c });
    }
  }
}

/** Text of a portion drawn by a fallback face is never merged with another portion's text. */
function samePortionKind(a: Piece, b: Piece): boolean {
  return a.portion === b.portion || (!a.fallback && !b.fallback);
}

/**
 * LibreOffice's PDF export writes a text portion whose characters need glyph fallback face by
 * face: the portion's own glyphs in one text run, with gaps where the fallback glyphs go, then the
 * fallback glyphs (measured: “ ” in a 宋体 run, ☐ in a Calibri run). Reading the page, pdftotext
 * splits words at those gaps (x | ☐ | y), so the stream order is followed here: within each
 * stretch of consecutive items of one left-to-right portion, fallback items move after the
 * portion's own ones, grouped by face in order of first appearance.
 */
function fallbackGlyphsLast(text: PaintItem[], portionOf: Map<PaintItem, Piece>): void {
  for (let i = 0; i < text.length; ) {
    const first = portionOf.get(text[i]!);
    let j = i + 1;
    if (first) while (j < text.length && portionOf.get(text[j]!)?.portion === first.portion) j++;
    const group = text.slice(i, j);
    if (group.length > 1 && group.some((it) => portionOf.get(it)!.fallback) && !group.some((it) => it.kind === "text" && it.rtl)) {
      const faces: unknown[] = [];
      for (const it of group) if (portionOf.get(it)!.fallback && it.kind === "text" && !faces.includes(it.face)) faces.push(it.face);
      const rank = (it: PaintItem) => (portionOf.get(it)!.fallback && it.kind === "text" ? 1 + faces.indexOf(it.face) : 0);
      group.sort((a, b) => rank(a) - rank(b));
      text.splice(i, group.length, ...group);
    }
    i = j;
  }
}

/** Pieces that can be drawn as one text item. */
/**
 * Which of a line's pieces set its height, as LibreOffice lays out DOCX (measured; its "whitespace
 * does not make a line taller" rule holds on a paragraph's first line only):
 * - a line with text or objects: on the first line those alone (the blanks' font still sets a
 *   text line's proportional extra and a picture line's height, see emitLine); on later lines
 *   spaces and tabs count too; the line break never does;
 * - a line of only spaces and tabs: ended by a line break, they count (the break not); on the
 *   first line, or a later one of spaces alone ending the paragraph, the paragraph style's font
 *   sets the height ("style"), whatever the runs' sizes; a later line with a tab counts its tabs;
 * - a line holding only a break: the break's font; the empty line after a paragraph's last line
 *   break: the style's font ("style"); an empty paragraph's only line: the mark's (no pieces).
 */
function lineHeightPieces(kinds: LineKinds, pieces: Piece[], start: number, end: number, first: boolean): ((pc: Piece) => boolean) | "style" {
  const { spaces, tabs, breaks: broken } = kinds;
  const blank = (pc: Piece) => pc.kind === "space" || pc.kind === "tab";
  if (kinds.text || kinds.objects) return first ? (pc) => pc.kind === "text" || pc.kind === "object" : (pc) => pc.kind !== "break";
  if (spaces || tabs) return broken || (!first && tabs) ? blank : "style";
  if (start === end && !first && pieces[start - 1]?.breakKind === "line") return "style";
  return () => true;
}

/** Which kinds of piece stand on the line [start, end). */
interface LineKinds {
  text: boolean;
  objects: boolean;
  spaces: boolean;
  tabs: boolean;
  breaks: boolean;
}

function kindsOnLine(pieces: Piece[], start: number, end: number): LineKinds {
  const kinds = { text: false, objects: false, spaces: false, tabs: false, breaks: false };
  for (let k = start; k < end; k++) {
    const kind = pieces[k]!.kind;
    if (kind === "text") kinds.text = true;
    else if (kind === "object") kinds.objects = true;
    else if (kind === "space") kinds.spaces = true;
    else if (kind === "tab") kinds.tabs = true;
    else if (kind === "break") kinds.breaks = true;
  }
  return kinds;
}

function sameLook(a: Piece, b: Piece): boolean {
  return a.face === b.face && a.size === b.size && a.rise === b.rise && a.style.color === b.style.color && a.style.charSpacing === b.style.charSpacing && a.style.scale === b.style.scale;
}

/** Joins touching collinear decoration lines of the same look (one underline per styled stretch). */
function mergeLines(items: PaintItem[]): PaintItem[] {
  const out: PaintItem[] = [];
  for (const it of items) {
    const prev = out[out.length - 1];
    if (
      it.kind === "line" && prev && prev.kind === "line" &&
      it.y1 === it.y2 && prev.y1 === prev.y2 && Math.abs(prev.y1 - it.y1) < 0.01 &&
      Math.abs(prev.x2 - it.x1) < 0.01 && prev.width === it.width && prev.color === it.color && prev.style === it.style
    ) {
      prev.x2 = it.x2;
      continue;
    }
    out.push(it.kind === "line" ? { ...it } : it);
  }
  return out;
}

/** Number of code units of `pc.text` that fit in `room` pt (whole code points, marks kept with their base). */
function fitChars(pc: Piece, room: number): number {
  let w = 0;
  let k = 0;
  const t = pc.text;
  // Arabic letters are measured in the forms they take in the whole word (a ligature's alef, with
  // no width of its own, stays with its lam).
  const joined = joinedAdvances(pc.face, t, pc.size);
  while (k < t.length) {
    const cp = t.codePointAt(k)!;
    let len = cp > 0xffff ? 2 : 1;
    // Combining marks (and ZWJ sequences) stay with their base character.
    while (k + len < t.length && (isMark(t.charCodeAt(k + len)) || (joined && isLamAlefTail(t, k + len)))) len++;
    let glyphs = 0;
    if (joined) for (let j = k; j < k + len; j++) glyphs += joined[j]!;
    const cw = ((joined ? glyphs : pc.face.widthOf(t.slice(k, k + len), pc.size)) * pc.style.scale) / 100 + pc.style.charSpacing;
    if (w + cw > room + FIT_EPSILON) break;
    w += cw;
    k += len;
  }
  return k;
}

/** An alef right after a lam: drawn in one ligature glyph with it. */
function isLamAlefTail(t: string, i: number): boolean {
  const c = t.charCodeAt(i);
  return t.charCodeAt(i - 1) === 0x644 && (c === 0x622 || c === 0x623 || c === 0x625 || c === 0x627);
}

function firstCharLength(t: string): number {
  let len = t.codePointAt(0)! > 0xffff ? 2 : 1;
  while (len < t.length && isMark(t.charCodeAt(len))) len++;
  return len;
}

function isMark(c: number): boolean {
  return (c >= 0x300 && c <= 0x36f) || c === 0x200d || (c >= 0xfe00 && c <= 0xfe0f) || (c >= 0xdc00 && c <= 0xdfff);
}

// ---------------------------------------------------------------------------------------------
// Tabs

interface TabContext {
  tabs: Paragraph["style"]["tabs"];
  defaultTab: number;
  implicit: number | null;
  origin: number;
}

interface PendingTab {
  stop: ResolvedStop;
  index: number; // position in xs/ws
  startX: number;
  segW: number;
  /** Width before the decimal separator, once met (decimal tabs). */
  decW: number | null;
}

/**
 * Advances along a line, placing pieces and tabs. Text after a right, centre or decimal tab is
 * placed relative to the tab until the next tab or the end of the line decides the tab's width.
 */
class TabCursor {
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
      if (stop.pos > this.right && !this.tc.tabs.some((t) => t.pos === stop.pos)) stop = { ...stop, pos: Math.max(this.x, this.right) };
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
      if (pend.stop.align === "decimal" && pend.decW === null && pc.kind === "text") {
        const dot = pc.text.indexOf(".");
        if (dot >= 0) pend.decW = pend.segW + (pc.face.widthOf(pc.text.slice(0, dot), pc.size) * pc.style.scale) / 100 + pc.style.charSpacing * dot;
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
    this.ws[pend.index] = start - pend.startX;
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
    else start = pos - (decW ?? segW);
    return Math.max(p.startX, start);
  }
}

export type { RunStyle };

/**
 * Line rules snapped to a line grid, as measured against LibreOffice: single spacing, exact heights
 * up to the pitch and at-least heights the text already reaches. Other rules keep their own height.
 */
/**
 * What LibreOffice lets hang (measured, Chinese, with no room at all left on the line): ideographic
 * comma and full stop, full-width comma, full stop, semicolon, colon, question and exclamation
 * marks, and ASCII , . : ; ? ! — not closing brackets such as ） ) 」》.
 */
const HANGING = /[\u3001\u3002\uff0c\uff0e\uff1b\uff1a\uff1f\uff01,.:;?!]$/u;

/**
 * Width of the punctuation that may hang at the end of a text piece: a mark of `HANGING` right after
 * an East Asian character (in the piece, or ending `before`, of the same run, when the mark is the
 * whole piece); 0 when none.
 */
function hangingWidth(pc: Piece, before: Piece | undefined): number {
  const m = HANGING.exec(pc.text);
  if (!m) return 0;
  const head = pc.text.slice(0, -m[0].length);
  // A mark alone in its piece hangs after text of its own run only (LibreOffice hangs within a portion).
  const ref = head || (before?.kind === "text" && before.style === pc.style ? before.text : "");
  if (!ref) return 0;
  const last = ref.codePointAt(ref.length - 1)!;
  if (!isEastAsian(last >= 0xdc00 && last <= 0xdfff ? ref.codePointAt(ref.length - 2)! : last)) return 0;
  return (pc.face.widthOf(m[0], pc.size) * pc.style.scale) / 100 + pc.style.charSpacing * m[0].length;
}

/** Width of the hyphen a soft hyphen shows at a line end, in the piece's face and size. */
function hyphenWidth(pc: Piece): number {
  return (pc.face.widthOf("-", pc.size) * pc.style.scale) / 100 + pc.style.charSpacing;
}
