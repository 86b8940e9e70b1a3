/**
 * Test support: builds small, valid DOCX packages from WordprocessingML snippets, with Word-like
 * defaults (Calibri 11 pt, 8 pt after, 259/240 auto line spacing, US Letter, 1" margins), and reads
 * their parts back. Runs in workerd and Node (only fflate). The one DOCX builder of the tests:
 * renderer tests, the fidelity harness and benchmarks use it directly, and the content-control
 * templates of test/support/docx-templates.ts are made with it.
 *
 * Lengths in `sectPr`, `p` (indents, spacing) and `table` are twips (1/20 pt) as in the XML, except
 * where a name says otherwise (`sizePt`); `pt(n)` converts.
 *
 *   const docx = buildDocx({
 *     body: p("Title", { style: "Heading1" }) + p([r("Bold ", { b: true }), r("plain")]) + sectPr(A4),
 *     headers: { rIdH1: p(["Page ", field("PAGE")]) },
 *   });
 */
import { strToU8, unzipSync, zipSync, type Zippable } from "fflate";

const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const REL_BASE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/";
/** Namespaces declared on every part's root, so snippets may use w:, r:, wp:, wpc:, a:, pic:, w14:, w15:. */
const NS =
  `xmlns:w="${W}" xmlns:r="${R}" ` +
  `xmlns:wpc="http://schemas.microsoft.com/office/word/2010/wordprocessingCanvas" ` +
  `xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" ` +
  `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ` +
  `xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" ` +
  `xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" ` +
  `xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" ` +
  `xmlns:w15="http://schemas.microsoft.com/office/word/2012/wordml" mc:Ignorable="w14 w15"`;
const XML_DECL = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n`;

export interface Relationship {
  id: string;
  /** Full relationship type URI, or its last segment ("hyperlink", "image", ...). */
  type: string;
  target: string;
  external?: boolean;
}

export interface DocxParts {
  /**
   * Inner XML of w:body. A default `sectPr()` (Letter, 1" margins, referencing `header` and `footer`)
   * is appended unless it ends with one.
   */
  body: string;
  /** Inner XML of the one default header (word/header1.xml), referenced by the appended sectPr. */
  header?: string;
  /** Inner XML of the one default footer (word/footer1.xml), referenced by the appended sectPr. */
  footer?: string;
  /** Inner XML of w:styles. Default: `DEFAULT_STYLES`; to add styles write `DEFAULT_STYLES + style(...)`. */
  styles?: string;
  /** Inner XML of w:numbering (abstractNum elements, then num elements); see `numbering()`. */
  numbering?: string;
  /** Inner XML of w:settings. Default: `DEFAULT_SETTINGS` (tab stops every 0.5", Word 2013+ compatibility). */
  settings?: string;
  /** Header parts by relationship id → inner XML of w:hdr. Reference them from `sectPr({ headers })`. */
  headers?: Record<string, string>;
  /** Footer parts by relationship id → inner XML of w:ftr. */
  footers?: Record<string, string>;
  /** Inner XML of w:footnotes: the notes (id ≥ 1); the separator notes -1 and 0 are added. */
  footnotes?: string;
  /** Inner XML of w:endnotes: the notes (id ≥ 1); the separator notes -1 and 0 are added. */
  endnotes?: string;
  /** Extra relationships of document.xml (hyperlinks, ...). */
  rels?: Relationship[];
  /**
   * Images by relationship id → bytes (PNG, JPEG or GIF, sniffed), stored as word/media/<id>.<ext>,
   * or → `{ bytes, name }` stored as word/media/<name>.
   */
  media?: Record<string, Uint8Array | { bytes: Uint8Array; name: string }>;
  /** docProps/core.xml dc:title. */
  title?: string;
  /**
   * Fonts to embed (word/fonts/fontN.odttf, obfuscated with `fontKey` as ECMA-376 Part 1 §17.8.1
   * describes; no key: stored as it is), each named by a font table entry of `family`.
   */
  embeddedFonts?: EmbeddedFontPart[];
  /** Extra or replacing package entries (path → text or bytes), for malformed-package tests. */
  extra?: Record<string, string | Uint8Array>;
  /** Entries to leave out (to test missing parts). */
  omit?: string[];
}

export interface EmbeddedFontPart {
  family: string;
  style: "Regular" | "Bold" | "Italic" | "BoldItalic";
  /** The plain TrueType file. */
  bytes: Uint8Array;
  /** A GUID "{XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}"; the file's first 32 bytes are XORed with its bytes, last first. */
  fontKey?: string;
}

/** The font table with `embeddedFonts`' entries, its relationships, and the obfuscated files. */
function embeddedFontParts(fonts: readonly EmbeddedFontPart[]): {
  fontTable: string;
  rels: string;
  files: Record<string, Uint8Array>;
} {
  const files: Record<string, Uint8Array> = {};
  const rels: Relationship[] = [];
  const byFamily = new Map<string, string[]>();
  fonts.forEach((f, i) => {
    const id = `rIdFont${i + 1}`;
    const bytes = f.bytes.slice();
    if (f.fontKey) {
      // The GUID's 16 bytes, taken from its last hex pair to its first, XORed over bytes 0-15 and 16-31.
      const hex = f.fontKey.replace(/[^0-9A-Fa-f]/g, "");
      const key = Array.from({ length: 16 }, (_, k) => parseInt(hex.substr(hex.length - 2 - 2 * k, 2), 16));
      for (let k = 0; k < 32; k++) bytes[k]! ^= key[k % 16]!;
    }
    files[`word/fonts/font${i + 1}.odttf`] = bytes;
    rels.push({ id, type: "font", target: `fonts/font${i + 1}.odttf` });
    const embed = `<w:embed${f.style} r:id="${id}"${f.fontKey ? ` w:fontKey="${f.fontKey}"` : ""}/>`;
    byFamily.set(f.family, [...(byFamily.get(f.family) ?? []), embed]);
  });
  const fontTable = [...byFamily]
    .map(
      ([family, embeds]) =>
        `<w:font w:name="${escapeXml(family)}"><w:charset w:val="00"/><w:family w:val="swiss"/><w:pitch w:val="variable"/>${embeds.join("")}</w:font>`,
    )
    .join("");
  return { fontTable, rels: relsXml(rels), files };
}

export const pt = (points: number): number => Math.round(points * 20);

export function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

// ---------------------------------------------------------------------------------------------
// Defaults

export const DOC_DEFAULTS =
  `<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:eastAsia="Calibri" w:hAnsi="Calibri" w:cs="Calibri"/>` +
  `<w:sz w:val="22"/><w:szCs w:val="22"/><w:lang w:val="en-US" w:eastAsia="en-US" w:bidi="ar-SA"/></w:rPr></w:rPrDefault>` +
  `<w:pPrDefault><w:pPr><w:spacing w:after="160" w:line="259" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>`;

export interface StyleDef {
  id: string;
  type?: "paragraph" | "character" | "table" | "numbering";
  name?: string;
  basedOn?: string;
  next?: string;
  isDefault?: boolean;
  /** Inner XML of w:pPr / w:rPr / w:tblPr. */
  pPr?: string;
  rPr?: string;
  tblPr?: string;
}

export function style(s: StyleDef): string {
  return (
    `<w:style w:type="${s.type ?? "paragraph"}"${s.isDefault ? ` w:default="1"` : ""} w:styleId="${escapeXml(s.id)}">` +
    `<w:name w:val="${escapeXml(s.name ?? s.id)}"/>` +
    (s.basedOn ? `<w:basedOn w:val="${escapeXml(s.basedOn)}"/>` : "") +
    (s.next ? `<w:next w:val="${escapeXml(s.next)}"/>` : "") +
    `<w:qFormat/>` +
    (s.pPr ? `<w:pPr>${s.pPr}</w:pPr>` : "") +
    (s.rPr ? `<w:rPr>${s.rPr}</w:rPr>` : "") +
    (s.tblPr ? `<w:tblPr>${s.tblPr}</w:tblPr>` : "") +
    `</w:style>`
  );
}

const heading = (level: number, sizeHalfPt: number, before: number) =>
  style({
    id: `Heading${level}`,
    name: `heading ${level}`,
    basedOn: "Normal",
    next: "Normal",
    pPr: `<w:keepNext/><w:keepLines/><w:spacing w:before="${before}" w:after="0"/><w:outlineLvl w:val="${level - 1}"/>`,
    rPr: `<w:rFonts w:ascii="Cambria" w:hAnsi="Cambria" w:cs="Cambria"/><w:b/><w:color w:val="2F5496"/><w:sz w:val="${sizeHalfPt}"/><w:szCs w:val="${sizeHalfPt}"/>`,
  });

const SINGLE_BORDERS = ["top", "left", "bottom", "right", "insideH", "insideV"]
  .map((side) => `<w:${side} w:val="single" w:sz="4" w:space="0" w:color="auto"/>`)
  .join("");

/** Word's Normal, Default Paragraph Font, Table Normal, Table Grid, Heading 1-3, Title, List Paragraph, Header, Footer, footnote styles, Hyperlink. */
export const DEFAULT_STYLES =
  DOC_DEFAULTS +
  style({ id: "Normal", isDefault: true, name: "Normal" }) +
  `<w:style w:type="character" w:default="1" w:styleId="DefaultParagraphFont"><w:name w:val="Default Paragraph Font"/><w:uiPriority w:val="1"/><w:semiHidden/></w:style>` +
  `<w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/><w:semiHidden/>` +
  `<w:tblPr><w:tblInd w:w="0" w:type="dxa"/><w:tblCellMar><w:top w:w="0" w:type="dxa"/><w:left w:w="108" w:type="dxa"/>` +
  `<w:bottom w:w="0" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style>` +
  `<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/><w:basedOn w:val="TableNormal"/>` +
  `<w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:tblPr><w:tblBorders>${SINGLE_BORDERS}</w:tblBorders></w:tblPr></w:style>` +
  heading(1, 32, 240) +
  heading(2, 26, 40) +
  heading(3, 24, 40) +
  style({
    id: "Title",
    basedOn: "Normal",
    next: "Normal",
    pPr: `<w:spacing w:after="0" w:line="240" w:lineRule="auto"/><w:contextualSpacing/>`,
    rPr: `<w:rFonts w:ascii="Cambria" w:hAnsi="Cambria"/><w:spacing w:val="-10"/><w:kern w:val="28"/><w:sz w:val="56"/><w:szCs w:val="56"/>`,
  }) +
  style({
    id: "ListParagraph",
    name: "List Paragraph",
    basedOn: "Normal",
    pPr: `<w:ind w:left="720"/><w:contextualSpacing/>`,
  }) +
  style({
    id: "Header",
    name: "header",
    basedOn: "Normal",
    pPr: `<w:tabs><w:tab w:val="center" w:pos="4680"/><w:tab w:val="right" w:pos="9360"/></w:tabs><w:spacing w:after="0" w:line="240" w:lineRule="auto"/>`,
  }) +
  style({
    id: "Footer",
    name: "footer",
    basedOn: "Normal",
    pPr: `<w:tabs><w:tab w:val="center" w:pos="4680"/><w:tab w:val="right" w:pos="9360"/></w:tabs><w:spacing w:after="0" w:line="240" w:lineRule="auto"/>`,
  }) +
  style({
    id: "FootnoteText",
    name: "footnote text",
    basedOn: "Normal",
    pPr: `<w:spacing w:after="0" w:line="240" w:lineRule="auto"/>`,
    rPr: `<w:sz w:val="20"/><w:szCs w:val="20"/>`,
  }) +
  style({
    id: "FootnoteReference",
    type: "character",
    name: "footnote reference",
    rPr: `<w:vertAlign w:val="superscript"/>`,
  }) +
  style({
    id: "Hyperlink",
    type: "character",
    name: "Hyperlink",
    rPr: `<w:color w:val="0563C1"/><w:u w:val="single"/>`,
  });

export const DEFAULT_SETTINGS =
  `<w:defaultTabStop w:val="720"/><w:characterSpacingControl w:val="doNotCompress"/>` +
  `<w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/></w:compat>`;

const FONT_TABLE =
  `<w:font w:name="Calibri"><w:panose1 w:val="020F0502020204030204"/><w:charset w:val="00"/><w:family w:val="swiss"/><w:pitch w:val="variable"/></w:font>` +
  `<w:font w:name="Cambria"><w:panose1 w:val="02040503050406030204"/><w:charset w:val="00"/><w:family w:val="roman"/><w:pitch w:val="variable"/></w:font>` +
  `<w:font w:name="Times New Roman"><w:panose1 w:val="02020603050405020304"/><w:charset w:val="00"/><w:family w:val="roman"/><w:pitch w:val="variable"/></w:font>` +
  `<w:font w:name="Arial"><w:panose1 w:val="020B0604020202020204"/><w:charset w:val="00"/><w:family w:val="swiss"/><w:pitch w:val="variable"/></w:font>`;

// ---------------------------------------------------------------------------------------------
// Sections

export const LETTER = { width: 12240, height: 15840 } as const;
export const A4 = { width: 11906, height: 16838 } as const;

export interface SectionOptions {
  /** Page size, twips. Default Letter. */
  width?: number;
  height?: number;
  landscape?: boolean;
  /** Margins, twips. Default 1440 on every side, header/footer distance 720. */
  margins?: {
    top?: number;
    right?: number;
    bottom?: number;
    left?: number;
    header?: number;
    footer?: number;
    gutter?: number;
  };
  /** Columns: count, space between (twips, default 720), separator line, or explicit widths. */
  cols?: { num: number; space?: number; sep?: boolean; widths?: { w: number; space?: number }[] };
  /** Header/footer relationship ids by kind (keys of `DocxParts.headers` / `footers`). */
  headers?: { default?: string; first?: string; even?: string };
  footers?: { default?: string; first?: string; even?: string };
  /** Different first page header/footer. */
  titlePg?: boolean;
  /** Section start: nextPage (default), continuous, evenPage, oddPage, nextColumn. */
  type?: "nextPage" | "continuous" | "evenPage" | "oddPage" | "nextColumn";
  /** Restart page numbering at this number. */
  pageNumberStart?: number;
  /** w:lnNumType attributes (line numbering): countBy, start, restart, distance (twips). */
  lineNumbers?: { countBy?: number; start?: number; restart?: "newPage" | "newSection" | "continuous"; distance?: number };
}

/** A w:sectPr: put it last in the body (document's final section) or in a paragraph's pPr via `sectionBreak()`. */
export function sectPr(o: SectionOptions = {}): string {
  const m = { top: 1440, right: 1440, bottom: 1440, left: 1440, header: 720, footer: 720, gutter: 0, ...o.margins };
  const refs = (kind: "header" | "footer", ids?: SectionOptions["headers"]) =>
    Object.entries(ids ?? {})
      .filter(([, id]) => id !== undefined)
      .map(([type, id]) => `<w:${kind}Reference w:type="${type}" r:id="${escapeXml(id!)}"/>`)
      .join("");
  let cols = `<w:cols w:space="720"/>`;
  if (o.cols) {
    const { num, space = 720, sep, widths } = o.cols;
    const inner = widths
      ? widths.map((c) => `<w:col w:w="${c.w}"${c.space !== undefined ? ` w:space="${c.space}"` : ""}/>`).join("")
      : "";
    cols = `<w:cols w:num="${num}" w:space="${space}"${sep ? ` w:sep="1"` : ""}${widths ? ` w:equalWidth="0"` : ""}>${inner}</w:cols>`;
    if (!widths) cols = cols.replace("></w:cols>", "/>");
  }
  const width = o.width ?? LETTER.width;
  const height = o.height ?? LETTER.height;
  return (
    `<w:sectPr>${refs("header", o.headers)}${refs("footer", o.footers)}` +
    (o.type ? `<w:type w:val="${o.type}"/>` : "") +
    `<w:pgSz w:w="${width}" w:h="${height}"${o.landscape ? ` w:orient="landscape"` : ""}/>` +
    `<w:pgMar w:top="${m.top}" w:right="${m.right}" w:bottom="${m.bottom}" w:left="${m.left}" w:header="${m.header}" w:footer="${m.footer}" w:gutter="${m.gutter}"/>` +
    (o.lineNumbers
      ? `<w:lnNumType${Object.entries(o.lineNumbers)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => ` w:${k}="${v}"`)
          .join("")}/>`
      : "") +
    (o.pageNumberStart !== undefined ? `<w:pgNumType w:start="${o.pageNumberStart}"/>` : "") +
    cols +
    (o.titlePg ? `<w:titlePg/>` : "") +
    `</w:sectPr>`
  );
}

/** An empty paragraph that ends a section (all but the last section end this way). */
export const sectionBreak = (o: SectionOptions = {}): string => `<w:p><w:pPr>${sectPr(o)}</w:pPr></w:p>`;

// ---------------------------------------------------------------------------------------------
// Runs and paragraphs

export interface RunProps {
  b?: boolean;
  i?: boolean;
  /** Underline kind ("single", "double", ...) or true for single. */
  u?: boolean | string;
  strike?: boolean;
  caps?: boolean;
  smallCaps?: boolean;
  /** Hex colour without '#'. */
  color?: string;
  highlight?: string;
  /** Font size in points. */
  sizePt?: number;
  /** Font family for ascii, hAnsi, eastAsia and cs. */
  font?: string;
  vertAlign?: "superscript" | "subscript";
  /** Character spacing, twips. */
  spacing?: number;
  style?: string;
  rtl?: boolean;
  /** Raw extra rPr children. */
  extra?: string;
}

export function rPr(o: RunProps = {}): string {
  const inner =
    (o.style ? `<w:rStyle w:val="${escapeXml(o.style)}"/>` : "") +
    (o.font
      ? `<w:rFonts w:ascii="${escapeXml(o.font)}" w:hAnsi="${escapeXml(o.font)}" w:eastAsia="${escapeXml(o.font)}" w:cs="${escapeXml(o.font)}"/>`
      : "") +
    (o.b ? `<w:b/><w:bCs/>` : "") +
    (o.i ? `<w:i/><w:iCs/>` : "") +
    (o.caps ? `<w:caps/>` : "") +
    (o.smallCaps ? `<w:smallCaps/>` : "") +
    (o.strike ? `<w:strike/>` : "") +
    (o.color ? `<w:color w:val="${o.color}"/>` : "") +
    (o.spacing !== undefined ? `<w:spacing w:val="${o.spacing}"/>` : "") +
    (o.sizePt !== undefined
      ? `<w:sz w:val="${Math.round(o.sizePt * 2)}"/><w:szCs w:val="${Math.round(o.sizePt * 2)}"/>`
      : "") +
    (o.highlight ? `<w:highlight w:val="${o.highlight}"/>` : "") +
    (o.u ? `<w:u w:val="${o.u === true ? "single" : o.u}"/>` : "") +
    (o.vertAlign ? `<w:vertAlign w:val="${o.vertAlign}"/>` : "") +
    (o.rtl ? `<w:rtl/>` : "") +
    (o.extra ?? "");
  return inner ? `<w:rPr>${inner}</w:rPr>` : "";
}

/** A run of text. "\t" becomes w:tab, "\n" becomes w:br. */
export function r(text: string, props: RunProps = {}): string {
  const pieces = text.split(/(\t|\n)/).map((piece) => {
    if (piece === "\t") return `<w:tab/>`;
    if (piece === "\n") return `<w:br/>`;
    return piece ? `<w:t xml:space="preserve">${escapeXml(piece)}</w:t>` : "";
  });
  return `<w:r>${rPr(props)}${pieces.join("")}</w:r>`;
}

export const pageBreak = (): string => `<w:r><w:br w:type="page"/></w:r>`;
export const columnBreak = (): string => `<w:r><w:br w:type="column"/></w:r>`;

/** A complex field (PAGE, NUMPAGES, ...) showing `cached` until the renderer computes it. */
export function field(instr: string, cached = "1", props: RunProps = {}): string {
  const pr = rPr(props);
  return (
    `<w:r>${pr}<w:fldChar w:fldCharType="begin"/></w:r><w:r>${pr}<w:instrText xml:space="preserve"> ${escapeXml(instr)} </w:instrText></w:r>` +
    `<w:r>${pr}<w:fldChar w:fldCharType="separate"/></w:r><w:r>${pr}<w:t>${escapeXml(cached)}</w:t></w:r><w:r>${pr}<w:fldChar w:fldCharType="end"/></w:r>`
  );
}

/** A hyperlink to an external URL: pass the same id in `DocxParts.rels` via `hyperlinkRel`. */
export const hyperlink = (relId: string, text: string): string =>
  `<w:hyperlink r:id="${escapeXml(relId)}" w:history="1">${r(text, { style: "Hyperlink" })}</w:hyperlink>`;
export const hyperlinkRel = (id: string, url: string): Relationship => ({
  id,
  type: "hyperlink",
  target: url,
  external: true,
});

/** A footnote reference run; define the note with `footnote(id, ...)` in `DocxParts.footnotes`. */
export const footnoteRef = (id: number): string =>
  `<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:id="${id}"/></w:r>`;
/** An endnote reference run; define the note with `endnote(id, ...)` in `DocxParts.endnotes`. */
export const endnoteRef = (id: number): string =>
  `<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:endnoteReference w:id="${id}"/></w:r>`;
export const endnote = (id: number, text: string): string =>
  `<w:endnote w:id="${id}"><w:p><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:endnoteRef/></w:r>${r(" " + text)}</w:p></w:endnote>`;
export const footnote = (id: number, text: string): string =>
  `<w:footnote w:id="${id}"><w:p><w:pPr><w:pStyle w:val="FootnoteText"/></w:pPr>` +
  `<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteRef/></w:r>${r(" " + text)}</w:p></w:footnote>`;

export interface ParagraphProps {
  style?: string;
  jc?:
    | "left"
    | "center"
    | "right"
    | "both"
    | "start"
    | "end"
    | "distribute"
    | "lowKashida"
    | "mediumKashida"
    | "highKashida";
  /** Spacing, twips; `line` in 240ths of a line when lineRule is auto (default), else twips. */
  spacing?: {
    before?: number;
    after?: number;
    line?: number;
    lineRule?: "auto" | "exact" | "atLeast";
    beforeAutospacing?: boolean;
    afterAutospacing?: boolean;
  };
  /** Indents, twips. */
  ind?: { left?: number; right?: number; firstLine?: number; hanging?: number };
  /** List membership (see `numbering()`). */
  numId?: number;
  ilvl?: number;
  keepNext?: boolean;
  keepLines?: boolean;
  pageBreakBefore?: boolean;
  /** Widow/orphan control; Word's default is on, `false` writes w:widowControl w:val="0". */
  widowControl?: boolean;
  contextualSpacing?: boolean;
  /** Tab stops: position (twips), alignment, leader. */
  tabs?: {
    pos: number;
    val?: "left" | "center" | "right" | "decimal" | "bar" | "clear";
    leader?: "dot" | "hyphen" | "underscore" | "middleDot" | "heavy" | "none";
  }[];
  bidi?: boolean;
  /** Shading fill (hex). */
  shading?: string;
  /** Properties of the paragraph mark (and, for the string form of `p`, of its run). */
  run?: RunProps;
  /** Raw extra pPr children, appended. */
  extra?: string;
}

export function pPr(o: ParagraphProps = {}): string {
  const attrs = (obj: Record<string, unknown> | undefined) =>
    Object.entries(obj ?? {})
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => ` w:${k}="${v === true ? 1 : v === false ? 0 : v}"`)
      .join("");
  const inner =
    (o.style ? `<w:pStyle w:val="${escapeXml(o.style)}"/>` : "") +
    (o.keepNext ? `<w:keepNext/>` : "") +
    (o.keepLines ? `<w:keepLines/>` : "") +
    (o.pageBreakBefore ? `<w:pageBreakBefore/>` : "") +
    (o.widowControl !== undefined ? `<w:widowControl w:val="${o.widowControl ? 1 : 0}"/>` : "") +
    (o.numId !== undefined ? `<w:numPr><w:ilvl w:val="${o.ilvl ?? 0}"/><w:numId w:val="${o.numId}"/></w:numPr>` : "") +
    (o.shading ? `<w:shd w:val="clear" w:color="auto" w:fill="${o.shading}"/>` : "") +
    (o.tabs?.length
      ? `<w:tabs>${o.tabs.map((t) => `<w:tab w:val="${t.val ?? "left"}"${t.leader ? ` w:leader="${t.leader}"` : ""} w:pos="${t.pos}"/>`).join("")}</w:tabs>`
      : "") +
    (o.spacing ? `<w:spacing${attrs(o.spacing)}/>` : "") +
    (o.ind ? `<w:ind${attrs(o.ind)}/>` : "") +
    (o.contextualSpacing ? `<w:contextualSpacing/>` : "") +
    (o.bidi ? `<w:bidi/>` : "") +
    (o.jc ? `<w:jc w:val="${o.jc}"/>` : "") +
    (o.extra ?? "") +
    rPr(o.run);
  return inner ? `<w:pPr>${inner}</w:pPr>` : "";
}

/**
 * A paragraph. `content` is plain text (one run, formatted with `props.run`) or an array whose
 * items are run-level XML (from `r`, `field`, `hyperlink`, `pageBreak`, ...: anything starting
 * with "<") or plain text (a run formatted with `props.run`).
 */
export function p(content: string | string[] = "", props: ParagraphProps = {}): string {
  const pieces = typeof content === "string" ? [content] : content;
  const runs = pieces.map((piece) => (piece.startsWith("<") ? piece : piece ? r(piece, props.run) : "")).join("");
  return `<w:p>${pPr(props)}${runs}</w:p>`;
}

// ---------------------------------------------------------------------------------------------
// Tables

export interface CellSpec {
  /** Paragraph XML (from `p`); a plain string becomes one paragraph. */
  content: string;
  gridSpan?: number;
  vMerge?: "restart" | "continue";
  shading?: string;
  vAlign?: "top" | "center" | "bottom";
}

export interface TableProps {
  /** Column widths, twips (the grid). */
  widths: number[];
  style?: string;
  /** Single borders on every edge (default true unless a style is given). */
  borders?: boolean;
  /** Rows (from the top) repeated on each page. */
  headerRows?: number;
  /** Row heights, twips, with the rule (atLeast by default). */
  rowHeight?: { h: number; rule?: "atLeast" | "exact" };
  /** Forbid rows from breaking across pages. */
  cantSplit?: boolean;
  jc?: "left" | "center" | "right";
}

/** A table; each cell is a string (one paragraph of text), paragraph XML (starts with "<"), or a CellSpec. */
export function table(rows: (string | CellSpec)[][], props: TableProps): string {
  const borders = props.borders ?? !props.style;
  const tblPr =
    `<w:tblPr>${props.style ? `<w:tblStyle w:val="${escapeXml(props.style)}"/>` : ""}<w:tblW w:w="0" w:type="auto"/>` +
    (props.jc ? `<w:jc w:val="${props.jc}"/>` : "") +
    (borders ? `<w:tblBorders>${SINGLE_BORDERS}</w:tblBorders>` : "") +
    `<w:tblLayout w:type="fixed"/><w:tblLook w:val="04A0" w:firstRow="1" w:lastRow="0" w:firstColumn="1" w:lastColumn="0" w:noHBand="0" w:noVBand="1"/></w:tblPr>`;
  const grid = `<w:tblGrid>${props.widths.map((w) => `<w:gridCol w:w="${w}"/>`).join("")}</w:tblGrid>`;
  const body = rows
    .map((row, ri) => {
      const trPr =
        (props.cantSplit ? `<w:cantSplit/>` : "") +
        (props.rowHeight
          ? `<w:trHeight w:val="${props.rowHeight.h}"${props.rowHeight.rule === "exact" ? ` w:hRule="exact"` : ""}/>`
          : "") +
        (ri < (props.headerRows ?? 0) ? `<w:tblHeader/>` : "");
      let col = 0;
      const cells = row
        .map((cell) => {
          const spec: CellSpec = typeof cell === "string" ? { content: cell } : cell;
          const span = spec.gridSpan ?? 1;
          const width = props.widths.slice(col, col + span).reduce((a, b) => a + b, 0);
          col += span;
          const content = spec.content.startsWith("<") ? spec.content : p(spec.content);
          const tcPr =
            `<w:tcW w:w="${width}" w:type="dxa"/>` +
            (span > 1 ? `<w:gridSpan w:val="${span}"/>` : "") +
            (spec.vMerge ? `<w:vMerge${spec.vMerge === "restart" ? ` w:val="restart"` : ""}/>` : "") +
            (spec.shading ? `<w:shd w:val="clear" w:color="auto" w:fill="${spec.shading}"/>` : "") +
            (spec.vAlign ? `<w:vAlign w:val="${spec.vAlign}"/>` : "");
          // A cell must hold at least one paragraph.
          return `<w:tc><w:tcPr>${tcPr}</w:tcPr>${content || "<w:p/>"}</w:tc>`;
        })
        .join("");
      return `<w:tr>${trPr ? `<w:trPr>${trPr}</w:trPr>` : ""}${cells}</w:tr>`;
    })
    .join("");
  return `<w:tbl>${tblPr}${grid}${body}</w:tbl>`;
}

// ---------------------------------------------------------------------------------------------
// Numbering

export interface LevelSpec {
  /** decimal, lowerLetter, upperLetter, lowerRoman, upperRoman, bullet, none, ... */
  fmt: string;
  /** Level text, e.g. "%1.", "%1.%2", "•". */
  text: string;
  start?: number;
  /** Left indent and hanging, twips (default 720 × (level+1), 360). */
  left?: number;
  hanging?: number;
  font?: string;
  jc?: "left" | "center" | "right";
}

/** One abstract numbering definition with the given levels, and a num instance pointing at it. */
export function numbering(def: { numId: number; abstractId?: number; levels: LevelSpec[] }): {
  abstract: string;
  num: string;
} {
  const abstractId = def.abstractId ?? def.numId;
  const levels = def.levels
    .map((l, i) => {
      const left = l.left ?? 720 * (i + 1);
      const hanging = l.hanging ?? 360;
      return (
        `<w:lvl w:ilvl="${i}"><w:start w:val="${l.start ?? 1}"/><w:numFmt w:val="${l.fmt}"/><w:lvlText w:val="${escapeXml(l.text)}"/>` +
        `<w:lvlJc w:val="${l.jc ?? "left"}"/><w:pPr><w:ind w:left="${left}" w:hanging="${hanging}"/></w:pPr>` +
        (l.font ? rPr({ font: l.font }) : "") +
        `</w:lvl>`
      );
    })
    .join("");
  return {
    abstract: `<w:abstractNum w:abstractNumId="${abstractId}"><w:multiLevelType w:val="${def.levels.length > 1 ? "multilevel" : "singleLevel"}"/>${levels}</w:abstractNum>`,
    num: `<w:num w:numId="${def.numId}"><w:abstractNumId w:val="${abstractId}"/></w:num>`,
  };
}

/** Inner XML of w:numbering from several `numbering()` results (abstractNums must precede nums). */
export const numberingPart = (...defs: { abstract: string; num: string }[]): string =>
  defs.map((d) => d.abstract).join("") + defs.map((d) => d.num).join("");

// ---------------------------------------------------------------------------------------------
// Images

/** An inline picture of `media[relId]`, sized in points. */
export function inlineImage(relId: string, widthPt: number, heightPt: number, id = 1): string {
  const cx = Math.round(widthPt * 12700);
  const cy = Math.round(heightPt * 12700);
  return (
    `<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="${cx}" cy="${cy}"/><wp:docPr id="${id}" name="Picture ${id}"/>` +
    `<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic>` +
    `<pic:nvPicPr><pic:cNvPr id="${id}" name="${escapeXml(relId)}"/><pic:cNvPicPr/></pic:nvPicPr>` +
    `<pic:blipFill><a:blip r:embed="${escapeXml(relId)}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
    `<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>` +
    `</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`
  );
}

function imageKind(bytes: Uint8Array): { ext: string; type: string } {
  if (bytes[0] === 0x89 && bytes[1] === 0x50) return { ext: "png", type: "image/png" };
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return { ext: "jpeg", type: "image/jpeg" };
  if (bytes[0] === 0x47 && bytes[1] === 0x49) return { ext: "gif", type: "image/gif" };
  throw new Error("docx-builder: media must be PNG, JPEG or GIF");
}

// ---------------------------------------------------------------------------------------------
// Package

const CT = "application/vnd.openxmlformats-officedocument.wordprocessingml";
const DEFAULT_HEADER_ID = "rIdHeader";
const DEFAULT_FOOTER_ID = "rIdFooter";

export function buildDocx(parts: DocxParts): Uint8Array {
  const files: Record<string, string | Uint8Array> = {};
  const overrides: [string, string][] = [
    ["/word/document.xml", `${CT}.document.main+xml`],
    ["/word/styles.xml", `${CT}.styles+xml`],
    ["/word/settings.xml", `${CT}.settings+xml`],
    ["/word/fontTable.xml", `${CT}.fontTable+xml`],
    ["/docProps/core.xml", "application/vnd.openxmlformats-package.core-properties+xml"],
  ];
  const rels: Relationship[] = [
    { id: "rIdStyles", type: "styles", target: "styles.xml" },
    { id: "rIdSettings", type: "settings", target: "settings.xml" },
    { id: "rIdFontTable", type: "fontTable", target: "fontTable.xml" },
  ];
  const defaults = new Map<string, string>();

  const headers = { ...parts.headers, ...(parts.header !== undefined ? { [DEFAULT_HEADER_ID]: parts.header } : {}) };
  const footers = { ...parts.footers, ...(parts.footer !== undefined ? { [DEFAULT_FOOTER_ID]: parts.footer } : {}) };
  let body = parts.body;
  if (!/<\/w:sectPr>\s*$/.test(body)) {
    body += sectPr({
      headers: parts.header !== undefined ? { default: DEFAULT_HEADER_ID } : undefined,
      footers: parts.footer !== undefined ? { default: DEFAULT_FOOTER_ID } : undefined,
    });
  }
  files["word/document.xml"] = `${XML_DECL}<w:document ${NS}><w:body>${body}</w:body></w:document>`;
  files["word/styles.xml"] = `${XML_DECL}<w:styles ${NS}>${parts.styles ?? DEFAULT_STYLES}</w:styles>`;
  files["word/settings.xml"] = `${XML_DECL}<w:settings ${NS}>${parts.settings ?? DEFAULT_SETTINGS}</w:settings>`;
  files["word/fontTable.xml"] = `${XML_DECL}<w:fonts ${NS}>${FONT_TABLE}</w:fonts>`;
  if (parts.embeddedFonts?.length) {
    const embedded = embeddedFontParts(parts.embeddedFonts);
    files["word/fontTable.xml"] = `${XML_DECL}<w:fonts ${NS}>${FONT_TABLE}${embedded.fontTable}</w:fonts>`;
    files["word/_rels/fontTable.xml.rels"] = embedded.rels;
    Object.assign(files, embedded.files);
    defaults.set("odttf", "application/vnd.openxmlformats-officedocument.obfuscatedFont");
  }

  if (parts.numbering !== undefined) {
    files["word/numbering.xml"] = `${XML_DECL}<w:numbering ${NS}>${parts.numbering}</w:numbering>`;
    overrides.push(["/word/numbering.xml", `${CT}.numbering+xml`]);
    rels.push({ id: "rIdNumbering", type: "numbering", target: "numbering.xml" });
  }
  if (parts.footnotes !== undefined) {
    const separators =
      `<w:footnote w:type="separator" w:id="-1"><w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:r><w:separator/></w:r></w:p></w:footnote>` +
      `<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>`;
    files["word/footnotes.xml"] = `${XML_DECL}<w:footnotes ${NS}>${separators}${parts.footnotes}</w:footnotes>`;
    overrides.push(["/word/footnotes.xml", `${CT}.footnotes+xml`]);
    rels.push({ id: "rIdFootnotes", type: "footnotes", target: "footnotes.xml" });
  }
  if (parts.endnotes !== undefined) {
    const separators =
      `<w:endnote w:type="separator" w:id="-1"><w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:r><w:separator/></w:r></w:p></w:endnote>` +
      `<w:endnote w:type="continuationSeparator" w:id="0"><w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:r><w:continuationSeparator/></w:r></w:p></w:endnote>`;
    files["word/endnotes.xml"] = `${XML_DECL}<w:endnotes ${NS}>${separators}${parts.endnotes}</w:endnotes>`;
    overrides.push(["/word/endnotes.xml", `${CT}.endnotes+xml`]);
    rels.push({ id: "rIdEndnotes", type: "endnotes", target: "endnotes.xml" });
  }
  for (const [kind, map] of [
    ["header", headers],
    ["footer", footers],
  ] as const) {
    let n = 0;
    for (const [id, xml] of Object.entries(map)) {
      const name = `${kind}${++n}.xml`;
      const root = kind === "header" ? "w:hdr" : "w:ftr";
      files[`word/${name}`] = `${XML_DECL}<${root} ${NS}>${xml}</${root}>`;
      overrides.push([`/word/${name}`, `${CT}.${kind}+xml`]);
      rels.push({ id, type: kind, target: name });
    }
  }
  for (const [id, image] of Object.entries(parts.media ?? {})) {
    const bytes = image instanceof Uint8Array ? image : image.bytes;
    const { ext, type } = imageKind(bytes);
    const name = image instanceof Uint8Array ? `${id}.${ext}` : image.name;
    files[`word/media/${name}`] = bytes;
    defaults.set(ext, type);
    rels.push({ id, type: "image", target: `media/${name}` });
  }
  rels.push(...(parts.rels ?? []));

  files["docProps/core.xml"] =
    `${XML_DECL}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ` +
    `xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` +
    (parts.title !== undefined ? `<dc:title>${escapeXml(parts.title)}</dc:title>` : "") +
    `<dc:creator>Signet tests</dc:creator></cp:coreProperties>`;
  files["word/_rels/document.xml.rels"] = relsXml(rels);
  files["_rels/.rels"] = relsXml([
    { id: "rId1", type: "officeDocument", target: "word/document.xml" },
    {
      id: "rId2",
      type: "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties",
      target: "docProps/core.xml",
    },
  ]);
  files["[Content_Types].xml"] =
    `${XML_DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
    [...defaults].map(([ext, type]) => `<Default Extension="${ext}" ContentType="${type}"/>`).join("") +
    overrides.map(([name, type]) => `<Override PartName="${name}" ContentType="${type}"/>`).join("") +
    `</Types>`;
  Object.assign(files, parts.extra ?? {});
  for (const name of parts.omit ?? []) delete files[name];

  // Fixed mtime: the same parts give the same bytes.
  const zippable: Zippable = {};
  const order = Object.keys(files).sort(
    (a, b) => Number(b === "[Content_Types].xml") - Number(a === "[Content_Types].xml"),
  );
  for (const name of order) {
    const content = files[name]!;
    zippable[name] = [
      typeof content === "string" ? strToU8(content) : content,
      { level: 6, mtime: new Date(2020, 0, 1) },
    ];
  }
  return zipSync(zippable);
}

/** The text of part `name` of a DOCX package (throws, naming the parts there are, when it is missing). */
export function partText(docx: Uint8Array, name: string): string {
  const files = unzipSync(docx);
  const f = files[name];
  if (!f) throw new Error(`no part ${name}; have ${Object.keys(files).join(", ")}`);
  return new TextDecoder().decode(f);
}

/** The names of a DOCX package's parts. */
export function partNames(docx: Uint8Array): string[] {
  return Object.keys(unzipSync(docx));
}

function relsXml(rels: Relationship[]): string {
  return (
    `${XML_DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
    rels
      .map(
        (rel) =>
          `<Relationship Id="${escapeXml(rel.id)}" Type="${rel.type.includes("/") ? rel.type : REL_BASE + rel.type}" Target="${escapeXml(rel.target)}"` +
          `${rel.external ? ` TargetMode="External"` : ""}/>`,
      )
      .join("") +
    `</Relationships>`
  );
}

/**
 * A package of nothing but a main document part whose body is `body` (no styles, settings or font
 * table parts): LibreOffice gives such a document Word 2007's defaults (Calibri 11 pt) and kerns it.
 */
export function buildDocxWithoutStyles(body: string): Uint8Array {
  return zipSync({
    "[Content_Types].xml": strToU8(
      `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
        `<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    ),
    "_rels/.rels": strToU8(
      `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        `<Relationship Id="rId1" Type="${REL_BASE}officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    "word/document.xml": strToU8(
      `<?xml version="1.0"?><w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`,
    ),
  });
}
