/**
 * HTML → document model. parse5 builds the tree exactly as a browser would (implied `tbody`,
 * misnested tags, unclosed paragraphs); then a browser-like default stylesheet, the document's
 * `<style>` rules and `style` attributes are cascaded (src/convert/css.ts) and each element becomes
 * paragraphs, list items, tables or pictures of the model. Scripts, remote stylesheets, forms,
 * frames and media other than pictures are not read. What is supported is listed in docs/convert.md.
 */
import { parse, parseFragment, type DefaultTreeAdapterTypes as P } from "parse5";
import { LIMITS } from "../limits";
import {
  cascade,
  fontFamily,
  fontSizePt,
  lengthPt,
  parseColor,
  parseStylesheet,
  type CssRule,
  type Declarations,
  type StyledElement,
} from "./css";
import { ConvertLimitExceeded } from "./errors";
import type {
  Alignment,
  Block,
  BorderSpec,
  DocumentModel,
  Inline,
  ListRef,
  Marks,
  Paragraph,
  ParagraphProps,
  ParagraphStyle,
  Table,
  TableCell,
  TableRow,
} from "./model";
import { PAGE } from "./model";

/** What the DOCX writer's "browser" theme gives each paragraph style (the reader formats only differences). */
const HTML_BASE = { font: "Times New Roman", sizePt: 12 };
const HEADING_SCALE = [2, 1.5, 1.17, 1, 0.83, 0.67];

/** A browser's default stylesheet, reduced to what documents use. */
const USER_AGENT_CSS = `
p, dl, blockquote, figure, ul, ol, pre { margin: 1em 0 }
h1 { font-size: 2em; margin: .67em 0; font-weight: bold }
h2 { font-size: 1.5em; margin: .83em 0; font-weight: bold }
h3 { font-size: 1.17em; margin: 1em 0; font-weight: bold }
h4 { margin: 1.33em 0; font-weight: bold }
h5 { font-size: .83em; margin: 1.67em 0; font-weight: bold }
h6 { font-size: .67em; margin: 2.33em 0; font-weight: bold }
blockquote, figure { margin-left: 40px; margin-right: 40px }
ul ul, ul ol, ol ul, ol ol { margin: 0 }
dd { margin-left: 40px }
b, strong, th { font-weight: bold }
i, em, cite, var, dfn, address { font-style: italic }
u, ins { text-decoration: underline }
s, strike, del { text-decoration: line-through }
small { font-size: smaller }
big { font-size: larger }
th { text-align: center }
center { text-align: center }
mark { background-color: yellow }
hr { margin: .5em 0 }
td, th { padding: 1px }
caption { text-align: center }
`;
let userAgentRules: CssRule[] | undefined;

const SKIPPED = new Set([
  "head",
  "script",
  "style",
  "template",
  "noscript",
  "iframe",
  "object",
  "embed",
  "video",
  "audio",
  "canvas",
  "svg",
  "math",
  "select",
  "textarea",
  "button",
  "map",
  "title",
  "meta",
  "link",
  "base",
]);
const BLOCKS = new Set([
  "html",
  "body",
  "address",
  "article",
  "aside",
  "blockquote",
  "center",
  "dd",
  "details",
  "dialog",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hgroup",
  "hr",
  "li",
  "main",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "summary",
  "table",
  "ul",
  "legend",
]);
const CODE_TAGS = new Set(["code", "kbd", "samp", "tt"]);

/** Inherited formatting of an element, in absolute terms. */
interface Computed {
  fontPt: number;
  font: string;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  strike: boolean;
  color?: string;
  background?: string;
  code: boolean;
  superscript: boolean;
  subscript: boolean;
  align?: Alignment;
  pre: boolean;
  lineMultiple?: number;
}

interface Container {
  out: Block[];
  indentPt: number;
  rightIndentPt: number;
  quoteDepth: number;
  /** Open lists, innermost last. */
  lists: { listId: number; ordered: boolean; start: number; format: ListRef["format"]; count: number }[];
  /** The paragraph collecting inline content, and the element style it takes. */
  para: Paragraph | null;
  paraStyle: ParagraphStyle;
  /** The list item whose first paragraph is still to come. */
  itemLabel: boolean;
  pageBreakPending: boolean;
}

export interface HtmlReadResult extends DocumentModel {
  /** The body font and size (for the writer's theme). */
  base: { font: string; sizePt: number };
}

/** Numbers lists across the readers of one document (a Markdown file with HTML blocks). */
export interface ListIds {
  next: number;
}

export function htmlToModel(html: string): HtmlReadResult {
  const doc = parse(html);
  return new HtmlReader({ next: 1 }).read(doc);
}

/** A fragment (a Markdown HTML block) with the default styles. */
export function htmlFragmentToBlocks(html: string, ids: ListIds): Block[] {
  const frag = parseFragment(html);
  return new HtmlReader(ids).read(frag).blocks;
}

class HtmlReader {
  private rules: CssRule[] = [];
  private elements = 0;
  private paragraphs = 0;
  private title: string | undefined;
  private base = { ...HTML_BASE };

  constructor(private readonly ids: ListIds) {}

  read(root: P.Document | P.DocumentFragment): HtmlReadResult {
    userAgentRules ??= parseStylesheet(USER_AGENT_CSS);
    this.rules = [...userAgentRules];
    this.collectHead(root, 0);
    const body = findElement(root, "body");
    const html = findElement(root, "html");
    // The body's font and size become the document's defaults.
    const rootStyled = html ? this.styled(html, undefined) : undefined;
    const htmlDecls = html ? cascade(this.rules, rootStyled!, attr(html, "style")) : new Map();
    const bodyDecls = body ? cascade(this.rules, this.styled(body, rootStyled), attr(body, "style")) : new Map();
    const font = fontFamily(bodyDecls.get("font-family") ?? htmlDecls.get("font-family"));
    const size = fontSizePt(bodyDecls.get("font-size") ?? htmlDecls.get("font-size"), HTML_BASE.sizePt);
    if (font) this.base.font = font;
    if (size) this.base.sizePt = size;
    const computed: Computed = {
      fontPt: this.base.sizePt,
      font: this.base.font,
      bold: false,
      italic: false,
      underline: false,
      strike: false,
      code: false,
      superscript: false,
      subscript: false,
      pre: false,
    };
    const container = newContainer([]);
    if (body || html) this.element(body ?? html!, undefined, computed, container);
    else this.children(root, undefined, computed, container);
    this.flush(container);
    return { title: this.title, blocks: container.out, footnotes: [], base: this.base };
  }

  /** `<style>` rules and `<title>`, in document order, wherever they are. */
  private collectHead(node: P.ParentNode, depth: number): void {
    if (depth > LIMITS.convert.maxHtmlDepth) return;
    for (const child of node.childNodes) {
      if (!("tagName" in child)) continue;
      if (child.tagName === "style") {
        const media = attr(child, "media");
        if (!media || /\b(print|all)\b/i.test(media)) parseStylesheet(textContent(child), this.rules);
      } else if (child.tagName === "title" && this.title === undefined) {
        this.title = textContent(child).replace(/\s+/g, " ").trim() || undefined;
      } else if (child.tagName !== "script" && child.tagName !== "template") {
        this.collectHead(child, depth + 1);
      }
    }
  }

  private styled(el: P.Element, parent: StyledElement | undefined): StyledElement {
    return {
      tag: el.tagName,
      id: attr(el, "id"),
      classes: (attr(el, "class") ?? "").split(/\s+/).filter(Boolean),
      parent,
    };
  }

  private children(node: P.ParentNode, parent: StyledElement | undefined, cs: Computed, c: Container, depth = 0): void {
    for (const child of node.childNodes) {
      if (child.nodeName === "#text") this.text((child as P.TextNode).value, cs, c);
      else if ("tagName" in child) this.element(child, parent, cs, c, depth + 1);
    }
  }

  private element(el: P.Element, parent: StyledElement | undefined, parentCs: Computed, c: Container, depth = 0): void {
    const tag = el.tagName;
    if (SKIPPED.has(tag) || el.namespaceURI !== "http://www.w3.org/1999/xhtml") return;
    if (++this.elements > LIMITS.convert.maxHtmlElements)
      throw new ConvertLimitExceeded(`The HTML has more than ${LIMITS.convert.maxHtmlElements} elements.`);
    const styled = this.styled(el, parent);
    const d = cascade(this.rules, styled, attr(el, "style"));
    presentationalAttributes(el, d);
    if (d.get("display") === "none" || d.get("visibility") === "hidden" || attr(el, "hidden") !== undefined) return;
    const cs = computeStyle(parentCs, d, tag);
    if (depth > LIMITS.convert.maxHtmlDepth) {
      this.text(textContent(el), cs, c);
      return;
    }

    switch (tag) {
      case "br":
        this.inline(c, { kind: "break" }, cs);
        return;
      case "img": {
        const src = attr(el, "src");
        if (!src) return;
        const img: Inline = { kind: "image", src, alt: attr(el, "alt") ?? "" };
        const w = pxOf(d.get("width") ?? attr(el, "width"));
        const h = pxOf(d.get("height") ?? attr(el, "height"));
        if (w) img.widthPx = w;
        if (h) img.heightPx = h;
        this.inline(c, img, cs);
        return;
      }
      case "input":
        if ((attr(el, "type") ?? "").toLowerCase() === "checkbox")
          this.inline(
            c,
            { kind: "text", text: attr(el, "checked") !== undefined ? "\u2612" : "\u2610", marks: this.marks(cs, c) },
            cs,
          );
        return;
      case "a": {
        const href = attr(el, "href");
        if (!href) break;
        const link: Inline & { kind: "link" } = { kind: "link", href, children: [] };
        this.inline(c, link, cs);
        const para = c.para!;
        const saved = para.inlines;
        para.inlines = link.children;
        this.children(el, styled, cs, c, depth);
        // The link's text went into link.children; the paragraph gets its own inlines back (a block
        // inside the link has closed it, and what follows goes on in a new paragraph).
        para.inlines = saved;
        return;
      }
      case "table":
        this.flush(c);
        this.table(el, styled, cs, d, c, depth);
        return;
      case "hr":
        this.flush(c);
        c.out.push({
          kind: "paragraph",
          style: "Normal",
          inlines: [],
          props: {
            bottomRule: true,
            spaceBeforePt: lengthPt(d.get("margin-top"), cs.fontPt) ?? 6,
            spaceAfterPt: lengthPt(d.get("margin-bottom"), cs.fontPt) ?? 6,
            indentLeftPt: c.indentPt || undefined,
          },
        });
        return;
      default:
        break;
    }

    const display = d.get("display");
    const isBlock = display
      ? display === "block" || display === "list-item" || display === "flex" || display === "grid"
      : BLOCKS.has(tag);
    if (!isBlock) {
      this.children(el, styled, cs, c, depth);
      return;
    }
    this.block(el, styled, cs, d, c, depth);
  }

  /** A block element: its margins, padding and breaks around the paragraphs it produces. */
  private block(
    el: P.Element,
    styled: StyledElement,
    cs: Computed,
    d: Declarations,
    c: Container,
    depth: number,
  ): void {
    const tag = el.tagName;
    this.flush(c);
    const widthRef = PAGE.textWidthPt;
    const mt =
      (lengthPt(d.get("margin-top"), cs.fontPt, widthRef) ?? 0) +
      (lengthPt(d.get("padding-top"), cs.fontPt, widthRef) ?? 0);
    const mb =
      (lengthPt(d.get("margin-bottom"), cs.fontPt, widthRef) ?? 0) +
      (lengthPt(d.get("padding-bottom"), cs.fontPt, widthRef) ?? 0);
    let ml =
      (lengthPt(d.get("margin-left"), cs.fontPt, widthRef) ?? 0) +
      (lengthPt(d.get("padding-left"), cs.fontPt, widthRef) ?? 0);
    const mr =
      (lengthPt(d.get("margin-right"), cs.fontPt, widthRef) ?? 0) +
      (lengthPt(d.get("padding-right"), cs.fontPt, widthRef) ?? 0);
    const breakBefore = /^(always|page|left|right)$/.test(d.get("page-break-before") ?? d.get("break-before") ?? "");
    const breakAfter = /^(always|page|left|right)$/.test(d.get("page-break-after") ?? d.get("break-after") ?? "");

    const inner: Container = { ...c, para: null, paraStyle: c.paraStyle, itemLabel: false };
    if (breakBefore) inner.pageBreakPending = true;

    const listStyle = (d.get("list-style-type") ?? d.get("list-style") ?? "").toLowerCase();
    if (tag === "ul" || tag === "ol") {
      const format = listFormat(tag, listStyle, attr(el, "type"));
      if (format === "none") {
        inner.indentPt = c.indentPt + ml;
      } else {
        // The numbering definition indents the items; the list's own padding is that indent.
        inner.indentPt = c.indentPt + Math.max(0, ml - 30);
        inner.lists = [
          ...c.lists,
          {
            listId: this.ids.next++,
            ordered: tag === "ol",
            start: Number(attr(el, "start") ?? 1) || 1,
            format,
            count: 0,
          },
        ];
      }
      ml = 0;
    } else {
      inner.indentPt = c.indentPt + ml;
    }
    inner.rightIndentPt = c.rightIndentPt + mr;
    if (tag === "li") inner.itemLabel = c.lists.length > 0;
    if (tag === "blockquote") inner.quoteDepth = c.quoteDepth + 1;
    inner.paraStyle = blockStyle(tag, c.paraStyle);

    const first = c.out.length;
    inner.out = c.out;
    if (tag === "pre") this.preformatted(el, cs, inner);
    else this.children(el, styled, cs, inner, depth);
    this.flush(inner);
    c.pageBreakPending = inner.pageBreakPending;

    const made = c.out.slice(first);
    const firstBlock = made[0];
    const lastBlock = made[made.length - 1];
    if (firstBlock?.kind === "paragraph") {
      firstBlock.props ??= {};
      firstBlock.props.spaceBeforePt = Math.max(firstBlock.props.spaceBeforePt ?? 0, mt);
    }
    if (lastBlock?.kind === "paragraph") {
      lastBlock.props ??= {};
      lastBlock.props.spaceAfterPt = Math.max(lastBlock.props.spaceAfterPt ?? 0, mb);
    } else if (lastBlock?.kind === "table") {
      lastBlock.spaceAfterPt = Math.max(lastBlock.spaceAfterPt ?? 0, mb);
    }
    if (breakAfter) c.pageBreakPending = true;
    // A text-indent applies to the block's own paragraphs.
    const indent = lengthPt(d.get("text-indent"), cs.fontPt, widthRef);
    if (indent) for (const b of made) if (b.kind === "paragraph" && !b.list) (b.props ??= {}).firstLinePt = indent;
  }

  /** `<pre>`: one SourceCode paragraph per line, white space kept. */
  private preformatted(el: P.Element, cs: Computed, c: Container): void {
    const text = textContent(el)
      .replace(/^\r?\n/, "")
      .replace(/\r?\n$/, "");
    const lines = text.split(/\r?\n/);
    lines.forEach((line, k) => {
      const p = this.newParagraph(c, "SourceCode", cs);
      p.inlines = line
        ? [
            {
              kind: "text",
              text: line.replace(/\t/g, "    "),
              marks: this.marks({ ...cs, code: false, font: "Courier New" }, c, "SourceCode"),
            },
          ]
        : [];
      if (k < lines.length - 1) (p.props ??= {}).spaceAfterPt = 0;
      if (k > 0) (p.props ??= {}).spaceBeforePt = 0;
      c.para = null;
    });
  }

  private table(
    el: P.Element,
    styled: StyledElement,
    cs: Computed,
    d: Declarations,
    c: Container,
    depth: number,
  ): void {
    const rows: TableRow[] = [];
    const attrBorder = Number(attr(el, "border") ?? "0");
    const cellBorderDefault: BorderSpec | undefined =
      attrBorder > 0 ? { widthPt: 0.75, color: "808080", style: "single" } : undefined;
    const captions: Block[] = [];
    const visitRows = (
      node: P.ParentNode,
      parentStyled: StyledElement,
      rowCs: Computed,
      header: boolean,
      level: number,
    ) => {
      for (const child of node.childNodes) {
        if (!("tagName" in child)) continue;
        const childStyled = this.styled(child, parentStyled);
        const cd = cascade(this.rules, childStyled, attr(child, "style"));
        presentationalAttributes(child, cd);
        if (cd.get("display") === "none") continue;
        const ccs = computeStyle(rowCs, cd, child.tagName);
        if (child.tagName === "caption") {
          const inner = newContainer(captions, c);
          inner.paraStyle = "Caption";
          this.children(child, childStyled, ccs, inner, depth + level);
          this.flush(inner);
        } else if (child.tagName === "thead" || child.tagName === "tbody" || child.tagName === "tfoot") {
          visitRows(child, childStyled, ccs, child.tagName === "thead", level + 1);
        } else if (child.tagName === "tr") {
          const row: TableRow = { cells: [], header };
          const rowBg = parseColor(cd.get("background-color"));
          for (const cellEl of child.childNodes) {
            if (!("tagName" in cellEl) || (cellEl.tagName !== "td" && cellEl.tagName !== "th")) continue;
            if (++this.elements > LIMITS.convert.maxHtmlElements)
              throw new ConvertLimitExceeded(`The HTML has more than ${LIMITS.convert.maxHtmlElements} elements.`);
            const cellStyled = this.styled(cellEl, childStyled);
            const cellD = cascade(this.rules, cellStyled, attr(cellEl, "style"));
            presentationalAttributes(cellEl, cellD);
            const cellCs = computeStyle(ccs, cellD, cellEl.tagName);
            const blocks: Block[] = [];
            const inner = newContainer(blocks);
            this.children(cellEl, cellStyled, cellCs, inner, depth + level + 1);
            this.flush(inner);
            if (!blocks.length) blocks.push({ kind: "paragraph", style: "Normal", inlines: [] });
            for (const b of blocks)
              if (b.kind === "paragraph") {
                (b.props ??= {}).spaceAfterPt ??= 0;
                b.props.spaceBeforePt ??= 0;
              }
            const cell: TableCell = { blocks, header: cellEl.tagName === "th" || header };
            const colSpan = Number(attr(cellEl, "colspan") ?? 1);
            const rowSpan = Number(attr(cellEl, "rowspan") ?? 1);
            if (colSpan > 1) cell.colSpan = Math.min(colSpan, 63);
            if (rowSpan > 1) cell.rowSpanBelow = Math.min(rowSpan, 1000) - 1;
            const w = cellD.get("width");
            if (w && !w.endsWith("%")) cell.widthPt = lengthPt(w, cellCs.fontPt);
            else if (w) cell.widthPt = ((parseFloat(w) || 0) / 100) * PAGE.textWidthPt;
            cell.background = parseColor(cellD.get("background-color")) ?? rowBg;
            const va = cellD.get("vertical-align");
            if (va === "middle") cell.verticalAlign = "center";
            else if (va === "bottom") cell.verticalAlign = "bottom";
            const borders: TableCell["borders"] = {};
            for (const side of ["top", "bottom", "left", "right"] as const) {
              const b = parseBorder(cellD.get(`border-${side}`), cellCs.fontPt) ?? cellBorderDefault;
              if (b) borders[side] = b;
            }
            if (Object.keys(borders).length) cell.borders = borders;
            const pad = {
              l: lengthPt(cellD.get("padding-left"), cellCs.fontPt),
              r: lengthPt(cellD.get("padding-right"), cellCs.fontPt),
              t: lengthPt(cellD.get("padding-top"), cellCs.fontPt),
              b: lengthPt(cellD.get("padding-bottom"), cellCs.fontPt),
            };
            cell.padding = pad;
            row.cells.push(cell);
          }
          if (row.cells.length) rows.push(row);
        }
      }
    };
    visitRows(el, styled, cs, false, 0);
    if (!rows.length) return;
    c.out.push(...captions);
    const table: Table = { kind: "table", rows };
    const width = d.get("width") ?? attr(el, "width");
    if (width?.trim().endsWith("%")) table.widthShare = Math.min(1, (parseFloat(width) || 100) / 100);
    else if (width) {
      const pt = lengthPt(/^\d+$/.test(width) ? `${width}px` : width, cs.fontPt);
      if (pt) table.widthPt = Math.min(pt, PAGE.textWidthPt - c.indentPt);
    }
    const border = parseBorder(d.get("border-top"), cs.fontPt);
    table.borders =
      border ?? (attrBorder > 0 ? { widthPt: attrBorder * 0.75, color: "808080", style: "single" } : null);
    if (d.get("margin-left") === "auto" && d.get("margin-right") === "auto") table.align = "center";
    else if (attr(el, "align") === "center") table.align = "center";
    table.spaceAfterPt = lengthPt(d.get("margin-bottom"), cs.fontPt);
    table.indentPt = c.indentPt || undefined;
    if (c.pageBreakPending) {
      table.pageBreakBefore = true;
      c.pageBreakPending = false;
    }
    if (/^(always|page)$/.test(d.get("page-break-before") ?? d.get("break-before") ?? "")) table.pageBreakBefore = true;
    c.out.push(table);
    if (/^(always|page)$/.test(d.get("page-break-after") ?? d.get("break-after") ?? "")) c.pageBreakPending = true;
  }

  private text(value: string, cs: Computed, c: Container): void {
    if (!cs.pre) value = value.replace(/[ \t\r\n\f]+/g, " ");
    if (!value) return;
    if (!c.para && !value.trim()) return;
    this.inline(c, { kind: "text", text: value, marks: this.marks(cs, c) }, cs);
  }

  private inline(c: Container, inline: Inline, cs: Computed): void {
    if (!c.para) this.newParagraph(c, c.paraStyle, cs);
    c.para!.inlines.push(inline);
  }

  private newParagraph(c: Container, style: ParagraphStyle, cs: Computed): Paragraph {
    const p: Paragraph = { kind: "paragraph", style, inlines: [] };
    const props: ParagraphProps = {};
    if (cs.align && cs.align !== "left") props.align = cs.align;
    if (c.indentPt) props.indentLeftPt = c.indentPt;
    if (c.rightIndentPt) props.indentRightPt = c.rightIndentPt;
    if (cs.lineMultiple) props.lineMultiple = cs.lineMultiple;
    if (cs.background && style !== "SourceCode") props.background = cs.background;
    if (c.pageBreakPending) {
      props.pageBreakBefore = true;
      c.pageBreakPending = false;
    }
    const list = c.lists.at(-1);
    if (list) {
      p.list = {
        listId: list.listId,
        ordered: list.ordered,
        level: c.lists.length - 1,
        start: list.start,
        format: list.format,
        continuation: !c.itemLabel,
      };
      c.itemLabel = false;
      if (style === "Normal") p.style = "ListParagraph";
    }
    if (c.quoteDepth) p.quoteDepth = c.quoteDepth;
    if (Object.keys(props).length) p.props = props;
    c.para = p;
    c.out.push(p);
    if (++this.paragraphs > LIMITS.convert.maxBlocks)
      throw new ConvertLimitExceeded(`The document has more than ${LIMITS.convert.maxBlocks} paragraphs.`);
    return p;
  }

  /** Closes the paragraph being filled: white space at its ends goes, as a browser lays it out. */
  private flush(c: Container): void {
    const p = c.para;
    c.para = null;
    if (!p) return;
    trimInlines(p.inlines);
    if (!p.inlines.length) {
      const i = c.out.lastIndexOf(p);
      if (i >= 0 && !p.list) {
        c.out.splice(i, 1);
        if (p.props?.pageBreakBefore) c.pageBreakPending = true;
      }
    }
  }

  /** The character formatting that differs from what the paragraph's style already gives. */
  private marks(cs: Computed, c: Container, style: ParagraphStyle = c.paraStyle): Marks {
    const level = /^Heading(\d)$/.exec(style)?.[1];
    const styleSize = level
      ? this.base.sizePt * HEADING_SCALE[Number(level) - 1]!
      : style === "SourceCode"
        ? 10
        : this.base.sizePt;
    const styleBold = Boolean(level);
    const m: Marks = {};
    if (cs.bold !== styleBold) m.bold = cs.bold;
    if (cs.italic) m.italic = true;
    if (cs.underline) m.underline = true;
    if (cs.strike) m.strike = true;
    if (cs.code) m.code = true;
    if (cs.superscript) m.superscript = true;
    if (cs.subscript) m.subscript = true;
    if (cs.color && cs.color !== "000000") m.color = cs.color;
    if (cs.background && cs.background !== "FFFFFF") m.background = cs.background;
    const styleFont = style === "SourceCode" ? "Courier New" : this.base.font;
    if (!cs.code && cs.font !== styleFont) m.font = cs.font;
    if (Math.abs(cs.fontPt - styleSize) > 0.05 && !(cs.code && Math.abs(cs.fontPt - this.base.sizePt) < 0.05))
      m.sizePt = Math.round(cs.fontPt * 2) / 2;
    return m;
  }
}

function newContainer(out: Block[], from?: Container): Container {
  return {
    out,
    indentPt: 0,
    rightIndentPt: 0,
    quoteDepth: from?.quoteDepth ?? 0,
    lists: [],
    para: null,
    paraStyle: "Normal",
    itemLabel: false,
    pageBreakPending: false,
  };
}

function blockStyle(tag: string, inherited: ParagraphStyle): ParagraphStyle {
  const h = /^h([1-6])$/.exec(tag);
  if (h) return `Heading${h[1]}` as ParagraphStyle;
  if (tag === "blockquote") return "Quote";
  if (tag === "pre") return "SourceCode";
  if (tag === "figcaption") return "Caption";
  return inherited;
}

function listFormat(tag: string, style: string, typeAttr: string | undefined): NonNullable<ListRef["format"]> {
  if (style.includes("none")) return "none";
  if (/lower-(alpha|latin)/.test(style)) return "lowerLetter";
  if (/upper-(alpha|latin)/.test(style)) return "upperLetter";
  if (style.includes("lower-roman")) return "lowerRoman";
  if (style.includes("upper-roman")) return "upperRoman";
  if (style.includes("decimal")) return "decimal";
  if (/disc|circle|square/.test(style)) return "bullet";
  if (tag === "ol") {
    if (typeAttr === "a") return "lowerLetter";
    if (typeAttr === "A") return "upperLetter";
    if (typeAttr === "i") return "lowerRoman";
    if (typeAttr === "I") return "upperRoman";
    return "decimal";
  }
  return "bullet";
}

/** Inherited properties of an element from its parent and its declarations. */
function computeStyle(parent: Computed, d: Declarations, tag: string): Computed {
  const cs: Computed = { ...parent, background: undefined };
  const size = fontSizePt(d.get("font-size"), parent.fontPt);
  if (size) cs.fontPt = size;
  const font = fontFamily(d.get("font-family"));
  if (font) cs.font = font;
  const weight = d.get("font-weight");
  if (weight) cs.bold = weight === "bold" || weight === "bolder" || Number(weight) >= 600;
  const style = d.get("font-style");
  if (style) cs.italic = style === "italic" || style === "oblique";
  const deco = d.get("text-decoration") ?? d.get("text-decoration-line");
  if (deco) {
    if (deco.includes("underline")) cs.underline = true;
    if (deco.includes("line-through")) cs.strike = true;
    if (deco === "none") cs.underline = cs.strike = false;
  }
  const color = parseColor(d.get("color"));
  if (color) cs.color = color;
  const bg = parseColor(d.get("background-color"));
  if (bg) cs.background = bg;
  const align = d.get("text-align");
  if (align)
    cs.align =
      align === "center"
        ? "center"
        : align === "right" || align === "end"
          ? "right"
          : align === "justify"
            ? "both"
            : "left";
  const ws = d.get("white-space");
  if (ws) cs.pre = ws.startsWith("pre");
  if (tag === "pre") cs.pre = true;
  if (CODE_TAGS.has(tag)) cs.code = true;
  if (tag === "sup" || d.get("vertical-align") === "super") cs.superscript = true;
  if (tag === "sub" || d.get("vertical-align") === "sub") cs.subscript = true;
  const lh = d.get("line-height");
  if (lh) {
    const n = /^[\d.]+$/.test(lh) ? parseFloat(lh) : (lengthPt(lh, cs.fontPt) ?? 0) / cs.fontPt;
    if (n > 0.5 && n < 5) cs.lineMultiple = n / 1.15;
    if (lh === "normal") cs.lineMultiple = undefined;
  }
  return cs;
}

/** HTML's presentational attributes (align, bgcolor, width, font's face/color/size) as declarations beneath the CSS. */
function presentationalAttributes(el: P.Element, d: Declarations): void {
  const set = (k: string, v: string | undefined) => {
    if (v !== undefined && !d.has(k)) d.set(k, v);
  };
  const align = attr(el, "align");
  if (align && el.tagName !== "table" && el.tagName !== "img") set("text-align", align.toLowerCase());
  set("background-color", attr(el, "bgcolor"));
  const valign = attr(el, "valign");
  if (valign) set("vertical-align", valign.toLowerCase());
  const width = attr(el, "width");
  if (width && (el.tagName === "td" || el.tagName === "th")) set("width", /^\d+$/.test(width) ? `${width}px` : width);
  if (el.tagName === "font") {
    const face = attr(el, "face");
    if (face) set("font-family", face);
    set("color", attr(el, "color"));
    const size = Number(attr(el, "size"));
    if (size >= 1 && size <= 7)
      set("font-size", ["x-small", "small", "medium", "large", "x-large", "xx-large", "xxx-large"][size - 1]!);
  }
}

function parseBorder(value: string | undefined, fontPt: number): BorderSpec | undefined {
  if (!value) return undefined;
  const parts = value.toLowerCase().split(/\s+(?![^(]*\))/);
  if (parts.includes("none") || parts.includes("hidden") || parts[0] === "0")
    return { widthPt: 0, color: "000000", style: "single" };
  let widthPt = 0.75;
  let color = "000000";
  let style: BorderSpec["style"] = "single";
  let sawStyle = false;
  for (const p of parts) {
    const w = p === "thin" ? 0.75 : p === "medium" ? 2.25 : p === "thick" ? 3.75 : lengthPt(p, fontPt);
    if (w !== undefined) widthPt = w;
    else if (/^(solid|double|dashed|dotted|groove|ridge|inset|outset)$/.test(p)) {
      sawStyle = true;
      style = p === "double" ? "double" : p === "dashed" ? "dashed" : p === "dotted" ? "dotted" : "single";
    } else color = parseColor(p) ?? color;
  }
  // `border: 1px #000` without a style draws nothing in a browser.
  return sawStyle ? { widthPt, color, style } : { widthPt: 0, color, style };
}

function pxOf(v: string | undefined): number | undefined {
  if (!v) return undefined;
  const m = /^([\d.]+)(px)?$/.exec(v.trim());
  if (!m) return undefined;
  const n = parseFloat(m[1]!);
  return n > 0 && n < 20_000 ? n : undefined;
}

function attr(el: P.Element, name: string): string | undefined {
  return el.attrs.find((a) => a.name === name)?.value;
}

function findElement(node: P.ParentNode, tag: string, depth = 0): P.Element | undefined {
  if (depth > 4) return undefined;
  for (const child of node.childNodes) {
    if (!("tagName" in child)) continue;
    if (child.tagName === tag) return child;
    const found = findElement(child, tag, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The text below a node, in document order, however deep (an explicit stack, not recursion). */
function textContent(node: P.ParentNode): string {
  let s = "";
  const stack: P.ChildNode[] = [...node.childNodes].reverse();
  for (let n = stack.pop(); n; n = stack.pop()) {
    if (n.nodeName === "#text") s += (n as P.TextNode).value;
    else if ("tagName" in n) {
      if (n.tagName === "br") s += "\n";
      else for (let k = n.childNodes.length - 1; k >= 0; k--) stack.push(n.childNodes[k]!);
    }
  }
  return s;
}

/** Collapses the spaces where two text pieces meet and drops those at the ends (a browser's white-space: normal). */
function trimInlines(inlines: Inline[]): void {
  const texts: (Inline & { kind: "text" })[] = [];
  const walk = (list: Inline[]) => {
    for (const i of list) {
      if (i.kind === "text") texts.push(i);
      else if (i.kind === "link") walk(i.children);
      else if (i.kind === "break") texts.push({ kind: "text", text: "\n", marks: {} });
    }
  };
  walk(inlines);
  let prevSpace = true;
  for (const t of texts) {
    if (t.text === "\n") {
      prevSpace = true;
      continue;
    }
    if (prevSpace && t.text.startsWith(" ") && !t.marks.code) t.text = t.text.replace(/^ +/, "");
    if (t.text) prevSpace = t.text.endsWith(" ");
  }
  // Trailing spaces at the end and before a line break.
  for (let k = texts.length - 1, atEnd = true; k >= 0; k--) {
    const t = texts[k]!;
    if (t.text === "\n") {
      atEnd = true;
      continue;
    }
    if (atEnd) t.text = t.text.replace(/ +$/, "");
    if (t.text) atEnd = false;
  }
  const prune = (list: Inline[]) => {
    for (let k = list.length - 1; k >= 0; k--) {
      const i = list[k]!;
      if (i.kind === "text" && !i.text) list.splice(k, 1);
      else if (i.kind === "link") prune(i.children);
    }
  };
  prune(inlines);
}
