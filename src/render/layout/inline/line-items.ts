/**
 * An arranged line's paint items, relative to its line box: text (neighbouring words of one look
 * merged into one item), kashida-stretched words, tab leaders, inline objects, decorations, link
 * areas and bar tabs. The text goes out in logical (reading) order where it is drawn reordered, and
 * a portion's fallback glyphs after its own ones, as LibreOffice writes its PDFs.
 */
import type { Color, Paragraph } from "../../model/types";
import { inlineObjectItems } from "../objects/inline-objects";
import type { LayoutContext, LineBox, PaintItem } from "../types";
import { decorate } from "./decorations";
import { kashidaWordItems } from "./kashida-stretch";
import type { ArrangedLine } from "./line-arrange";
import type { Piece } from "./piece";
import { leaderItems } from "./tabs";

type TextItem = Extract<PaintItem, { kind: "text" }>;

/** The line box of `line`, `height` tall with its baseline at `baseline`, in a box `boxWidth` wide. */
export function lineItems(
  pieces: Piece[],
  line: ArrangedLine,
  height: number,
  baseline: number,
  p: Paragraph,
  boxWidth: number,
  ctx: LayoutContext,
): LineBox {
  const writer = new LineItems(pieces, line, height, ctx, p.style.shading ?? ctx.background ?? null);
  for (const k of line.order) writer.add(k, baseline);
  const lines = writer.lines;
  for (const t of p.style.tabs) {
    if (t.align !== "bar") continue;
    const x = p.style.bidi ? boxWidth - t.pos : t.pos;
    lines.push({ kind: "line", x1: x, y1: 0, x2: x, y2: height, width: 0.5, color: null });
  }
  const box: LineBox = {
    height,
    baseline,
    items: [...writer.back, ...writer.textInReadingOrder(), ...mergeLines(lines), ...writer.links],
  };
  if (line.breakKind === "page" || line.breakKind === "column") box.breakAfter = line.breakKind;
  if (onlyFloats(pieces, line.start, line.end)) box.markOnly = true;
  if (writer.noteRefs.length) box.noteRefs = writer.noteRefs;
  return box;
}

/** Whether pieces [start, end) are floats' anchors only (none at all: the paragraph mark's line). */
function onlyFloats(pieces: Piece[], start: number, end: number): boolean {
  for (let k = start; k < end; k++) if (pieces[k]!.kind !== "float") return false;
  return true;
}

/**
 * Automatic text colour over `fill`: white over a dark fill, else black (null). LibreOffice's rule
 * (Color::IsDark, luminance (76 R + 151 G + 29 B) / 256 at most 62; measured on 15 cell fills,
 * paragraph and run shading: 3E3E3E gives white, 404040 black). A highlight does not count.
 */
export function automaticColor(fill: Color | null | undefined): Color | null {
  if (!fill || !/^[0-9A-F]{6}$/i.test(fill)) return null;
  const n = parseInt(fill, 16);
  const luminance = (((n >> 16) & 255) * 76 + ((n >> 8) & 255) * 151 + (n & 255) * 29) >> 8;
  return luminance <= 62 ? "FFFFFF" : null;
}

/** Collects a line's items piece by piece, in visual order. */
class LineItems {
  /** Highlights, drawn behind the text. */
  readonly back: PaintItem[] = [];
  readonly text: PaintItem[] = [];
  /** Underlines, strike-throughs, line leaders, bar tabs. */
  readonly lines: PaintItem[] = [];
  readonly links: PaintItem[] = [];
  readonly noteRefs: string[] = [];
  /** The text item the next piece may join, and the piece that started it. */
  private merge: TextItem | null = null;
  private mergeWith: Piece | null = null;
  /**
   * A merged item's words are joined once the line is done: `+=` word by word left V8 rope
   * strings about 8 times the text's size alive until paint (a dense 7 MiB document ran out of
   * the isolate's 128 MB).
   */
  private readonly mergedParts = new Map<TextItem, string[]>();
  /** The logical position of each drawn item's first piece: see `textInReadingOrder`. */
  private readonly logicalAt = new Map<PaintItem, number>();
  /** The piece (its portion and whether a fallback face draws it) each text item starts with. */
  private readonly portionOf = new Map<PaintItem, Piece>();
  /** Parts of words joined across runs. */
  private readonly joined = new Set<PaintItem>();
  /** The piece each right-to-left word item was made from (its run's look and bidi level). */
  private readonly rtlPieceOf = new Map<PaintItem, Piece>();

  constructor(
    private readonly pieces: Piece[],
    private readonly line: ArrangedLine,
    private readonly height: number,
    private readonly ctx: LayoutContext,
    /** The paragraph's shading, or the fill behind it (a shaded cell's). */
    private readonly background: Color | null,
  ) {}

  add(k: number, baseline: number): void {
    const pc = this.pieces[k]!;
    const x = this.line.xs[k - this.line.start]!;
    const w = this.line.ws[k - this.line.start]!;
    const y = baseline - pc.rise;
    if (pc.noteRef && !this.noteRefs.includes(pc.noteRef)) this.noteRefs.push(pc.noteRef);
    const kashidas = this.line.kashidas;
    const places = pc.kind === "text" && pc.rtl ? kashidas?.at.get(k) : undefined;
    if (places) {
      this.merge = null;
      const from = this.text.length;
      kashidaWordItems(pc, x, w, y, places, kashidas!.add, this.text);
      this.markLogical(from, k);
    } else if (pc.kind === "text" || (pc.kind === "space" && !this.line.stretched)) {
      this.addText(pc, k, x, w, y);
    } else {
      this.merge = null;
      const from = this.text.length;
      if (pc.kind === "tab") leaderItems(pc, x, w, y, this.line.stops.get(k), this.text, this.lines);
      else if (pc.kind === "object") inlineObjectItems(pc.object!, pc.math, x, y, this.ctx, this.text);
      this.markLogical(from, k);
    }
    if (w > 0 && pc.kind !== "break") decorate(pc, x, w, y, this.back, this.lines, this.textColor(pc));
    if (pc.link && w > 0) this.addLink(pc.link, x, w);
  }

  /** The piece's text colour: its own, or the automatic one over what is behind it. */
  private textColor(pc: Piece): Color | null {
    return pc.style.color ?? automaticColor(pc.style.shading ?? this.background);
  }

  /**
   * Text stays in logical order: paint draws right-to-left runs inside an item reversed (and
   * shaped). Right-to-left words are therefore never merged with their visual neighbours.
   */
  private addText(pc: Piece, k: number, x: number, w: number, y: number): void {
    const merge = this.merge;
    const rtlWord = pc.rtl;
    if (!this.line.stretched && !rtlWord && merge && this.joins(pc, x)) {
      let parts = this.mergedParts.get(merge);
      if (!parts) this.mergedParts.set(merge, (parts = [merge.text]));
      parts.push(pc.text);
      merge.width += w;
      return;
    }
    if (pc.kind !== "text") {
      this.merge = null;
      return;
    }
    const item: TextItem = {
      kind: "text",
      x,
      y,
      text: pc.text,
      face: pc.face,
      size: pc.size,
      color: this.textColor(pc),
      width: w,
    };
    const spacing = pc.style.charSpacing + (this.line.charStretch.get(k) ?? 0);
    if (spacing) item.charSpacing = spacing;
    if (pc.style.scale !== 100) item.scale = pc.style.scale;
    if (pc.style.kern) item.kern = true;
    if (rtlWord) item.rtl = true;
    if (pc.noteLabelOf) item.noteLabelOf = pc.noteLabelOf;
    if (pc.joinBefore) item.joinBefore = true;
    if (pc.joinAfter) item.joinAfter = true;
    if (pc.typed !== undefined) item.typed = pc.typed;
    this.merge = rtlWord ? null : item;
    this.mergeWith = pc;
    this.text.push(item);
    this.logicalAt.set(item, pc.joinBefore || pc.joinAfter ? this.joinedWordStart(k, item) : k);
    if (pc.portion) this.portionOf.set(item, pc);
    if (rtlWord) this.rtlPieceOf.set(item, pc);
  }

  /**
   * Whether `pc` at `x` continues the current text item: same look and portion kind, touching it, no
   * note label, neither drawing other characters than typed (those keep their own `typed`).
   */
  private joins(pc: Piece, x: number): boolean {
    const merge = this.merge!;
    const with_ = this.mergeWith!;
    return (
      !pc.noteLabelOf &&
      pc.typed === undefined &&
      merge.typed === undefined &&
      !with_.noteLabelOf &&
      sameLook(with_, pc) &&
      samePortionKind(with_, pc) &&
      Math.abs(merge.x + merge.width - x) < 0.01
    );
  }

  /** The text items from index `from` on came from piece `k`. */
  private markLogical(from: number, k: number): void {
    for (let i = from; i < this.text.length; i++) this.logicalAt.set(this.text[i]!, k);
  }

  /** The first piece of the word that piece `k`, joined across runs, belongs to; `item` is noted as a joined part. */
  private joinedWordStart(k: number, item: PaintItem): number {
    this.joined.add(item);
    while (k > 0 && this.pieces[k]!.joinBefore) k--;
    return k;
  }

  /** A link area, one per stretch of touching pieces with the same target. */
  private addLink(uri: string, x: number, w: number): void {
    const prev = this.links[this.links.length - 1];
    if (prev && prev.kind === "link" && prev.uri === uri && Math.abs(prev.x + prev.width - x) < 0.01) prev.width += w;
    else this.links.push({ kind: "link", x, y: 0, width: w, height: this.height, uri });
  }

  /**
   * The text items, merged words joined, in the order they are written to the page. Positions are
   * visual, but the text is written in logical (reading) order, as LibreOffice and Word write it:
   * text extraction then reads mixed-direction lines as typed, and a right-to-left word never runs
   * on into the number or Latin word drawn beside it.
   */
  textInReadingOrder(): PaintItem[] {
    for (const [item, parts] of this.mergedParts) item.text = parts.join("");
    const order = this.line.order;
    const text = this.text;
    if (order.some((k, i) => i > 0 && k < order[i - 1]!)) {
      const at = (it: PaintItem) => this.logicalAt.get(it) ?? -1;
      const joined = this.joined;
      // The parts of a word joined across runs go out left to right, as one word is drawn, so a
      // reader takes them for one word.
      text.sort(
        (a, b) =>
          at(a) - at(b) || (joined.has(a) && joined.has(b) ? (a as { x: number }).x - (b as { x: number }).x : 0),
      );
    }
    if (this.rtlPieceOf.size > 1) rtlPortionsLeftToRight(text, this.rtlPieceOf, this.joined);
    if (this.portionOf.size) fallbackGlyphsLast(text, this.portionOf);
    return text;
  }
}

/** Pieces that can be drawn as one text item. */
function sameLook(a: Piece, b: Piece): boolean {
  return (
    a.face === b.face &&
    a.size === b.size &&
    a.rise === b.rise &&
    a.style.color === b.style.color &&
    a.style.charSpacing === b.style.charSpacing &&
    a.style.scale === b.style.scale &&
    !a.style.kern === !b.style.kern
  );
}

/**
 * LibreOffice writes a text portion as one glyph run in visual order: the right-to-left words of
 * one run's look at one bidi level go out left to right, the portions themselves in logical order
 * (measured: Hebrew and Arabic sentences in left-to-right and right-to-left paragraphs, alone, split
 * in two runs, between Latin words; a word joined across runs stays whole). So pdftotext joins a sentence's full stop, drawn right after
 * it in a left-to-right paragraph, to its first word, as in LibreOffice's PDF (`תחא.`).
 */
function rtlPortionsLeftToRight(text: PaintItem[], pieceOf: Map<PaintItem, Piece>, joined: Set<PaintItem>): void {
  // A word joined across runs is already written left to right, as one word: it stays whole.
  const pieceOfWord = (it: PaintItem) => (joined.has(it) ? undefined : pieceOf.get(it));
  for (let i = 0; i < text.length;) {
    const first = pieceOfWord(text[i]!);
    let j = i + 1;
    if (first)
      while (j < text.length) {
        const next = pieceOfWord(text[j]!);
        if (!next || next.style !== first.style || (next.level ?? 1) !== (first.level ?? 1)) break;
        j++;
      }
    if (j - i > 1) {
      const group = text.slice(i, j).sort((a, b) => (a as TextItem).x - (b as TextItem).x);
      text.splice(i, group.length, ...group);
    }
    i = j;
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
  for (let i = 0; i < text.length;) {
    const first = portionOf.get(text[i]!);
    let j = i + 1;
    if (first) while (j < text.length && portionOf.get(text[j]!)?.portion === first.portion) j++;
    const group = text.slice(i, j);
    if (
      group.length > 1 &&
      group.some((it) => portionOf.get(it)!.fallback) &&
      !group.some((it) => it.kind === "text" && it.rtl)
    ) {
      const faces: unknown[] = [];
      for (const it of group)
        if (portionOf.get(it)!.fallback && it.kind === "text" && !faces.includes(it.face)) faces.push(it.face);
      const rank = (it: PaintItem) =>
        portionOf.get(it)!.fallback && it.kind === "text" ? 1 + faces.indexOf(it.face) : 0;
      group.sort((a, b) => rank(a) - rank(b));
      text.splice(i, group.length, ...group);
    }
    i = j;
  }
}

/** Joins touching collinear decoration lines of the same look (one underline per styled stretch). */
function mergeLines(items: PaintItem[]): PaintItem[] {
  const out: PaintItem[] = [];
  for (const it of items) {
    const prev = out[out.length - 1];
    if (
      it.kind === "line" &&
      prev &&
      prev.kind === "line" &&
      it.y1 === it.y2 &&
      prev.y1 === prev.y2 &&
      Math.abs(prev.y1 - it.y1) < 0.01 &&
      Math.abs(prev.x2 - it.x1) < 0.01 &&
      prev.width === it.width &&
      prev.color === it.color &&
      prev.style === it.style
    ) {
      prev.x2 = it.x2;
      continue;
    }
    out.push(it.kind === "line" ? { ...it } : it);
  }
  return out;
}
