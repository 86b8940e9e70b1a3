/**
 * The document model shared by the Markdown and HTML readers and the one DOCX writer: blocks of
 * paragraphs, lists, tables and pictures, in the words of Word's built-in styles. Readers decide
 * what a construct is; the writer alone knows WordprocessingML.
 */

/** Character formatting. Absent means "as the paragraph style says". */
export interface Marks {
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
  /** Inline code: the monospace character style. */
  code?: boolean;
  superscript?: boolean;
  subscript?: boolean;
  /** `RRGGBB`. */
  color?: string;
  /** Background `RRGGBB` (run shading). */
  background?: string;
  /** A font family name as the document gives it (the renderer substitutes metric-compatible faces). */
  font?: string;
  sizePt?: number;
}

export type Inline =
  | { kind: "text"; text: string; marks: Marks }
  | { kind: "break" }
  | { kind: "tab" }
  | { kind: "link"; href: string; children: Inline[] }
  | { kind: "image"; src: string; alt: string; widthPx?: number; heightPx?: number }
  | { kind: "footnote"; id: string };

/** Word's built-in paragraph styles the writer defines (style ids). */
export type ParagraphStyle =
  | "Normal"
  | "Title"
  | "Heading1"
  | "Heading2"
  | "Heading3"
  | "Heading4"
  | "Heading5"
  | "Heading6"
  | "Quote"
  | "SourceCode"
  | "ListParagraph"
  | "Caption";

export type Alignment = "left" | "center" | "right" | "both";

/** Direct paragraph formatting (HTML's CSS); lengths in points. */
export interface ParagraphProps {
  align?: Alignment;
  spaceBeforePt?: number;
  spaceAfterPt?: number;
  indentLeftPt?: number;
  indentRightPt?: number;
  /** Negative: hanging. */
  firstLinePt?: number;
  /** Line height as a multiple of single spacing. */
  lineMultiple?: number;
  pageBreakBefore?: boolean;
  keepNext?: boolean;
  /** A rule under the paragraph (thematic break). */
  bottomRule?: boolean;
  background?: string;
  /** Character formatting every run of the paragraph starts from. */
  marks?: Marks;
}

export interface ListRef {
  /** One per list in the source: numbering restarts with each list. */
  listId: number;
  ordered: boolean;
  /** 0-based nesting level. */
  level: number;
  /** First number of an ordered list. */
  start: number;
  /** The paragraph continues an item (a second paragraph): indented, no label. */
  continuation?: boolean;
  /** Label format; default bullet (unordered) or decimal (ordered). */
  format?: "bullet" | "decimal" | "lowerLetter" | "upperLetter" | "lowerRoman" | "upperRoman" | "none";
}

export interface Paragraph {
  kind: "paragraph";
  style: ParagraphStyle;
  inlines: Inline[];
  props?: ParagraphProps;
  list?: ListRef;
  /** Depth of block quotes around it (each adds an indent). */
  quoteDepth?: number;
}

export interface BorderSpec {
  /** Width in points; 0: none. */
  widthPt: number;
  /** `RRGGBB`. */
  color: string;
  style: "single" | "double" | "dashed" | "dotted";
}

export interface TableCell {
  blocks: Block[];
  header?: boolean;
  align?: Alignment;
  colSpan?: number;
  /** Extra rows this cell covers (HTML rowspan - 1). */
  rowSpanBelow?: number;
  widthPt?: number;
  background?: string;
  borders?: Partial<Record<"top" | "bottom" | "left" | "right", BorderSpec>>;
  verticalAlign?: "top" | "center" | "bottom";
  /** Cell padding in points (CSS), per side; default the table style's margins. */
  padding?: { l?: number; r?: number; t?: number; b?: number };
}

export interface TableRow {
  cells: TableCell[];
  header?: boolean;
}

export interface Table {
  kind: "table";
  rows: TableRow[];
  /** Width in points, or a share of the text width (0-1]; default: the text width. */
  widthPt?: number;
  widthShare?: number;
  /** Borders of the whole table (CSS on <table>); default: the table style's grid. */
  borders?: BorderSpec | null;
  align?: Alignment;
  spaceAfterPt?: number;
  pageBreakBefore?: boolean;
  /** Left indent (the table sits in an indented container). */
  indentPt?: number;
}

export type Block = Paragraph | Table | { kind: "pageBreak" };

export interface Footnote {
  id: string;
  blocks: Block[];
}

export interface DocumentModel {
  title?: string;
  blocks: Block[];
  footnotes: Footnote[];
}

/** Text width of the page the writer lays out: US Letter, 1 inch margins. */
export const PAGE = { widthPt: 612, heightPt: 792, marginPt: 72, textWidthPt: 468 };
