/**
 * Paragraph (inline) layout: a paragraph's pieces broken into lines within a width, with Word's and
 * LibreOffice's rules for indents, numbering labels, tabs, alignment, line height and run
 * decorations. Items are relative to the line box (x from the paragraph box's left edge, y from the
 * line top, text y = baseline).
 *
 * The stages, a file each: pieces.ts cuts the paragraph into measured pieces (collect);
 * line-fit.ts finds where each line ends (line breaking); line-arrange.ts places, justifies and
 * orders the line's pieces; line-height.ts sizes the line; line-items.ts draws it. This module
 * runs them line by line, beside floats (exclusions), and finishes the paragraph.
 *
 * Right-to-left: lines are laid out from the start edge and mirrored for bidi paragraphs; pieces
 * carry their bidi embedding level (bidi.ts, no explicit embeddings) and a line's pieces are put in
 * visual order by rule L2; paint shapes and mirrors the right-to-left items.
 */
import { LIMITS } from "../../../limits";
import type { Paragraph } from "../../model/types";
import type { Exclusions, FloatingObject, LayoutContext, LayoutParagraph, LineBox, ParagraphLayout } from "../types";
import { arrangeLine } from "./line-arrange";
import { fitLine, showSoftHyphen, splitPiece, type LineFit } from "./line-fit";
import { naturalHeight, proportionalExtra, spacedLine, type ParagraphFonts } from "./line-height";
import { lineItems } from "./line-items";
import type { Piece } from "./piece";
import { buildPieces } from "./pieces";
import { tabContext } from "./tabs";
import { dropCapItem, measureDropCap, type DropCapBox } from "./drop-cap";

export const layoutParagraph: LayoutParagraph = (p, width, ctx, exclusions, widthOf) =>
  new ParagraphLayouter(p, width, ctx, exclusions, widthOf).run();

/** Where a line goes: its ends, how far a float beside it pushed it down, and where its pieces end. */
interface LinePlace {
  left: number;
  right: number;
  /** Left exclusion (a float's room), where default tab stops count from. */
  exLeft: number;
  /** How far below its natural top the line starts (no word fitted beside a float higher up). */
  dy: number;
  fit: LineFit;
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
  private readonly paragraphFonts: ParagraphFonts;
  /** The drop cap beside the first lines, if any (left-to-right paragraphs). */
  private drop?: DropCapBox;

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
    // Nothing but spaces and tabs: the paragraph style's font, not the runs', sets the height.
    const blank =
      !!p.styleRun && this.pieces.some(isBlank) && this.pieces.every((pc) => isBlank(pc) || pc.kind === "float");
    this.paragraphFonts = {
      fonts: ctx.fonts,
      blank,
      styleRun: p.styleRun,
      emptyLine: blank ? p.styleRun! : (p.emptyLine ?? p.markStyle),
    };
  }

  run(): ParagraphLayout {
    const pieces = this.pieces;
    if (this.p.dropCap && !this.bidi) {
      const text = pieces.find((pc) => pc.kind === "text");
      const s = this.paragraphFonts.emptyLine;
      const ascent = text
        ? text.metrics.ascent(text.size)
        : this.ctx.fonts.face({ family: s.font, bold: s.bold, italic: s.italic }).ascent(s.size);
      this.drop = measureDropCap(this.p, this.ctx, this.estimateHeight(0, false), ascent);
    }
    let i = 0;
    let top = 0;
    let first = true;
    // A paragraph ending in a break still has a line after it (the paragraph mark's).
    let markLine = false;
    while (i < pieces.length || first || markLine) {
      const place = this.placeLine(i, top, first);
      const end = place.fit.end;
      if (place.fit.split) splitPiece(pieces, place.fit.split.index, place.fit.split.at, this.ctx.budget);
      else if (end < pieces.length && pieces[end - 1]?.softHyphen) showSoftHyphen(pieces, end - 1);
      const line = this.finishLine(i, end, place, first);
      this.lines.push(line);
      top += line.height;
      markLine = end >= pieces.length && end > i && pieces[end - 1]!.kind === "break";
      i = end;
      first = false;
      if (this.lines.length > LIMITS.paragraph.maxLines) break;
    }
    const drop = this.drop;
    if (drop && this.lines.length) {
      const k = Math.min(drop.lines, this.lines.length) - 1;
      this.lines[k]!.items.push(dropCapItem(this.p, drop, this.indentStart, this.lines[k]!.baseline));
    }
    // LibreOffice gives the first line no extra space above; instead the last line gets its own extra below.
    const rule = this.p.style.line;
    const last = this.lines[this.lines.length - 1];
    if (rule.rule === "auto" && rule.value > 1 && last) {
      const extra = proportionalExtra(this.lastNatural, rule.value);
      last.height += extra;
      last.extraBelow = extra;
    }
    return {
      spaceBefore: this.p.style.spaceBefore,
      spaceAfter: this.p.style.spaceAfter,
      lines: this.lines,
      floats: this.floats,
    };
  }

  /**
   * Fits the line starting at piece `i` whose top is `top` pt below the first line's, beside the
   * floats of `exclusions`: where not even one word fits beside one, the line goes lower, a line
   * height at a time.
   */
  private placeLine(i: number, top: number, first: boolean): LinePlace {
    const beside = this.drop && this.lines.length < this.drop.lines ? this.drop.width : 0;
    const startX = this.indentStart + (first ? this.p.style.firstLine : 0) + beside;
    const labelShift = first ? this.labelShift() : 0;
    let dy = 0;
    let steps = 0;
    for (;;) {
      const ex = this.exclusions ? this.exclusions(top + dy, this.estimateHeight(i)) : { left: 0, right: 0 };
      const left = ex.left + startX - labelShift;
      const right = this.lineWidth() - this.indentEnd - ex.right;
      const fit = fitLine(
        this.pieces,
        i,
        left,
        right,
        tabContext(this.p, this.ctx.defaultTabStop, first, ex.left, this.ctx.inTableCell),
        this.ctx.inTableCell,
        this.ctx.budget,
      );
      const narrowed = ex.left > 0 || ex.right > 0;
      if (!narrowed || !fit.forced || ++steps > LIMITS.paragraph.maxExclusionSteps)
        return { left, right, exLeft: ex.left, dy, fit };
      // Not even one word fits beside the float: try lower, one line at a time.
      dy += Math.max(1, this.estimateHeight(i));
    }
  }

  /** The line box of pieces [start, end): arranged, sized by the spacing rule, drawn. */
  private finishLine(start: number, end: number, place: LinePlace, first: boolean): LineBox {
    const lineIndex = this.lines.length;
    this.ctx.budget.tick(end - start + 1);
    for (let k = start; k < end; k++) {
      const pc = this.pieces[k]!;
      if (pc.kind === "float") this.floats.push({ inline: pc.object!, anchor: pc.object!.anchor!, line: lineIndex });
    }
    const span = { left: place.left, right: place.right, width: this.lineWidth() };
    const arranged = arrangeLine(
      this.pieces,
      start,
      end,
      span,
      tabContext(this.p, this.ctx.defaultTabStop, first, place.exLeft, this.ctx.inTableCell),
      this.p,
    );
    const { natural, ascent, fontHeight } = naturalHeight(
      this.pieces,
      start,
      end,
      lineIndex === 0,
      this.paragraphFonts,
    );
    this.lastNatural = fontHeight;
    const spaced = spacedLine(this.p.style, this.ctx.linePitch, natural, ascent, lineIndex === 0, fontHeight);
    const box = lineItems(
      this.pieces,
      arranged,
      spaced.height + place.dy,
      spaced.baseline + place.dy,
      this.p,
      span.width,
      this.ctx,
    );
    if (spaced.extraAbove) box.extraAbove = spaced.extraAbove;
    if (spaced.extraWithheld) box.extraWithheld = spaced.extraWithheld;
    return box;
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
    const base = {
      face,
      metrics: face,
      size: num.style.size,
      style: num.style,
      rise: 0,
      breakAfter: false,
      label: true,
      chars: 1,
      rtl: false,
    };
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

  /**
   * Height of the line starting at piece `i`, guessed before it is laid out (for exclusions); as
   * the first line's, or (`first` false) as a later line's, with proportional spacing's extra.
   */
  private estimateHeight(i: number, first = this.lines.length === 0): number {
    const pc = this.paragraphFonts.blank ? undefined : this.pieces[i];
    const s = this.paragraphFonts.emptyLine;
    const face = pc ? pc.face : this.ctx.fonts.face({ family: s.font, bold: s.bold, italic: s.italic });
    const size = pc ? pc.style.size : s.size;
    return spacedLine(
      this.p.style,
      this.ctx.linePitch,
      face.lineHeight(size),
      face.ascent(size),
      first,
    ).height;
  }
}
