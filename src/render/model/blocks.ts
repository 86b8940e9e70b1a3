/**
 * Block content of a story (body, cell, header, note, text box): paragraphs with their runs,
 * complex and simple fields, hyperlinks, content controls and revisions, and tables.
 * Unknown wrappers are unwrapped (their content kept); deleted and moved-from text is dropped.
 */
import type { Block, Inline, NumberFormat, Paragraph, RunStyle, TabStop } from "./types";
import type { XNode } from "./xml-tree";
import type { FieldFrame, ParseContext, ResolvedRun, Story } from "./context";
import {
  DEFAULT_FONT,
  overlayPara,
  overlayRun,
  readParaProps,
  readRunProps,
  type ParaProps,
  type RunProps,
  toParagraphStyle,
  toRunStyle,
  xorToggles,
} from "./properties";
import { drawnWithOpenSymbol, isSymbolFont, mapSymbolChar, mapSymbolText } from "./symbols";
import { imageFromRel, readDrawing, readVml } from "./drawings";
import { readTable, type CellFormatting } from "./tables";
import { formatNumber } from "./number-format";
import { nativeDigitsFor, nativeDigitsOfText, type RunLanguages } from "./label-language";
import { documentPropertyField } from "./doc-properties";
import {
  dropdownResult,
  fieldName,
  fieldNumberFormat,
  MISSING_REFERENCE,
  otherFieldResult,
  referenceTarget,
  sequenceField,
  type FieldResult,
} from "./field-results";
import { MATH_FAMILY, mathTextBlocks, readMath } from "./math";

/** Elements whose children are read as if they stood in their place. */
const TRANSPARENT = new Set([
  "sdtContent",
  "smartTag",
  "customXml",
  "ins",
  "moveTo",
  "dir",
  "bdo",
  "hyperlink",
  "fldSimple",
  "sdt",
]);
/** Revision or annotation content that is not shown. */
const DROPPED = new Set([
  "pPr",
  "rPr",
  "sdtPr",
  "sdtEndPr",
  "customXmlPr",
  "smartTagPr",
  "proofErr",
  "permStart",
  "permEnd",
  "bookmarkStart",
  "bookmarkEnd",
  "commentRangeStart",
  "commentRangeEnd",
]);

/** Reads the blocks of a container element (w:body, w:tc, w:hdr, w:txbxContent ...). */
export function readBlocks(
  container: XNode,
  ctx: ParseContext,
  story: Story,
  cell?: CellFormatting,
  onSectionEnd?: (sectPr: XNode) => void,
  out: Block[] = [],
): Block[] {
  for (const el of container.children) {
    switch (el.name) {
      case "p": {
        for (const para of readParagraph(el, ctx, story, cell)) {
          // LibreOffice 7.4 makes no frame of a framed paragraph inside a block-level content control
          // (a page number in a w:docPartObj, plain controls too): it stays a line of the flow.
          if (ctx.blockControlDepth > 0 && para.style.frame) {
            const { frame: _inControl, ...unframed } = para.style;
            para.style = unframed;
          }
          const prev = out[out.length - 1];
          if (prev?.type === "paragraph" && takeDropCap(prev, para)) out.pop();
          else if (prev?.type === "paragraph") {
            dropAutoSpacingInsideList(prev, para);
            betweenAsTopBorder(prev, para);
          }
          out.push(para);
        }
        const sectPr = onSectionEnd ? el.child("pPr")?.child("sectPr") : undefined;
        if (sectPr) onSectionEnd!(sectPr);
        break;
      }
      case "tbl":
        ctx.blockControlStart = false;
        ctx.countBlock();
        out.push(ctx.nested(() => readTable(el, ctx, story, (c, s, f) => readBlocks(c, ctx, s, f))));
        break;
      case "sdt":
        // LibreOffice 7.4 draws the first paragraph of a block-level content control without its
        // runs' formatting, as it draws plain-text controls (measured; the paragraph style stays),
        // except in a building block (w:docPartObj: page numbers, cover pages), which it unwraps.
        ctx.blockControlStart = !el.child("sdtPr")?.child("docPartObj");
        ctx.blockControlDepth++;
        readBlocks(el.child("sdtContent") ?? el, ctx, story, cell, onSectionEnd, out);
        ctx.blockControlDepth--;
        ctx.blockControlStart = false;
        break;
      case "customXml":
      case "ins":
      case "moveTo":
        readBlocks(el.child("sdtContent") ?? el, ctx, story, cell, onSectionEnd, out);
        break;
      case "AlternateContent": {
        const branch = chooseBranch(el);
        if (branch) readBlocks(branch, ctx, story, cell, onSectionEnd, out);
        break;
      }
      case "sectPr":
        break;
      case "bookmarkStart":
      case "bookmarkEnd":
        readBookmark(el, ctx);
        break;
      default:
        // An element we do not know may still wrap paragraphs (newer schema wrappers): keep them.
        if (!DROPPED.has(el.name) && el.children.length) readBlocks(el, ctx, story, cell, onSectionEnd, out);
        break;
    }
  }
  return out;
}

/** mc:AlternateContent: the first Choice whose requirements we read (DrawingML shapes), else the Fallback. */
export function chooseBranch(ac: XNode): XNode | undefined {
  const understood = new Set(["wps", "wpg", "wpc", "wp14", "w14", "w15", "a14", "v", "o", "w10", "wne"]);
  for (const c of ac.children) {
    if (c.name !== "Choice") continue;
    const requires = (c.attr("Requires") ?? "").split(/\s+/).filter(Boolean);
    if (requires.length && requires.every((r) => understood.has(r))) return c;
  }
  return ac.child("Fallback");
}

/**
 * Word writes an anchored drawing's position as mc:AlternateContent inside wp:anchor: a Choice
 * with wp14 percentages of the page, and a Fallback with the same position in absolute
 * wp:posOffset units. The Fallback's children take the AlternateContent's place (in this tree
 * only), so the anchor reads like one without alternatives.
 */
function settleAnchorAlternates(drawing: XNode): void {
  for (const anchor of drawing.children) {
    if (anchor.name !== "anchor" || !anchor.children.some((c) => c.name === "AlternateContent")) continue;
    anchor.children = anchor.children.flatMap((c) =>
      c.name === "AlternateContent" ? ((c.child("Fallback") ?? chooseBranch(c))?.children ?? []) : [c],
    );
  }
}

interface RunContext {
  ctx: ParseContext;
  story: Story;
  out: Inline[];
  link?: string;
  /** Run properties every run of the paragraph starts from (defaults, table style, paragraph style). */
  base: RunProps;
  /** The run style of the paragraph mark, for inlines with no run of their own. */
  mark: RunStyle;
  /** Inside a tracked deletion: the text is shown struck through, as LibreOffice and Word print changes. */
  deleted?: boolean;
  /** The paragraph's mail-merge fields so far (see `countMergeField`). */
  merge: MergeTally;
  /** Inside a plain-text content control (`w:sdtPr/w:text`): see `resolvedRun`. */
  plainTextControl?: boolean;
  /** What follows the paragraph's last page or column break so far (see `fieldAloneAfterBreak`). */
  tail: BreakTail;
  /** Pushing a field's own result at its end (it counts as the field's, not as text beside it). */
  endingField?: boolean;
  /**
   * Set when the paragraph's list label has full-width numbers: whether its first character that
   * is not weak asks for native digits, once known (see label-language.ts).
   */
  label?: { native?: boolean };
}

interface BreakTail {
  /** Index of the last page or column break in `out`, -1 before one. */
  brk: number;
  /** Outermost fields begun after it. */
  fields: number;
  /** Anything shown after it outside a field. */
  other: boolean;
}

/**
 * The mail-merge fields (MERGEFIELD) of a paragraph: LibreOffice imports them as database fields
 * and hides a paragraph whose database fields all show nothing (its "empty database field hides
 * the paragraph" setting, on for DOCX; sw SwDoc::FieldHidesPara): the whole paragraph goes, its
 * other text and its spacing too, while a list paragraph still takes its number. One field with a
 * result, even a space, keeps it (measured on minimal documents, LibreOffice 7.4).
 */
interface MergeTally {
  fields: number;
  filled: boolean;
}

/** A mail-merge field that ended in the paragraph, not inside another field's instruction or a dropped result. */
function countMergeField(rc: RunContext, instr: string, filled: boolean): void {
  if (fieldName(instr) !== "MERGEFIELD" || fieldState(rc.story.fields).hidden) return;
  rc.merge.fields++;
  if (filled) rc.merge.filled = true;
}

/**
 * Automatic (HTML-like) spacing is not applied between two list paragraphs: a bulleted list written
 * with w:beforeAutospacing/w:afterAutospacing stays tight, as in Word and LibreOffice (measured:
 * 14 pt before the first item and after the last, none between items).
 */
function dropAutoSpacingInsideList(prev: Paragraph, next: Paragraph): void {
  if (!prev.numbering || !next.numbering) return;
  if (prev.style.autoSpaceAfter) prev.style = { ...prev.style, spaceAfter: 0 };
  if (next.style.autoSpaceBefore) next.style = { ...next.style, spaceBefore: 0 };
}

/**
 * A paragraph's own w:between border, when the paragraph above has a between too (its own or its
 * style's), becomes the paragraph's top border, and the paragraph above loses its bottom line but
 * keeps that line's space (LibreOffice 7.4's writerfilter, measured: boxed paragraphs with a between
 * of none sit 2 pt apart with borders 1 pt from the text, a single between draws its rule above each
 * paragraph after the first). A between of none or nil leaves only its space.
 */
function betweenAsTopBorder(prev: Paragraph, next: Paragraph): void {
  const between = next.style.ownBetween;
  if (!between || !prev.style.bordersUnconnected) return;
  next.style = { ...next.style, borders: { ...next.style.borders, top: between } };
  const bottom = prev.style.borders.bottom;
  if (bottom)
    prev.style = {
      ...prev.style,
      borders: { ...prev.style.borders, bottom: { style: "none", width: 0, color: null, space: bottom.space } },
    };
}

function readParagraph(p: XNode, ctx: ParseContext, story: Story, cell: CellFormatting | undefined): Paragraph[] {
  ctx.countBlock();
  const { styles, numbering, env } = ctx;
  const pPr = p.child("pPr");
  const direct = readParaProps(pPr, env);
  const styleId = styles.has(direct.pStyle, "paragraph") ? direct.pStyle! : (styles.defaultParagraphStyle ?? "");
  const fromStyle = styles.paraProps(styleId || undefined);
  const numId = direct.numId ?? fromStyle.numId;
  const ilvl = direct.ilvl ?? fromStyle.ilvl ?? numbering.levelOfStyle(numId, styleId) ?? 0;
  const level = numbering.level(numId, ilvl);

  // In a table, the table style's paragraph and run formatting applies where the paragraph's style
  // does not set the property (docDefaults do not count), as LibreOffice imports DOCX tables; by an
  // old Word rule it also replaces the default style's left alignment and 11 or 12 pt size, unless
  // the document turns that off (ParseContext.tableStyleBeatsDefaults). The size is the table
  // style's, or with none the docDefaults' (a table without a style keeps the 11 or 12 pt).
  // Measured on minimal documents.
  const legacyOverride = !!cell && ctx.tableStyleBeatsDefaults && styleId === styles.defaultParagraphStyle;
  let props = styles.defaultPara;
  if (cell) props = overlayPara(props, paraPropsNotIn(cell.pPr, fromStyle));
  // Numbering indents sit under the paragraph's direct formatting; when the list comes from the
  // style, the style's own indents win over the level's.
  if (level && direct.numId === undefined) props = overlayPara(overlayPara(props, level.pPr), fromStyle);
  else if (level) props = overlayPara(overlayPara(props, fromStyle), level.pPr);
  // A paragraph that turns its style's list off (numId 0) loses the style's indents with it: they
  // are the list's (LibreOffice, measured); only its own indents apply.
  else if (direct.numId === "0" && fromStyle.numId && fromStyle.numId !== "0")
    props = overlayPara(props, { ...fromStyle, ind: {} });
  else props = overlayPara(props, fromStyle);
  if (legacyOverride && fromStyle.align === "left" && cell.pPr.align !== undefined)
    props = { ...props, align: cell.pPr.align };
  props = overlayPara(props, direct);

  // Run formatting every run starts from: docDefaults, then table and paragraph styles (toggles XOR).
  const base = ctx.paragraphBase(cell ?? NO_CELL, styleId, () => {
    const styleRun = styles.runProps(styleId || undefined);
    let b: RunProps = styles.defaultRun;
    if (cell) b = xorToggles(b, runPropsNotIn(cell.rPr, styleRun));
    b = xorToggles(b, styleRun);
    const tableSize = cell?.styled ? (cell.rPr.size ?? styles.defaultRun.size) : cell?.rPr.size;
    if (legacyOverride && (styleRun.size === 11 || styleRun.size === 12) && tableSize !== undefined)
      b = { ...b, size: tableSize };
    return b;
  });
  const markRPr = pPr?.child("rPr");
  const markRun = ctx.runStyle(base, markRPr?.inner() ?? "", () => withLanguages(resolveRun(ctx, base, markRPr)));
  const markStyle = markRun.style;
  const styleRun = ctx.runStyle(base, "", () => withLanguages(resolveRun(ctx, base, undefined))).style;
  const para: Paragraph = {
    type: "paragraph",
    style: toParagraphStyle(props, styleId),
    inlines: [],
    markStyle,
    styleRun,
  };
  const emptyLine = emptyLineStyle(
    ctx,
    base,
    markRPr,
    p.children.some((c) => c.name === "bookmarkStart" || c.name === "bookmarkEnd"),
  );
  if (emptyLine) para.emptyLine = emptyLine;
  if (direct.borders?.between) para.style.ownBetween = direct.borders.between;
  // The next label of the paragraph's list level (a split-off paragraph mark takes one too), with
  // its text in native digits where it has full-width numbers: which one shows depends on the text.
  const nextLabel = (): { label: NonNullable<Paragraph["numbering"]>; native?: string } | undefined => {
    if (!level) return undefined;
    const label = numbering.next(numId, ilvl);
    if (label) {
      // The label takes the paragraph mark's formatting (but not its underline) under the level's own.
      let labelProps = overlayRun({ ...resolveRun(ctx, base, markRPr), underline: undefined }, level.rPr);
      let text = label.text;
      if (isSymbolFont(labelProps.font)) {
        const symbolFont = labelProps.font!;
        text = mapSymbolText(symbolFont, text);
        labelProps = {
          ...labelProps,
          font: drawnWithOpenSymbol(symbolFont) ? OPEN_SYMBOL : isSymbolFont(base.font) ? DEFAULT_FONT : base.font,
        };
      }
      const numberingLabel: NonNullable<Paragraph["numbering"]> = {
        text,
        ...(text !== label.text && text.length === label.text.length ? { typed: label.text } : {}),
        style: ctx.intern(toRunStyle(labelProps)),
        suffix: level.suffix,
        align: level.align,
      };
      const pic = level.picBulletId !== undefined ? numbering.picBullets.get(level.picBulletId) : undefined;
      if (pic) {
        const blip = pic.first("blip") ?? pic.first("imagedata");
        const image = imageFromRel(ctx, ctx.story(numberingPart(ctx)), blip?.attr("embed") ?? blip?.attr("id"));
        if (image) {
          numberingLabel.image = image;
          // Where the picture cannot be drawn, a plain bullet reads better than the level's symbol-font fallback.
          numberingLabel.text = "•";
          delete numberingLabel.typed;
        }
      }
      const native = text === label.text && !numberingLabel.image ? label.native : undefined;
      return native ? { label: numberingLabel, native } : { label: numberingLabel };
    }
    return undefined;
  };
  const ownLabel = nextLabel();
  if (ownLabel) {
    para.numbering = ownLabel.label;
    if (level?.suffix === "tab") keepListTab(para, level.pPr.tabs);
  }
  const rc: RunContext = {
    ctx,
    story,
    out: para.inlines,
    base,
    mark: markStyle,
    merge: { fields: 0, filled: false },
    tail: { brk: -1, fields: 0, other: false },
  };
  if (ctx.blockControlStart) {
    ctx.blockControlStart = false;
    rc.plainTextControl = true;
  }
  if (ownLabel?.native) rc.label = {};
  readInlines(p, rc);
  ctx.bookmarks.endParagraph();
  // A paragraph without a character that is not weak gives its label the mark's Latin language.
  if (ownLabel?.native && (rc.label?.native ?? nativeDigitsFor("latin", markRun.langs)))
    ownLabel.label.text = ownLabel.native;
  // Body text only: LibreOffice drops page breaks in table cells, and headers, notes and text boxes have none.
  const bodyText = !cell && story.part === ctx.pkg.mainPart;
  if (bodyText) fieldAloneAfterBreak(para, rc.tail, () => defaultStyleRun(ctx));
  if (rc.merge.fields > 0 && !rc.merge.filled) para.emptyMergeFields = true;
  // A display equation (m:oMathPara) alone in its paragraph is centred, as Word's default centerGroup.
  if (para.inlines.length === 1 && para.inlines[0]!.type === "box" && para.inlines[0]!.math?.display)
    para.style = { ...para.style, align: "center" };
  // LibreOffice drops a page break inside a table cell: no page, no line ("x", break, "y" reads
  // "xy"; a paragraph of only a break keeps its empty line). Measured, LibreOffice 7.4.
  if (cell) para.inlines = para.inlines.filter((i) => i.type !== "break" || i.kind !== "page");
  const carried = story.carriedPageBreak;
  story.carriedPageBreak = collapseDeferredBreaks(para);
  leadingBreakToBreakBefore(para);
  if (carried) para.style = { ...para.style, pageBreakBefore: true };
  const markLabel = (): Paragraph["numbering"] => {
    const next = nextLabel();
    if (next?.native && nativeDigitsFor("latin", markRun.langs)) next.label.text = next.native;
    return next?.label;
  };
  const mark = ctx.splitPageBreakAndMark && bodyText ? splitOffMark(para, markLabel) : undefined;
  return mark ? [para, mark] : [para];
}

/**
 * A page or column break followed, to the paragraph's end, by one field and nothing else: LibreOffice
 * shows the field's result on the next page without its runs' formatting, in the default paragraph
 * style's font, and sizes the line by it ("x", break, SEQ or PAGE field in bold 22 pt: the number in
 * the regular 11 pt of Normal even under a 15 pt paragraph style; text before or after the field, a
 * second field or a line break keep the runs' formatting). Measured on 24 cases, LibreOffice 7.4;
 * body text only (LibreOffice drops page breaks in table cells).
 */
function fieldAloneAfterBreak(para: Paragraph, tail: BreakTail, style: () => RunStyle): void {
  if (tail.brk < 0 || tail.fields !== 1 || tail.other) return;
  const restyled = style();
  para.inlines.forEach((inline, i) => {
    if (i > tail.brk && "style" in inline) para.inlines[i] = { ...inline, style: restyled } as Inline;
  });
}

/** The run formatting of a paragraph in the default paragraph style with no formatting of its own. */
function defaultStyleRun(ctx: ParseContext): RunStyle {
  const { styles } = ctx;
  const base = xorToggles(styles.defaultRun, styles.runProps(styles.defaultParagraphStyle || undefined));
  return toRunStyle(resolveRun(ctx, base, undefined));
}

/**
 * A drop cap frame paragraph (w:framePr w:dropCap="drop") before a paragraph: LibreOffice's import
 * makes its text the next paragraph's drop cap (the first letters set N lines tall, the paragraph's
 * first N lines beside them) instead of a paragraph of its own. Only a frame of plain text before a
 * paragraph without a frame of its own does; otherwise the frame stays a paragraph. Returns whether
 * `prev` was taken.
 */
function takeDropCap(prev: Paragraph, next: Paragraph): boolean {
  const frame = prev.style.dropCapFrame;
  // (Right-to-left paragraphs keep the frame as a paragraph: their drop caps are not laid out.)
  if (!frame || next.style.dropCapFrame || next.style.frame || next.dropCap || next.style.bidi) return false;
  const texts: Extract<Inline, { type: "text" }>[] = [];
  for (const i of prev.inlines) {
    if (i.type !== "text") return false;
    if (i.text) texts.push(i);
  }
  if (!texts.length) return false;
  next.dropCap = { ...frame, text: texts.map((i) => i.text).join(""), style: texts[0]!.style };
  return true;
}

/**
 * settings.xml `w:splitPgBreakAndParaMark` (Word 2003 documents carry it): a page or column break
 * that ends its paragraph leaves the paragraph mark on the next page as a paragraph of its own,
 * with the paragraph's properties, its spacing and a list label of its own ("x", break: "x" on one
 * page, an empty line of the mark's height on the next; a numbered one takes the next number). A
 * paragraph holding only the break moves to the next page whole. Measured, LibreOffice 7.4; body
 * text only (it ignores page breaks in table cells).
 */
function splitOffMark(para: Paragraph, nextLabel: () => Paragraph["numbering"]): Paragraph | undefined {
  const isEmpty = (i: Inline) => i.type === "text" && i.text === "";
  let last = para.inlines.length - 1;
  while (last >= 0 && isEmpty(para.inlines[last]!)) last--;
  const brk = para.inlines[last];
  if (brk?.type !== "break" || (brk.kind !== "page" && brk.kind !== "column")) return undefined;
  para.inlines.splice(last, 1);
  const before = brk.kind === "page" ? { pageBreakBefore: true } : { columnBreakBefore: true };
  if (para.inlines.every(isEmpty)) {
    para.style = { ...para.style, ...before };
    return undefined;
  }
  const mark: Paragraph = {
    type: "paragraph",
    style: { ...para.style, ...before },
    inlines: [],
    markStyle: para.markStyle,
    styleRun: para.styleRun,
  };
  if (para.emptyLine) mark.emptyLine = para.emptyLine;
  const label = nextLabel();
  if (label) mark.numbering = label;
  return mark;
}

/**
 * LibreOffice's DOCX import defers a page (or column) break until the paragraph's next character
 * (a space or tab counts; a bookmark or an empty run does not) and breaks there once (measured on
 * minimal documents, LibreOffice 7.4; writerfilter's `deferBreak`): breaks with nothing between them
 * in one paragraph give one page, however many (3 in a run: 2 pages, not 4). Breaks in separate
 * paragraphs each count. After text, a line break while a break is pending takes it away from there
 * ("A", page break, line break, "B" is one paragraph on one page); when more text follows in the
 * paragraph, the next paragraph starts a page instead (returns true), else the break is lost.
 */
function collapseDeferredBreaks(para: Paragraph): boolean {
  const out: Inline[] = [];
  let pending: number | undefined;
  let text = false;
  let takenAway = false;
  let carry = false;
  for (const inline of para.inlines) {
    if (inline.type === "text" && inline.text === "") out.push(inline);
    else if (inline.type === "break" && inline.kind !== "line") {
      if (pending === undefined) pending = out.push(inline) - 1;
      // A page break pending with a column break: the page break wins.
      else if (inline.kind === "page") out[pending] = inline;
    } else if (inline.type === "break") {
      if (pending !== undefined && text) {
        out.splice(pending, 1);
        takenAway = true;
      }
      pending = undefined;
      out.push(inline);
    } else {
      if (takenAway) carry = true;
      pending = undefined;
      text = true;
      out.push(inline);
    }
  }
  para.inlines = out;
  return carry;
}

/**
 * A page or column break before any text of a paragraph that has text after it: LibreOffice imports
 * it as a break before the paragraph (measured), so the numbering label, the space before and the
 * text all start the next page or column, and no empty line stays behind.
 */
function leadingBreakToBreakBefore(para: Paragraph): void {
  const isEmpty = (i: Inline) => i.type === "text" && i.text === "";
  const at = para.inlines.findIndex((i) => !isEmpty(i));
  const first = para.inlines[at];
  if (first?.type !== "break" || (first.kind !== "page" && first.kind !== "column")) return;
  if (!para.inlines.slice(at + 1).some((i) => i.type !== "break" && !isEmpty(i))) return;
  para.inlines.splice(at, 1);
  para.style =
    first.kind === "page" ? { ...para.style, pageBreakBefore: true } : { ...para.style, columnBreakBefore: true };
}

/**
 * The level's list tab (`w:tab w:val="num"`) stays a tab stop of a numbered paragraph, on every
 * line, even where the paragraph or its style clears a stop there: LibreOffice adds it to the
 * paragraph's stops as a left stop (its "list tab stop position"), measured.
 */
function keepListTab(para: Paragraph, levelTabs: readonly TabStop[] | undefined): void {
  const list = levelTabs?.find((t) => t.list);
  if (!list || para.style.tabs.some((t) => Math.abs(t.pos - list.pos) < 0.01)) return;
  const tabs = [...para.style.tabs, { pos: list.pos, align: "left" as const, leader: "none" as const }].sort(
    (a, b) => a.pos - b.pos,
  );
  para.style = { ...para.style, tabs };
}

function numberingPart(ctx: ParseContext): string {
  const rel = ctx.pkg.relationships(ctx.pkg.mainPart).find((r) => r.type.endsWith("/numbering"));
  return rel?.target ?? "word/numbering.xml";
}

/** Base run properties with a character style applied (toggles XOR with the paragraph level). */
function charStyled(ctx: ParseContext, base: RunProps, rStyle: string | undefined): RunProps {
  const id = ctx.styles.has(rStyle, "character") ? rStyle : ctx.styles.defaultCharacterStyle;
  return id ? xorToggles(base, ctx.styles.runProps(id)) : base;
}

const NO_CELL = {};

/** The table style's paragraph properties the paragraph style leaves unset (indents side by side). */
function paraPropsNotIn(table: ParaProps, style: ParaProps): ParaProps {
  const out: ParaProps = { ind: {} };
  for (const k in table) {
    if (k === "ind" || k === "tabs" || k === "borders") continue;
    const key = k as keyof ParaProps;
    if (style[key] === undefined) (out as unknown as Record<string, unknown>)[k] = table[key];
  }
  for (const side of ["left", "right", "firstLine"] as const)
    if (style.ind[side] === undefined && table.ind[side] !== undefined) out.ind[side] = table.ind[side];
  if (table.tabs && !style.tabs) out.tabs = table.tabs;
  if (table.borders) {
    const borders: NonNullable<ParaProps["borders"]> = {};
    for (const [side, b] of Object.entries(table.borders))
      if (style.borders?.[side as keyof typeof borders] === undefined) borders[side as keyof typeof borders] = b;
    out.borders = borders;
  }
  return out;
}

/** The table style's run properties the paragraph style leaves unset. */
function runPropsNotIn(table: RunProps, style: RunProps): RunProps {
  const out: RunProps = {};
  for (const k in table) {
    const key = k as keyof RunProps;
    if (style[key] === undefined) (out as Record<string, unknown>)[k] = table[key];
  }
  return out;
}

/**
 * The mark's formatting for an empty paragraph's line where it is not the mark style: LibreOffice
 * takes the Western size (w:sz, not w:szCs) even for a right-to-left mark, and drops the mark's
 * character style unless a bookmark sits in the paragraph (measured: Word's _GoBack bookmark makes
 * the line as tall as the character style's font). Undefined when that changes nothing.
 */
function emptyLineStyle(
  ctx: ParseContext,
  base: RunProps,
  markRPr: XNode | undefined,
  bookmark: boolean,
): RunStyle | undefined {
  const direct = readRunProps(markRPr, ctx.env);
  const dropStyle = direct.rStyle !== undefined && !bookmark;
  if (!dropStyle && !(direct.rtl ?? base.rtl) && !(direct.complexScript ?? base.complexScript)) return undefined;
  const props = dropStyle ? overlayRun(base, { ...direct, rStyle: undefined }) : resolveRun(ctx, base, markRPr);
  return toRunStyle({ ...props, rtl: false, complexScript: false });
}

function resolveRun(ctx: ParseContext, base: RunProps, rPr: XNode | undefined): RunProps {
  const direct = readRunProps(rPr, ctx.env);
  return overlayRun(charStyled(ctx, base, direct.rStyle), { ...direct, rStyle: undefined });
}

function resolvedRun(r: XNode, rc: RunContext): ResolvedRun {
  const rPr = r.child("rPr");
  const plain = rc.plainTextControl === true;
  return rc.ctx.runStyle(rc.base, (plain ? "\u0000plain-text control\u0000" : "") + (rPr?.inner() ?? ""), () => {
    const props = resolveRun(rc.ctx, rc.base, rPr);
    const langs = languagesOf(props);
    let style = toRunStyle(props);
    if (plain) {
      // LibreOffice 7.4 draws the text of a plain-text content control without its runs' formatting
      // (bold, italic, size, colour, caps: the paragraph's own text formatting; measured on minimal
      // documents, Word keeps it). What says which text it is stays: hidden, direction, script fonts.
      const own = style;
      style = {
        ...toRunStyle(resolveRun(rc.ctx, rc.base, undefined)),
        hidden: own.hidden,
        rtl: own.rtl,
        fontEastAsia: own.fontEastAsia,
        fontComplex: own.fontComplex,
        eastAsiaHint: own.eastAsiaHint,
        cjkTypography: own.cjkTypography,
      };
    }
    // Text in Symbol/Wingdings is mapped to Unicode and drawn with the paragraph's text font.
    if (!isSymbolFont(style.font)) return { style, langs };
    return {
      style: { ...style, font: isSymbolFont(rc.base.font) ? DEFAULT_FONT : (rc.base.font ?? DEFAULT_FONT) },
      symbolFont: style.font,
      langs,
    };
  });
}

const languagesOf = (p: RunProps): RunLanguages => ({
  latin: p.latinLang,
  eastAsia: p.eastAsiaLang,
  complex: p.complexLang,
});
const withLanguages = (p: RunProps): ResolvedRun => ({ style: toRunStyle(p), langs: languagesOf(p) });

/** Records the label language from a run's text (or, `text` undefined, a tab or line break: Latin). */
function noteLabelLanguage(rc: RunContext, run: () => ResolvedRun, text?: string): void {
  if (!rc.label || rc.label.native !== undefined) return;
  rc.label.native = text === undefined ? nativeDigitsFor("latin", run().langs) : nativeDigitsOfText(text, run().langs);
}

/** LibreOffice's symbol font, as its family is named. */
const OPEN_SYMBOL = "OpenSymbol";

/** A w:sym character's style: the run's, drawn with OpenSymbol (see `drawnWithOpenSymbol`). */
function symbolStyle(rc: RunContext, style: RunStyle): RunStyle {
  const { fontEastAsia: _ea, fontComplex: _cs, ...rest } = style;
  return rc.ctx.intern({ ...rest, font: OPEN_SYMBOL });
}

function runStyleOf(r: XNode, rc: RunContext): RunStyle {
  return resolvedRun(r, rc).style;
}

/**
 * A plain-text control bound to a store (w:dataBinding) shows the bound value, in the formatting of
 * its first run, as LibreOffice does (data-binding.ts); false keeps the cached content.
 */
function readBoundText(sdt: XNode, content: XNode, rc: RunContext): boolean {
  const binding = sdt.child("sdtPr")?.child("dataBinding");
  const value = binding ? rc.ctx.dataStores?.value(binding) : undefined;
  const run = value === undefined ? undefined : firstRun(content);
  if (value === undefined || !run) return false;
  pushText(rc, value.replace(/\s+/g, " "), resolvedRun(run, rc).style);
  return true;
}

function firstRun(node: XNode): XNode | undefined {
  for (const c of node.children) {
    if (c.name === "r") return c;
    const inner = firstRun(c);
    if (inner) return inner;
  }
  return undefined;
}

/** Children of a paragraph-level container (w:p, w:hyperlink, w:sdtContent ...). */
function readInlines(container: XNode, rc: RunContext): void {
  for (const el of container.children) {
    if (el.name === "r") readRun(el, rc);
    else if (el.name === "hyperlink") {
      const rel = rc.story.rels.get(el.attr("id") ?? "");
      const link = rel?.external ? rel.target : undefined;
      readInlines(el, link ? { ...rc, link } : rc);
    } else if (el.name === "fldSimple") readSimpleField(el, rc);
    else if (el.name === "sdt") {
      const content = el.child("sdtContent");
      const plainText = el.child("sdtPr")?.child("text") !== undefined;
      const inner = plainText && !rc.plainTextControl ? { ...rc, plainTextControl: true } : rc;
      if (content && !(plainText && readBoundText(el, content, inner))) readInlines(content, inner);
    } else if (el.name === "bookmarkStart" || el.name === "bookmarkEnd") readBookmark(el, rc.ctx);
    else if (TRANSPARENT.has(el.name)) readInlines(el, rc);
    else if (el.name === "del" || el.name === "moveFrom") readInlines(el, rc.deleted ? rc : { ...rc, deleted: true });
    else if (el.name === "AlternateContent") {
      const branch = chooseBranch(el);
      if (branch) readInlines(branch, rc);
    } else if (el.name === "oMath" || el.name === "oMathPara") {
      // An equation is one object; layout/objects/math.ts sets it in the math font at the paragraph's size.
      const style = rc.ctx.intern({
        ...rc.mark,
        font: MATH_FAMILY,
        bold: false,
        italic: false,
        underline: "none",
        vertAlign: "baseline",
      });
      const node = readMath(el);
      const blocks = mathTextBlocks(node, style, (s) => rc.ctx.intern(s));
      pushVisible(rc, {
        type: "box",
        blocks,
        width: 0,
        height: 0,
        style,
        math: { node, display: el.name === "oMathPara" },
      });
    } else if (!DROPPED.has(el.name) && el.children.length) readInlines(el, rc);
  }
}

/** A bookmark's start or end, for the REF fields showing its text. */
function readBookmark(el: XNode, ctx: ParseContext): void {
  const id = el.attr("id") ?? "";
  const name = el.attr("name");
  if (el.name === "bookmarkEnd") ctx.bookmarks.end(id);
  else if (name) ctx.bookmarks.start(id, name);
}

/**
 * Whether runs are hidden by open fields (an instruction part, or a cached result LibreOffice
 * replaces with its own) or captured (a PAGE result).
 */
function fieldState(fields: readonly FieldFrame[]): { hidden: boolean; capture?: FieldFrame; link?: string } {
  let link: string | undefined;
  let capture: FieldFrame | undefined;
  for (const f of fields) {
    if (!f.inResult || f.kind === "reference" || (f.kind === "computed" && !f.result!.keepCached))
      return { hidden: true };
    if (f.kind === "page") capture = f;
    if (f.link) link = f.link;
  }
  return { hidden: false, capture, link };
}

function pushInline(rc: RunContext, inline: Inline): void {
  rc.ctx.countInline();
  rc.out.push(inline);
  besideFields(rc);
}

/** Notes content outside any field (see `fieldAloneAfterBreak`). */
function besideFields(rc: RunContext): void {
  if (!rc.story.fields.length && !rc.endingField) rc.tail.other = true;
}

/** `typed`: the document's characters where `text` draws others, as long as `text` (a symbol font's, mapped). */
function pushText(rc: RunContext, text: string, style: RunStyle, link = rc.link, typed?: string): void {
  if (!text) return;
  if (typed === text || typed?.length !== text.length) typed = undefined;
  const state = fieldState(rc.story.fields);
  if (state.hidden) return;
  if (state.capture) {
    state.capture.fallback += text;
    return;
  }
  const shown = text.trim() !== "";
  for (const f of rc.story.fields) {
    f.resultText = true;
    if (shown) f.cachedShown = true;
  }
  rc.ctx.bookmarks.add(text);
  const l = link ?? state.link;
  const last = rc.out[rc.out.length - 1];
  if (last?.type === "text" && last.style === style && last.link === l) {
    if (typed !== undefined || last.typed !== undefined) last.typed = (last.typed ?? last.text) + (typed ?? text);
    last.text += text;
    besideFields(rc);
    return;
  }
  const inline: Extract<Inline, { type: "text" }> = l
    ? { type: "text", text, style, link: l }
    : { type: "text", text, style };
  if (typed !== undefined) inline.typed = typed;
  pushInline(rc, inline);
}

/**
 * A REF field's bookmark text; a bookmark not read yet (later in the document) gets a text inline
 * of its own, filled in once every story is read (ParseContext.settleReferences).
 */
function pushReference(rc: RunContext, bookmark: string, style: RunStyle): void {
  const text = rc.ctx.bookmarks.text(bookmark);
  if (text !== undefined) return pushText(rc, text, style);
  const state = fieldState(rc.story.fields);
  if (state.hidden || state.capture) return;
  const inline: Extract<Inline, { type: "text" }> = { type: "text", text: "", style };
  if (state.link ?? rc.link) inline.link = state.link ?? rc.link;
  pushInline(rc, inline);
  rc.ctx.pendingReferences.push({ inline, bookmark });
}

/** Non-text inlines (tabs, breaks, images) obey field visibility too. */
function pushVisible(rc: RunContext, inline: Inline): void {
  const state = fieldState(rc.story.fields);
  if (state.hidden || state.capture) return;
  const l = rc.link ?? state.link;
  if (l && (inline.type === "tab" || inline.type === "image")) pushInline(rc, { ...inline, link: l });
  else pushInline(rc, inline);
}

const PAGE_FIELDS = new Set(["PAGE", "NUMPAGES", "SECTIONPAGES"]);

/** HYPERLINK "url" (\l anchors are ignored). */
function hyperlinkTarget(instr: string): string | undefined {
  if (/\\l/.test(instr)) return undefined;
  const m = /HYPERLINK\s+(?:"([^"]+)"|(\S+))/i.exec(instr);
  return m?.[1] ?? m?.[2];
}

/** An on/off element (w:checked, w:default): on when present without w:val, or with 1/true/on. */
function isOn(el: XNode | undefined): boolean {
  if (!el) return false;
  const v = el.attr("val");
  return v === undefined || v === "1" || v === "true" || v === "on";
}

/**
 * What the field shows: PAGE fields are laid out per page, HYPERLINK links its result, fields
 * LibreOffice computes get their `result` (doc-properties.ts, field-results.ts), others keep the
 * cached result. `below` are the fields it sits in: one inside a result LibreOffice drops is not
 * imported, so it neither shows nor counts (SEQ).
 */
function classify(frame: FieldFrame, ctx: ParseContext, below: readonly FieldFrame[]): void {
  const name = fieldName(frame.instr);
  if (PAGE_FIELDS.has(name)) frame.kind = "page";
  else if (name === "HYPERLINK") {
    frame.kind = "hyperlink";
    const link = hyperlinkTarget(frame.instr);
    if (link) frame.link = link;
  } else if (fieldState(below).hidden) frame.kind = "other";
  else if (name === "REF") {
    const target = referenceTarget(frame.instr);
    const known = target && ctx.bookmarks.has(target.name);
    if (known === false) computedAs(frame, { text: MISSING_REFERENCE, keepCached: false });
    else if (known && target.text && ctx.bookmarks.collects(target.name)) {
      frame.kind = "reference";
      frame.bookmark = target!.name;
    } else frame.kind = "other";
  } else {
    const result =
      name === "FORMDROPDOWN"
        ? frame.dropdown
        : name === "SEQ"
          ? sequenceField(frame.instr, ctx.sequences)
          : (documentPropertyField(frame.instr, ctx.docProperties) ?? otherFieldResult(frame.instr));
    if (result) computedAs(frame, result);
    else frame.kind = "other";
  }
}

function computedAs(frame: FieldFrame, result: FieldResult): void {
  frame.kind = "computed";
  frame.result = result;
}

/** Whether the field shows LibreOffice's text rather than its cached result (see `classify`). */
function showsComputed(frame: FieldFrame): boolean {
  return frame.kind === "reference" || (frame.kind === "computed" && (!frame.result!.keepCached || !frame.cachedShown));
}

/** At a field's end: the computed text where LibreOffice shows it. */
function endComputedField(rc: RunContext, frame: FieldFrame): void {
  if (!showsComputed(frame)) return;
  if (frame.kind === "reference") pushReference(rc, frame.bookmark!, frame.style);
  else pushText(rc, frame.result!.text, frame.style);
}

function emitPageField(rc: RunContext, frame: FieldFrame): void {
  pushVisible(rc, {
    type: "field",
    field: fieldName(frame.instr) as "PAGE",
    format: fieldNumberFormat(frame.instr),
    style: frame.style,
    fallback: frame.fallback,
  });
}

function readSimpleField(el: XNode, rc: RunContext): void {
  const instr = el.attr("instr") ?? "";
  const name = fieldName(instr);
  const firstRun = el.first("r");
  const style = firstRun ? runStyleOf(firstRun, rc) : rc.mark;
  if (PAGE_FIELDS.has(name)) {
    const fallback = el
      .find("t")
      .map((t) => t.text())
      .join("");
    emitPageField(rc, { instr, inResult: true, kind: "page", fallback, style });
    return;
  }
  if (fieldState(rc.story.fields).hidden) return;
  const frame: FieldFrame = { instr, inResult: true, fallback: "", style };
  classify(frame, rc.ctx, rc.story.fields);
  frame.cachedShown = el.find("t").some((t) => t.text().trim() !== "");
  if (showsComputed(frame)) {
    endComputedField(rc, frame);
    return;
  }
  readInlines(el, frame.link ? { ...rc, link: frame.link } : rc);
  countMergeField(
    rc,
    instr,
    el.find("t").some((t) => t.text() !== ""),
  );
}

/** A run's formatting from the paragraph and its character style alone, without its direct formatting. */
function markStyleOnly(r: XNode, rc: RunContext): RunStyle {
  const rStyle = r.child("rPr")?.child("rStyle")?.attr("val");
  return rc.ctx.intern(toRunStyle(charStyled(rc.ctx, rc.base, rStyle)));
}

function readRun(r: XNode, rc: RunContext, inherited?: () => ResolvedRun): void {
  const { ctx, story } = rc;
  let resolved: ResolvedRun | undefined;
  const run = inherited ?? (() => (resolved ??= resolvedRun(r, rc)));
  const styleOf = () => run().style;
  for (const c of r.children) {
    switch (c.name) {
      case "t":
      case "delText": {
        const { style, symbolFont } = run();
        noteLabelLanguage(rc, run, c.text());
        const shown = rc.deleted && !style.strike ? ctx.intern({ ...style, strike: true }) : style;
        // A symbol font's characters are drawn mapped to Unicode and copy as the document has them.
        if (symbolFont) pushText(rc, mapSymbolText(symbolFont, c.text()), shown, rc.link, c.text());
        else pushText(rc, c.text(), shown);
        break;
      }
      case "tab":
      case "ptab":
        noteLabelLanguage(rc, run);
        pushVisible(rc, { type: "tab", style: styleOf() });
        break;
      case "br": {
        const type = c.attr("type");
        const kind = type === "page" ? "page" : type === "column" ? "column" : "line";
        const at = rc.out.length;
        if (kind === "line") noteLabelLanguage(rc, run);
        pushVisible(rc, { type: "break", kind, style: styleOf() });
        if (kind !== "line" && rc.out.length > at && !story.fields.length)
          Object.assign(rc.tail, { brk: at, fields: 0, other: false });
        break;
      }
      case "cr":
        noteLabelLanguage(rc, run);
        pushVisible(rc, { type: "break", kind: "line", style: styleOf() });
        break;
      case "noBreakHyphen":
        pushText(rc, "\u2011", styleOf());
        break;
      case "softHyphen":
        // Kept as U+00AD: a line may end there, showing a hyphen (layout/inline/pieces.ts, line-fit.ts).
        pushText(rc, "\u00AD", styleOf());
        break;
      case "sym": {
        const font = c.attr("font") ?? "Symbol";
        const code = parseInt(c.attr("char") ?? "", 16);
        if (!Number.isFinite(code) || code < 0x20 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) break;
        const mapped = mapSymbolChar(font, code);
        if (mapped)
          pushText(
            rc,
            mapped,
            drawnWithOpenSymbol(font) ? symbolStyle(rc, styleOf()) : styleOf(),
            rc.link,
            String.fromCodePoint(code),
          );
        else if (!(code >= 0xf000 && code <= 0xf0ff)) pushText(rc, String.fromCodePoint(code), styleOf());
        break;
      }
      case "fldChar": {
        const type = c.attr("fldCharType");
        if (type === "begin") {
          if (!story.fields.length) rc.tail.fields++;
          const frame: FieldFrame = { instr: "", inResult: false, fallback: "", style: styleOf() };
          const box = c.child("ffData")?.child("checkBox");
          if (box) frame.checkbox = isOn(box.child("checked") ?? box.child("default"));
          const list = c.child("ffData")?.child("ddList");
          if (list) frame.dropdown = dropdownResult(list);
          story.fields.push(frame);
        } else if (type === "separate") {
          const top = story.fields[story.fields.length - 1];
          if (top && !top.inResult) {
            classify(top, ctx, story.fields.slice(0, -1));
            top.inResult = true;
          }
        } else if (type === "end") {
          const top = story.fields.pop();
          if (top) {
            rc.endingField = true;
            countMergeField(rc, top.instr, !!top.resultText);
            if (top.kind === undefined) classify(top, ctx, story.fields);
            if (top.kind === "page") emitPageField(rc, top);
            else if (top.kind === "computed" || top.kind === "reference") endComputedField(rc, top);
            // Word and LibreOffice draw a check box field as a square (it has no result text).
            else if (top.checkbox !== undefined && fieldName(top.instr) === "FORMCHECKBOX")
              pushVisible(rc, { type: "checkbox", checked: top.checkbox, style: top.style });
            rc.endingField = false;
          }
        }
        break;
      }
      case "instrText":
      case "delInstrText": {
        const top = story.fields[story.fields.length - 1];
        if (top && !top.inResult) top.instr += c.text();
        break;
      }
      case "pgNum":
        pushVisible(rc, { type: "field", field: "PAGE", format: "decimal", style: styleOf(), fallback: "" });
        break;
      case "footnoteReference":
      case "endnoteReference": {
        const kind = c.name === "footnoteReference" ? "footnote" : "endnote";
        const id = c.attr("id") ?? "";
        const custom = c.attr("customMarkFollows");
        let label = "";
        if (custom !== "1" && custom !== "true" && custom !== "on") {
          const numbering = ctx.noteNumbering[kind];
          // Numbers restarting on each page are given by layout; the start number stands in (its width).
          const n =
            kind === "footnote" && ctx.footnotesRestartEachPage
              ? numbering.start
              : numbering.start + ctx.noteCounters[kind]++;
          label = ctx.noteLabels.get(`${kind}:${id}`) ?? formatNumber(n, numbering.format);
        }
        ctx.noteLabels.set(`${kind}:${id}`, label);
        pushVisible(rc, { type: "noteRef", kind, id, label, style: styleOf() });
        break;
      }
      case "footnoteRef":
      case "endnoteRef": {
        if (!story.noteLabel) break;
        // A footnote's own number takes its character style only: LibreOffice ignores the run's
        // direct formatting there (measured: vertAlign baseline and 12 pt under FootnoteReference
        // still draw a superscript in the style's size).
        const style = c.name === "footnoteRef" ? markStyleOnly(r, rc) : styleOf();
        if (ctx.footnotesRestartEachPage && story.noteKey?.startsWith("footnote:")) {
          pushVisible(rc, {
            type: "noteRef",
            kind: "footnote",
            id: story.noteKey.slice(9),
            label: story.noteLabel,
            style,
            own: true,
          });
        } else pushText(rc, story.noteLabel, style);
        break;
      }
      case "drawing": {
        settleAnchorAlternates(c);
        for (const inline of readDrawing(c, ctx, story, styleOf(), (container, s) => readBlocks(container, ctx, s)))
          pushVisible(rc, inline);
        break;
      }
      case "pict":
      case "object": {
        const inline = readVml(c, ctx, story, styleOf(), (container, s) => readBlocks(container, ctx, s));
        if (inline) pushVisible(rc, inline);
        break;
      }
      case "AlternateContent": {
        const branch = chooseBranch(c);
        if (branch) readRun(branch, rc, run);
        break;
      }
      case "ruby": {
        const baseText = c.child("rubyBase");
        if (baseText) readInlines(baseText, rc);
        break;
      }
      default:
        break;
    }
  }
}
