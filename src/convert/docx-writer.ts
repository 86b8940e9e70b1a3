/**
 * Document model → DOCX: one WordprocessingML writer for every source. Paragraphs take Word's
 * built-in styles (Title, Heading 1-6, List Paragraph with real numbering definitions, Quote,
 * Caption) plus Source Code / Verbatim Char for code, Hyperlink, Footnote Text/Reference and the
 * Table Grid table style, so the file opens and edits as a Word user expects. The output is
 * deterministic: no clock times, no random ids.
 */
import {
  IMAGE_CONTENT_TYPES,
  IMAGE_EXTENSIONS,
  inlineDrawingXml,
  pictureExtent,
  TRANSITIONAL_DRAWING,
  type ImageInfo,
} from "../docx/images";
import { dropForbiddenChars, escapeAttr, escapeText } from "../docx/xml";
import { makeEntry, writeZip } from "../docx/zip";
import { concatBytes } from "../util/bytes";
import {
  PAGE,
  type Block,
  type BorderSpec,
  type DocumentModel,
  type Inline,
  type ListRef,
  type Marks,
  type Paragraph,
  type ParagraphStyle,
  type Table,
} from "./model";

export const DOCX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** The look of the paragraph styles: Word's (Markdown) or a browser's defaults (HTML). */
export interface DocxTheme {
  kind: "word" | "browser";
  font: string;
  sizePt: number;
  /** Space after a Normal paragraph. */
  afterPt: number;
  /** Line spacing as a multiple of single. */
  line: number;
}

export const WORD_THEME: DocxTheme = { kind: "word", font: "Calibri", sizePt: 11, afterPt: 8, line: 1.08 };
export const browserTheme = (font: string, sizePt: number): DocxTheme => ({
  kind: "browser",
  font,
  sizePt,
  afterPt: 0,
  line: 1,
});

/** A picture ready to embed, by the `src` the model names; a src missing here is shown as its alt text. */
export interface EmbeddableImage {
  bytes: Uint8Array;
  info: ImageInfo;
}

const W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const twips = (pt: number) => Math.round(pt * 20);
const halfPoints = (pt: number) => Math.max(2, Math.round(pt * 2));
const LIST_INDENT_TWIPS = 720;
const HANGING_TWIPS = 360;
const TEXT_WIDTH_TWIPS = twips(PAGE.textWidthPt);

export function writeDocx(
  model: DocumentModel,
  theme: DocxTheme,
  images: ReadonlyMap<string, EmbeddableImage>,
): Uint8Array {
  const w = new DocumentWriter(theme, images);
  const body = w.blocks(model.blocks);
  const footnotes = model.footnotes.map((f) => ({ id: w.footnoteNumber(f.id), xml: w.footnoteBody(f.blocks) }));
  const sect =
    `<w:sectPr>${footnotes.length ? '<w:footnotePr><w:numFmt w:val="decimal"/></w:footnotePr>' : ""}` +
    `<w:pgSz w:w="${twips(PAGE.widthPt)}" w:h="${twips(PAGE.heightPt)}"/>` +
    `<w:pgMar w:top="${twips(PAGE.marginPt)}" w:right="${twips(PAGE.marginPt)}" w:bottom="${twips(PAGE.marginPt)}" w:left="${twips(PAGE.marginPt)}" w:header="720" w:footer="720" w:gutter="0"/>` +
    `<w:cols w:space="720"/></w:sectPr>`;
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="${W_NS}" xmlns:r="${R_NS}"><w:body>${body || "<w:p/>"}${sect}</w:body></w:document>`;

  const rels: string[] = [
    rel("rIdStyles", `${REL}/styles`, "styles.xml"),
    rel("rIdSettings", `${REL}/settings`, "settings.xml"),
  ];
  const overrides = [
    ["/word/document.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"],
    ["/word/styles.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"],
    ["/word/settings.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml"],
    ["/docProps/core.xml", "application/vnd.openxmlformats-package.core-properties+xml"],
  ];
  const parts: [string, string | Uint8Array][] = [];
  const numbering = w.numberingXml();
  if (numbering) {
    rels.push(rel("rIdNumbering", `${REL}/numbering`, "numbering.xml"));
    overrides.push([
      "/word/numbering.xml",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml",
    ]);
    parts.push(["word/numbering.xml", numbering]);
  }
  if (footnotes.length) {
    rels.push(rel("rIdFootnotes", `${REL}/footnotes`, "footnotes.xml"));
    overrides.push([
      "/word/footnotes.xml",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml",
    ]);
    parts.push(["word/footnotes.xml", footnotesXml(footnotes)]);
  }
  rels.push(...w.relationships);
  const mediaTypes = new Set(w.media.map((m) => m.ext));
  const contentTypes =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
    [...mediaTypes]
      .map(
        (ext) =>
          `<Default Extension="${ext}" ContentType="${ext === "png" ? IMAGE_CONTENT_TYPES.png : ext === "gif" ? IMAGE_CONTENT_TYPES.gif : IMAGE_CONTENT_TYPES.jpeg}"/>`,
      )
      .join("") +
    overrides.map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`).join("") +
    `</Types>`;

  const entries = [
    makeEntry("[Content_Types].xml", utf8(contentTypes)),
    makeEntry(
      "_rels/.rels",
      utf8(
        relsXml([
          rel("rId1", `${REL}/officeDocument`, "word/document.xml"),
          rel(
            "rId2",
            "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties",
            "docProps/core.xml",
          ),
        ]),
      ),
    ),
    makeEntry("docProps/core.xml", utf8(coreXml(model.title))),
    makeEntry("word/document.xml", utf8(document)),
    makeEntry("word/_rels/document.xml.rels", utf8(relsXml(rels))),
    makeEntry("word/styles.xml", utf8(stylesXml(theme))),
    makeEntry("word/settings.xml", utf8(settingsXml(footnotes.length > 0))),
    ...parts.map(([name, text]) => makeEntry(name, typeof text === "string" ? utf8(text) : text)),
    ...w.media.map((m) => makeEntry(`word/media/${m.name}`, m.bytes, { store: true })),
  ];
  return concatBytes(writeZip(entries).segments);
}

const encoder = new TextEncoder();
const utf8 = (s: string) => encoder.encode(s);
const rel = (id: string, type: string, target: string, external = false) =>
  `<Relationship Id="${id}" Type="${type}" Target="${escapeAttr(target)}"${external ? ' TargetMode="External"' : ""}/>`;
const relsXml = (rels: string[]) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join("")}</Relationships>`;

class DocumentWriter {
  readonly relationships: string[] = [];
  readonly media: { name: string; ext: string; bytes: Uint8Array }[] = [];
  private readonly linkRels = new Map<string, string>();
  private readonly imageRels = new Map<string, string>();
  private readonly lists = new Map<
    number,
    { ordered: boolean; start: number; format: NonNullable<ListRef["format"]>; numId: number }
  >();
  private readonly footnoteIds = new Map<string, number>();
  private docPrId = 0;

  constructor(
    private readonly theme: DocxTheme,
    private readonly images: ReadonlyMap<string, EmbeddableImage>,
  ) {}

  footnoteNumber(id: string): number {
    let n = this.footnoteIds.get(id);
    if (n === undefined) {
      n = this.footnoteIds.size + 1;
      this.footnoteIds.set(id, n);
    }
    return n;
  }

  blocks(blocks: readonly Block[]): string {
    let out = "";
    let pendingBreak = false;
    // The space a table keeps below it goes to the paragraph after it (a spacer paragraph only
    // where two tables meet or the table ends the text, so Word does not join them).
    let spaceAfterTable: number | undefined;
    blocks.forEach((b, k) => {
      if (b.kind === "pageBreak") {
        pendingBreak = true;
        return;
      }
      if (b.kind === "table") {
        if (pendingBreak) out += `<w:p><w:r><w:br w:type="page"/></w:r></w:p>`;
        out += this.table(b);
        spaceAfterTable = b.spaceAfterPt ?? (this.theme.kind === "word" ? this.theme.afterPt : 0);
        const next = blocks.slice(k + 1).find((n) => n.kind !== "pageBreak");
        if (!next || next.kind === "table") {
          out += `<w:p><w:pPr><w:spacing w:before="0" w:after="${twips(spaceAfterTable)}" w:line="240" w:lineRule="auto"/><w:rPr><w:sz w:val="2"/></w:rPr></w:pPr></w:p>`;
          spaceAfterTable = undefined;
        }
      } else {
        const p =
          spaceAfterTable === undefined
            ? b
            : { ...b, props: { ...b.props, spaceBeforePt: Math.max(b.props?.spaceBeforePt ?? 0, spaceAfterTable) } };
        out += this.paragraph(p, pendingBreak);
        spaceAfterTable = undefined;
      }
      pendingBreak = false;
    });
    return out;
  }

  /** A note's paragraphs in Footnote Text, the first starting with the note's number. */
  footnoteBody(blocks: readonly Block[]): string {
    const ref = `<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> </w:t></w:r>`;
    let out = "";
    let first = true;
    for (const b of blocks) {
      if (b.kind !== "paragraph") {
        out += this.blocks([b]);
        continue;
      }
      const p = this.paragraph(b, false, "FootnoteText");
      out += first ? p.replace("</w:pPr>", `</w:pPr>${ref}`) : p;
      first = false;
    }
    return first ? `<w:p><w:pPr><w:pStyle w:val="FootnoteText"/></w:pPr>${ref}</w:p>${out}` : out;
  }

  private paragraph(p: Paragraph, pageBreak: boolean, styleOverride?: string): string {
    const props = p.props ?? {};
    const style = styleOverride ?? styleIdOf(p.style);
    let ppr = style !== "Normal" ? `<w:pStyle w:val="${style}"/>` : "";
    if (props.keepNext) ppr += "<w:keepNext/>";
    if (props.pageBreakBefore || pageBreak) ppr += "<w:pageBreakBefore/>";
    let indentLeft = props.indentLeftPt !== undefined ? twips(props.indentLeftPt) : 0;
    let hanging = 0;
    let numbered = false;
    if (p.list) {
      const list = this.listOf(p.list);
      if (p.list.continuation || list.format === "none") indentLeft += LIST_INDENT_TWIPS * (p.list.level + 1);
      else {
        ppr += `<w:numPr><w:ilvl w:val="${Math.min(8, p.list.level)}"/><w:numId w:val="${list.numId}"/></w:numPr>`;
        numbered = true;
        indentLeft += LIST_INDENT_TWIPS * (Math.min(8, p.list.level) + 1);
        hanging = HANGING_TWIPS;
      }
    }
    if (p.quoteDepth) indentLeft += twips(this.theme.kind === "word" ? 12 : 0) * p.quoteDepth;
    if (props.bottomRule) ppr += `<w:pBdr><w:bottom w:val="single" w:sz="6" w:space="1" w:color="A0A0A0"/></w:pBdr>`;
    if (props.background) ppr += `<w:shd w:val="clear" w:color="auto" w:fill="${props.background}"/>`;
    const spacing: string[] = [];
    if (props.spaceBeforePt !== undefined) spacing.push(`w:before="${twips(props.spaceBeforePt)}"`);
    if (props.spaceAfterPt !== undefined) spacing.push(`w:after="${twips(props.spaceAfterPt)}"`);
    if (props.lineMultiple !== undefined)
      spacing.push(`w:line="${Math.round(props.lineMultiple * this.theme.line * 240)}" w:lineRule="auto"`);
    if (spacing.length) ppr += `<w:spacing ${spacing.join(" ")}/>`;
    const ind: string[] = [];
    if (indentLeft || numbered || props.indentLeftPt !== undefined) ind.push(`w:left="${indentLeft}"`);
    if (props.indentRightPt) ind.push(`w:right="${twips(props.indentRightPt)}"`);
    if (hanging) ind.push(`w:hanging="${hanging}"`);
    else if (props.firstLinePt)
      ind.push(
        props.firstLinePt < 0
          ? `w:hanging="${twips(-props.firstLinePt)}"`
          : `w:firstLine="${twips(props.firstLinePt)}"`,
      );
    if (ind.length) ppr += `<w:ind ${ind.join(" ")}/>`;
    if (props.align && props.align !== "left") ppr += `<w:jc w:val="${props.align}"/>`;
    // A line of code alone (a list of identifiers) is as tall as the code font: the paragraph mark
    // takes that font too, so renderers that size lines by the mark agree with those that do not.
    if (allCode(p.inlines)) ppr += `<w:rPr><w:rStyle w:val="VerbatimChar"/></w:rPr>`;
    return `<w:p>${ppr ? `<w:pPr>${ppr}</w:pPr>` : ""}${this.inlines(p.inlines, props.marks ?? {})}</w:p>`;
  }

  private inlines(inlines: readonly Inline[], base: Marks, linkStyle = false): string {
    let out = "";
    for (const i of inlines) {
      switch (i.kind) {
        case "text": {
          const text = dropForbiddenChars(i.text);
          if (text) out += `<w:r>${runProps({ ...base, ...i.marks }, linkStyle)}${textXml(text)}</w:r>`;
          break;
        }
        case "break":
          out += "<w:r><w:br/></w:r>";
          break;
        case "tab":
          out += "<w:r><w:tab/></w:r>";
          break;
        case "link": {
          const inner = this.inlines(i.children, base, true);
          if (!inner) break;
          if (i.href.startsWith("#") && i.href.length > 1)
            out += `<w:hyperlink w:anchor="${escapeAttr(bookmarkName(i.href.slice(1)))}">${inner}</w:hyperlink>`;
          else if (/^(https?|mailto|ftp):/i.test(i.href))
            out += `<w:hyperlink r:id="${this.linkRel(i.href)}">${inner}</w:hyperlink>`;
          else out += inner;
          break;
        }
        case "image":
          out += this.image(i, base);
          break;
        case "footnote":
          out += `<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:id="${this.footnoteNumber(i.id)}"/></w:r>`;
          break;
      }
    }
    return out;
  }

  private image(i: Inline & { kind: "image" }, base: Marks): string {
    const img = this.images.get(i.src);
    if (!img) return i.alt ? `<w:r>${runProps({ ...base, italic: true }, false)}${textXml(`[${i.alt}]`)}</w:r>` : "";
    let relId = this.imageRels.get(i.src);
    if (!relId) {
      const ext = IMAGE_EXTENSIONS[img.info.type];
      const name = `image${this.media.length + 1}.${ext}`;
      this.media.push({ name, ext, bytes: img.bytes });
      relId = `rIdImage${this.media.length}`;
      this.relationships.push(rel(relId, `${REL}/image`, `media/${name}`));
      this.imageRels.set(i.src, relId);
    }
    const extent = pictureExtent(img.info, {
      width: i.widthPx,
      height: i.heightPx,
      maxWidthEmu: TEXT_WIDTH_TWIPS * 635,
    });
    // A picture wider than the text (given width) is scaled down to it, keeping its ratio.
    const maxCx = TEXT_WIDTH_TWIPS * 635;
    if (extent.cx > maxCx) {
      extent.cy = Math.max(1, Math.round((extent.cy * maxCx) / extent.cx));
      extent.cx = maxCx;
    }
    const drawing = inlineDrawingXml((l) => `w:${l}`, {
      relId,
      extent,
      docPrId: ++this.docPrId,
      name: `Picture ${this.docPrId}`,
      description: i.alt || undefined,
      ns: TRANSITIONAL_DRAWING,
    });
    return `<w:r>${drawing}</w:r>`;
  }

  private linkRel(href: string): string {
    let id = this.linkRels.get(href);
    if (!id) {
      id = `rIdLink${this.linkRels.size + 1}`;
      this.linkRels.set(href, id);
      // A Target must be a URI: spaces and other characters outside it are percent-encoded.
      this.relationships.push(rel(id, `${REL}/hyperlink`, encodeURI(safeDecodeURI(href)), true));
    }
    return id;
  }

  private listOf(ref: ListRef) {
    let list = this.lists.get(ref.listId);
    if (!list) {
      list = {
        ordered: ref.ordered,
        start: ref.start,
        format: ref.format ?? (ref.ordered ? "decimal" : "bullet"),
        numId: this.lists.size + 1,
      };
      this.lists.set(ref.listId, list);
    }
    return list;
  }

  /** One abstract numbering per list (so each list counts from its own start), nine levels each. */
  numberingXml(): string | null {
    if (!this.lists.size) return null;
    let abstracts = "";
    let nums = "";
    for (const list of this.lists.values()) {
      let levels = "";
      for (let lvl = 0; lvl < 9; lvl++) {
        const left = LIST_INDENT_TWIPS * (lvl + 1);
        const pPr = `<w:pPr><w:ind w:left="${left}" w:hanging="${HANGING_TWIPS}"/></w:pPr>`;
        if (list.format === "bullet" || list.format === "none") {
          const [ch, font] = BULLETS[lvl % 3]!;
          const rPr = font ? `<w:rPr><w:rFonts w:ascii="${font}" w:hAnsi="${font}" w:hint="default"/></w:rPr>` : "";
          levels += `<w:lvl w:ilvl="${lvl}"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="${ch}"/><w:lvlJc w:val="left"/>${pPr}${rPr}</w:lvl>`;
        } else {
          levels += `<w:lvl w:ilvl="${lvl}"><w:start w:val="${lvl === 0 ? list.start : 1}"/><w:numFmt w:val="${list.format}"/><w:lvlText w:val="%${lvl + 1}."/><w:lvlJc w:val="left"/>${pPr}</w:lvl>`;
        }
      }
      abstracts += `<w:abstractNum w:abstractNumId="${list.numId}"><w:multiLevelType w:val="hybridMultilevel"/>${levels}</w:abstractNum>`;
      nums += `<w:num w:numId="${list.numId}"><w:abstractNumId w:val="${list.numId}"/></w:num>`;
    }
    return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:numbering xmlns:w="${W_NS}">${abstracts}${nums}</w:numbering>`;
  }

  private table(t: Table): string {
    const grid = columnWidths(t, this.theme);
    const cols = grid.length;
    const borders = t.borders === undefined ? null : t.borders;
    let tblPr = `<w:tblStyle w:val="${this.theme.kind === "word" ? "TableGrid" : "TableNormal"}"/><w:tblW w:w="${grid.reduce((a, b) => a + b, 0)}" w:type="dxa"/>`;
    if (t.align === "center") tblPr += `<w:jc w:val="center"/>`;
    if (t.indentPt) tblPr += `<w:tblInd w:w="${twips(t.indentPt)}" w:type="dxa"/>`;
    if (borders)
      tblPr += `<w:tblBorders>${["top", "left", "bottom", "right"].map((s) => borderXml(s, borders)).join("")}</w:tblBorders>`;
    tblPr += `<w:tblLayout w:type="fixed"/>`;
    if (this.theme.kind === "browser")
      tblPr += `<w:tblCellMar><w:left w:w="15" w:type="dxa"/><w:right w:w="15" w:type="dxa"/></w:tblCellMar>`;
    tblPr += `<w:tblLook w:val="04A0" w:firstRow="1" w:lastRow="0" w:firstColumn="1" w:lastColumn="0" w:noHBand="0" w:noVBand="1"/>`;
    let rows = "";
    // Columns still covered by a rowspan from above: column → rows left.
    const covered = new Map<number, { left: number; cell: Table["rows"][number]["cells"][number]; span: number }>();
    for (const row of t.rows) {
      let cells = "";
      let col = 0;
      const place = (cellXml: string, span: number) => {
        cells += cellXml;
        col += span;
      };
      const fillCovered = () => {
        for (let c = covered.get(col); c; c = covered.get(col)) {
          place(this.cell(c.cell, grid, col, c.span, "continue"), c.span);
          c.left--;
          if (!c.left) covered.delete(col - c.span);
        }
      };
      for (const cell of row.cells) {
        fillCovered();
        if (col >= cols) break;
        const span = Math.min(cell.colSpan ?? 1, cols - col);
        if (cell.rowSpanBelow) covered.set(col, { left: cell.rowSpanBelow, cell, span });
        place(this.cell(cell, grid, col, span, cell.rowSpanBelow ? "restart" : undefined), span);
      }
      fillCovered();
      if (col < cols)
        cells += `<w:tc><w:tcPr><w:tcW w:w="${grid.slice(col).reduce((a, b) => a + b, 0)}" w:type="dxa"/>${cols - col > 1 ? `<w:gridSpan w:val="${cols - col}"/>` : ""}</w:tcPr><w:p/></w:tc>`;
      rows += `<w:tr>${row.header ? "<w:trPr><w:tblHeader/></w:trPr>" : ""}${cells}</w:tr>`;
    }
    const before = t.pageBreakBefore ? `<w:p><w:r><w:br w:type="page"/></w:r></w:p>` : "";
    return `${before}<w:tbl><w:tblPr>${tblPr}</w:tblPr><w:tblGrid>${grid.map((g) => `<w:gridCol w:w="${g}"/>`).join("")}</w:tblGrid>${rows}</w:tbl>`;
  }

  private cell(
    cell: Table["rows"][number]["cells"][number],
    grid: number[],
    col: number,
    span: number,
    vMerge?: "restart" | "continue",
  ): string {
    const width = grid.slice(col, col + span).reduce((a, b) => a + b, 0);
    let tcPr = `<w:tcW w:w="${width}" w:type="dxa"/>`;
    if (span > 1) tcPr += `<w:gridSpan w:val="${span}"/>`;
    if (vMerge) tcPr += vMerge === "restart" ? `<w:vMerge w:val="restart"/>` : `<w:vMerge/>`;
    if (cell.borders)
      tcPr += `<w:tcBorders>${(["top", "left", "bottom", "right"] as const).map((s) => (cell.borders![s] ? borderXml(s, cell.borders![s]!) : "")).join("")}</w:tcBorders>`;
    if (cell.background) tcPr += `<w:shd w:val="clear" w:color="auto" w:fill="${cell.background}"/>`;
    const pad = cell.padding;
    if (pad && Object.values(pad).some((v) => v !== undefined)) {
      tcPr += `<w:tcMar>${(["top", "left", "bottom", "right"] as const)
        .map((s) => {
          const v = pad[s[0] as "t" | "l" | "b" | "r"];
          return v !== undefined ? `<w:${s} w:w="${twips(v)}" w:type="dxa"/>` : "";
        })
        .join("")}</w:tcMar>`;
    }
    if (cell.verticalAlign && cell.verticalAlign !== "top") tcPr += `<w:vAlign w:val="${cell.verticalAlign}"/>`;
    if (vMerge === "continue") return `<w:tc><w:tcPr>${tcPr}</w:tcPr><w:p/></w:tc>`;
    const blocks = cell.blocks.map((b) =>
      b.kind === "paragraph" && cell.align && !b.props?.align ? { ...b, props: { ...b.props, align: cell.align } } : b,
    );
    let inner = this.blocks(blocks);
    // A cell must end with a paragraph.
    if (!inner.endsWith("</w:p>") && !inner.endsWith("<w:p/>")) inner += "<w:p/>";
    return `<w:tc><w:tcPr>${tcPr}</w:tcPr>${inner}</w:tc>`;
  }
}

function safeDecodeURI(s: string): string {
  try {
    return decodeURI(s);
  } catch {
    return s;
  }
}

function allCode(inlines: readonly Inline[]): boolean {
  let code = 0;
  for (const i of inlines) {
    if (i.kind === "text") {
      if (!i.marks.code) return false;
      code++;
    } else if (i.kind !== "break" && i.kind !== "tab") return false;
  }
  return code > 0;
}

/** Bullets by level as Unicode characters in ordinary fonts (Word's Symbol/Wingdings bullets are private-use code points). */
const BULLETS: [string, string | null][] = [
  ["\u2022", null],
  ["o", "Courier New"],
  ["\u25AA", null],
];

/** Word's built-in style ids (the English names, as Word writes them). */
function styleIdOf(style: ParagraphStyle): string {
  return style;
}

function bookmarkName(anchor: string): string {
  return anchor.replace(/[^\w]/g, "_").slice(0, 40);
}

function textXml(text: string): string {
  let out = "";
  const parts = text.split(/(\t|\n)/);
  for (const part of parts) {
    if (part === "\t") out += "<w:tab/>";
    else if (part === "\n") out += "<w:br/>";
    else if (part) out += `<w:t xml:space="preserve">${escapeText(part)}</w:t>`;
  }
  return out;
}

function runProps(m: Marks, link: boolean): string {
  let r = "";
  if (m.code) r += `<w:rStyle w:val="VerbatimChar"/>`;
  else if (link) r += `<w:rStyle w:val="Hyperlink"/>`;
  if (m.font)
    r += `<w:rFonts w:ascii="${escapeAttr(m.font)}" w:hAnsi="${escapeAttr(m.font)}" w:cs="${escapeAttr(m.font)}"/>`;
  if (m.bold !== undefined) r += m.bold ? "<w:b/><w:bCs/>" : `<w:b w:val="0"/><w:bCs w:val="0"/>`;
  if (m.italic) r += "<w:i/><w:iCs/>";
  if (m.strike) r += "<w:strike/>";
  if (m.color) r += `<w:color w:val="${m.color}"/>`;
  if (m.sizePt) r += `<w:sz w:val="${halfPoints(m.sizePt)}"/><w:szCs w:val="${halfPoints(m.sizePt)}"/>`;
  if (m.underline) r += `<w:u w:val="single"/>`;
  if (m.background) r += `<w:shd w:val="clear" w:color="auto" w:fill="${m.background}"/>`;
  if (m.superscript) r += `<w:vertAlign w:val="superscript"/>`;
  else if (m.subscript) r += `<w:vertAlign w:val="subscript"/>`;
  return r ? `<w:rPr>${r}</w:rPr>` : "";
}

function borderXml(side: string, b: BorderSpec): string {
  if (b.widthPt <= 0) return `<w:${side} w:val="nil"/>`;
  const val =
    b.style === "double" ? "double" : b.style === "dashed" ? "dashed" : b.style === "dotted" ? "dotted" : "single";
  // Eighths of a point, 2-96.
  return `<w:${side} w:val="${val}" w:sz="${Math.min(96, Math.max(2, Math.round(b.widthPt * 8)))}" w:space="0" w:color="${b.color}"/>`;
}

/**
 * Column widths in twips, as a browser's table layout roughly gives them: given widths are kept;
 * every other column gets at least its longest word (plus the cell's padding) and shares what is
 * left by the length of its longest text. Everything is scaled to the table's width.
 */
function columnWidths(t: Table, theme: DocxTheme): number[] {
  const cols = Math.max(1, ...t.rows.map((r) => r.cells.reduce((n, c) => n + (c.colSpan ?? 1), 0)));
  const available = TEXT_WIDTH_TWIPS - twips(t.indentPt ?? 0);
  const total =
    t.widthPt !== undefined
      ? Math.min(twips(t.widthPt), available)
      : t.widthShare !== undefined
        ? Math.round(available * t.widthShare)
        : available;
  const given: (number | undefined)[] = new Array(cols).fill(undefined);
  const want: number[] = new Array(cols).fill(3);
  const least: number[] = new Array(cols).fill(360);
  const defaultPadding = theme.kind === "word" ? 216 : 30;
  for (const row of t.rows) {
    let col = 0;
    for (const cell of row.cells) {
      const span = cell.colSpan ?? 1;
      if (span === 1) {
        if (cell.widthPt !== undefined && given[col] === undefined) given[col] = twips(cell.widthPt);
        const text = cellText(cell.blocks, theme.sizePt);
        want[col] = Math.max(want[col]!, Math.min(60, text.chars));
        const padding = cell.padding ? twips((cell.padding.l ?? 0) + (cell.padding.r ?? 0)) : defaultPadding;
        // An average glyph is about half an em wide; the longest word must not break.
        least[col] = Math.max(least[col]!, Math.round(text.longestWordEm * 0.55 * 20) + padding + 30);
      }
      col += span;
    }
  }
  const autoWidth = t.widthPt === undefined && t.widthShare === undefined && theme.kind === "browser";
  // What each column's longest text needs on one line (capped at 60 characters).
  const need = want.map((chars, i) =>
    Math.max(least[i]!, Math.round(chars * theme.sizePt * 0.55 * 20) + defaultPadding),
  );
  const widths = given.map((g, i) => g ?? (autoWidth ? need[i]! : least[i]!));
  const free = given.map((g, i) => (g === undefined ? i : -1)).filter((i) => i >= 0);
  const sized = widths.reduce((a, b) => a + b, 0);
  if (!autoWidth && free.length && sized < total) {
    // What is left goes to the columns without a given width, by the length of their text.
    const weight = free.reduce((a, i) => a + want[i]!, 0);
    for (const i of free) widths[i] = widths[i]! + Math.round(((total - sized) * want[i]!) / weight);
  }
  const sum = widths.reduce((a, b) => a + b, 0);
  // An HTML table without a width is as wide as its text needs, up to the text width.
  const target = autoWidth ? Math.min(sum, available) : total;
  if (autoWidth && sum > target && free.length) {
    // Too wide: the free columns give up what they have above their longest word, in proportion.
    const over = sum - target;
    const slack = free.reduce((a, i) => a + widths[i]! - least[i]!, 0);
    if (slack >= over) {
      for (const i of free) widths[i] = widths[i]! - Math.round((over * (widths[i]! - least[i]!)) / slack);
      return widths.map((w) => Math.max(120, w));
    }
  }
  return widths.map((w) => Math.max(120, Math.round((w * target) / sum)));
}

/** The text of a cell: its longest paragraph in characters and its longest word in points. */
function cellText(blocks: readonly Block[], sizePt: number): { chars: number; longestWordEm: number } {
  let chars = 0;
  let longestWordEm = 0;
  for (const b of blocks) {
    if (b.kind !== "paragraph") continue;
    let len = 0;
    const walk = (list: readonly Inline[]) => {
      for (const i of list) {
        if (i.kind === "text") {
          len += i.text.length;
          const size = i.marks.sizePt ?? sizePt;
          for (const word of i.text.split(/\s+/))
            longestWordEm = Math.max(longestWordEm, word.length * size * (i.marks.bold ? 1.1 : 1));
        } else if (i.kind === "link") walk(i.children);
        else if (i.kind === "image") len += 20;
      }
    };
    walk(b.inlines);
    chars = Math.max(chars, len);
  }
  return { chars, longestWordEm };
}

function footnotesXml(notes: { id: number; xml: string }[]): string {
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:footnotes xmlns:w="${W_NS}" xmlns:r="${R_NS}">` +
    `<w:footnote w:type="separator" w:id="-1"><w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:r><w:separator/></w:r></w:p></w:footnote>` +
    `<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>` +
    notes.map((n) => `<w:footnote w:id="${n.id}">${n.xml}</w:footnote>`).join("") +
    `</w:footnotes>`
  );
}

function settingsXml(footnotes: boolean): string {
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:settings xmlns:w="${W_NS}">` +
    `<w:defaultTabStop w:val="720"/><w:characterSpacingControl w:val="doNotCompress"/>` +
    (footnotes ? `<w:footnotePr><w:footnote w:id="-1"/><w:footnote w:id="0"/></w:footnotePr>` : "") +
    `<w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/></w:compat>` +
    `</w:settings>`
  );
}

function coreXml(title: string | undefined): string {
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/">` +
    (title ? `<dc:title>${escapeText(dropForbiddenChars(title))}</dc:title>` : "") +
    `<dc:creator>Signet</dc:creator></cp:coreProperties>`
  );
}

/** styles.xml: document defaults from the theme and the built-in styles the writer uses. */
function stylesXml(t: DocxTheme): string {
  const font = escapeAttr(t.font);
  const word = t.kind === "word";
  const headingFont = word ? "Calibri Light" : t.font;
  const para = (id: string, name: string, pPr: string, rPr: string, extra = "") =>
    `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/>${extra}<w:qFormat/><w:pPr>${pPr}</w:pPr><w:rPr>${rPr}</w:rPr></w:style>`;
  const headingSizes = word ? [16, 13, 12, 11, 11, 11] : [2, 1.5, 1.17, 1, 0.83, 0.67].map((k) => t.sizePt * k);
  const headingSpace = word
    ? [
        [18, 6],
        [14, 6],
        [12, 4],
        [10, 4],
        [10, 4],
        [10, 4],
      ]
    : [
        [0, 0],
        [0, 0],
        [0, 0],
        [0, 0],
        [0, 0],
        [0, 0],
      ];
  const headingColors = word ? ["2F5496", "2F5496", "1F3763", "2F5496", "2F5496", "1F3763"] : [];
  const headings = headingSizes
    .map((size, k) => {
      const rPr = `<w:rFonts w:ascii="${escapeAttr(headingFont)}" w:hAnsi="${escapeAttr(headingFont)}" w:cs="${escapeAttr(headingFont)}"/>${word ? "" : "<w:b/><w:bCs/>"}${word && k === 3 ? "<w:i/><w:iCs/>" : ""}${headingColors[k] ? `<w:color w:val="${headingColors[k]}"/>` : ""}<w:sz w:val="${halfPoints(size)}"/><w:szCs w:val="${halfPoints(size)}"/>`;
      return para(
        `Heading${k + 1}`,
        `heading ${k + 1}`,
        `<w:keepNext/><w:keepLines/><w:spacing w:before="${twips(headingSpace[k]![0]!)}" w:after="${twips(headingSpace[k]![1]!)}"/><w:outlineLvl w:val="${k}"/>`,
        rPr,
      );
    })
    .join("");
  const codeSize = halfPoints(word ? 10 : 10);
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:styles xmlns:w="${W_NS}">` +
    `<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="${font}" w:eastAsia="${font}" w:hAnsi="${font}" w:cs="${font}"/><w:sz w:val="${halfPoints(t.sizePt)}"/><w:szCs w:val="${halfPoints(t.sizePt)}"/><w:lang w:val="en-US" w:eastAsia="en-US" w:bidi="ar-SA"/></w:rPr></w:rPrDefault>` +
    `<w:pPrDefault><w:pPr><w:spacing w:after="${twips(t.afterPt)}" w:line="${Math.round(t.line * 240)}" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>` +
    `<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style>` +
    para(
      "Title",
      "Title",
      `<w:spacing w:after="${word ? 240 : 0}" w:line="240" w:lineRule="auto"/><w:contextualSpacing/>`,
      `<w:rFonts w:ascii="${escapeAttr(headingFont)}" w:hAnsi="${escapeAttr(headingFont)}" w:cs="${escapeAttr(headingFont)}"/><w:kern w:val="28"/><w:sz w:val="56"/><w:szCs w:val="56"/>`,
    ) +
    headings +
    para(
      "Quote",
      "Quote",
      word
        ? `<w:pBdr><w:left w:val="single" w:sz="24" w:space="8" w:color="D0D7DE"/></w:pBdr><w:ind w:left="240"/>`
        : "",
      word ? `<w:color w:val="57606A"/>` : "",
    ) +
    para(
      "SourceCode",
      "Source Code",
      `<w:shd w:val="clear" w:color="auto" w:fill="${word ? "F6F8FA" : "auto"}"/><w:spacing w:after="${twips(word ? t.afterPt : 0)}" w:line="240" w:lineRule="auto"/>`,
      `<w:rFonts w:ascii="Courier New" w:hAnsi="Courier New" w:cs="Courier New"/><w:sz w:val="${codeSize}"/><w:szCs w:val="${codeSize}"/>`,
    ) +
    para(
      "ListParagraph",
      "List Paragraph",
      word ? `<w:spacing w:after="${twips(t.afterPt / 2)}"/><w:contextualSpacing/>` : "",
      "",
    ) +
    para(
      "Caption",
      "caption",
      `<w:spacing w:after="200" w:line="240" w:lineRule="auto"/>`,
      `<w:i/><w:iCs/><w:color w:val="44546A"/><w:sz w:val="18"/><w:szCs w:val="18"/>`,
    ) +
    para(
      "FootnoteText",
      "footnote text",
      `<w:spacing w:after="0" w:line="240" w:lineRule="auto"/>`,
      `<w:sz w:val="20"/><w:szCs w:val="20"/>`,
    ) +
    `<w:style w:type="character" w:default="1" w:styleId="DefaultParagraphFont"><w:name w:val="Default Paragraph Font"/><w:uiPriority w:val="1"/><w:semiHidden/></w:style>` +
    `<w:style w:type="character" w:styleId="Hyperlink"><w:name w:val="Hyperlink"/><w:basedOn w:val="DefaultParagraphFont"/><w:rPr><w:color w:val="0563C1"/><w:u w:val="single"/></w:rPr></w:style>` +
    `<w:style w:type="character" w:styleId="VerbatimChar"><w:name w:val="Verbatim Char"/><w:basedOn w:val="DefaultParagraphFont"/><w:rPr><w:rFonts w:ascii="Courier New" w:hAnsi="Courier New" w:cs="Courier New"/><w:sz w:val="${codeSize}"/><w:szCs w:val="${codeSize}"/>${word ? `<w:shd w:val="clear" w:color="auto" w:fill="EFF1F3"/>` : ""}</w:rPr></w:style>` +
    `<w:style w:type="character" w:styleId="FootnoteReference"><w:name w:val="footnote reference"/><w:basedOn w:val="DefaultParagraphFont"/><w:rPr><w:vertAlign w:val="superscript"/></w:rPr></w:style>` +
    `<w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/><w:uiPriority w:val="99"/><w:semiHidden/><w:tblPr><w:tblInd w:w="0" w:type="dxa"/><w:tblCellMar><w:top w:w="0" w:type="dxa"/><w:left w:w="108" w:type="dxa"/><w:bottom w:w="0" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style>` +
    `<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/><w:basedOn w:val="TableNormal"/><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:tblPr><w:tblBorders>` +
    ["top", "left", "bottom", "right", "insideH", "insideV"]
      .map((s) => `<w:${s} w:val="single" w:sz="4" w:space="0" w:color="A0A0A0"/>`)
      .join("") +
    `</w:tblBorders><w:tblCellMar><w:top w:w="40" w:type="dxa"/><w:left w:w="108" w:type="dxa"/><w:bottom w:w="40" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style>` +
    `</w:styles>`
  );
}
