/**
 * The document model the renderer lays out: what a DOCX says, with every style resolved.
 * Parsing (`model/parse-*.ts`) turns the package's XML into this; layout never sees XML.
 * All lengths are in PDF points (1/72 in); colours are "RRGGBB" hex or null for automatic.
 */
import type { EmbeddedFont } from "./embedded-fonts";
import type { MetafilePicture } from "./wmf";

export type Color = string;

export type UnderlineStyle = "none" | "single" | "double" | "thick" | "dotted" | "dashed" | "wave" | "words";

/** Resolved character formatting (docDefaults → paragraph style → character style → direct). */
export interface RunStyle {
  /** Font family for Latin text (theme fonts already resolved to names). */
  font: string;
  /** Font for East Asian text (w:eastAsia), if different. */
  fontEastAsia?: string;
  /** Font for complex scripts (w:cs), used when the run is RTL or complex script. */
  fontComplex?: string;
  /** Size in pt (w:sz / 2; w:szCs for complex scripts). */
  size: number;
  /** Size in pt of complex-script characters (Arabic, Hebrew ...: w:szCs / 2) when it differs from `size`. */
  sizeComplex?: number;
  /** Size in pt of the other characters of a right-to-left run (w:sz / 2) when it differs from `size` (then w:szCs). */
  sizeLatin?: number;
  bold: boolean;
  italic: boolean;
  underline: UnderlineStyle;
  /** Underline colour, if not the text colour. */
  underlineColor?: Color | null;
  strike: boolean;
  doubleStrike: boolean;
  /** Text colour; null = automatic (black). */
  color: Color | null;
  /** Highlight (w:highlight, mapped to hex) or run shading fill; null = none. */
  highlight: Color | null;
  /** The run's shading fill when no highlight covers it: automatic text colour contrasts with it (a highlight's does not). */
  shading?: Color;
  caps: boolean;
  smallCaps: boolean;
  vertAlign: "baseline" | "superscript" | "subscript";
  /** Extra space after each character in pt (w:spacing), may be negative. */
  charSpacing: number;
  /** Raised (+) or lowered (-) baseline in pt (w:position). */
  position: number;
  /** Horizontal scale in percent (w:w), 100 = normal. */
  scale: number;
  /** Pair kerning applied (w:kern), as LibreOffice does; absent: off. */
  kern?: boolean;
  /** Hidden text (w:vanish): not rendered. */
  hidden: boolean;
  /** Right-to-left run (w:rtl). */
  rtl: boolean;
  /**
   * w:rFonts w:hint="eastAsia": characters both Latin and East Asian text use (quotes, dashes,
   * ellipsis, symbols) are drawn with the East Asian font, as typed in an East Asian context.
   */
  eastAsiaHint?: boolean;
  /**
   * The run's East Asian language (w:lang w:eastAsia) when Chinese ("zh": simplified, "zh-Hant":
   * traditional), Japanese or Korean: LibreOffice then applies East Asian line-breaking typography
   * (hanging punctuation; simplified Chinese forbidden characters) to it.
   */
  cjkTypography?: "zh" | "zh-Hant" | "ja" | "ko";
  /** The run's East Asian language tag (w:lang w:eastAsia) as the document gives it, if any. */
  eastAsiaLang?: string;
}

export type Inline =
  /**
   * `typed`: the characters as the document has them where `text` draws others (a symbol font's
   * characters, mapped to Unicode to be drawn), as long as `text`: the PDF's text for copy and
   * search, as LibreOffice writes it (a Symbol bullet U+F0B7 copies as U+F0B7, measured).
   */
  | { type: "text"; text: string; style: RunStyle; link?: string; typed?: string }
  | { type: "tab"; style: RunStyle; link?: string }
  | { type: "break"; kind: "line" | "page" | "column"; style: RunStyle }
  /** PAGE, NUMPAGES, SECTIONPAGES: the value is known only after pagination. `fallback` = cached result. */
  | {
      type: "field";
      field: "PAGE" | "NUMPAGES" | "SECTIONPAGES";
      format: NumberFormat;
      style: RunStyle;
      fallback: string;
    }
  | { type: "image"; image: string; width: number; height: number; style: RunStyle; anchor?: Anchor; link?: string }
  /** A text box or shape holding blocks (best effort); anchored or inline. */
  | {
      type: "box";
      blocks: Block[];
      width: number;
      height: number;
      style: RunStyle;
      anchor?: Anchor;
      fill?: Color | null;
      border?: Border | null;
      chart?: Chart;
      math?: MathInline;
      /** Room between the box's edges and its text, pt (wps:bodyPr lIns/tIns/rIns/bIns); Word's defaults when absent. */
      insets?: { left: number; top: number; right: number; bottom: number };
      /** Where the text sits in the box's height (wps:bodyPr anchor); top when absent. */
      textAnchor?: "middle" | "bottom";
      /**
       * A group's parts (its text boxes and pictures), each at its place in the box: pt from the
       * box's top-left corner, drawn in order; `blocks` is then empty.
       */
      parts?: GroupPart[];
    }
  /** Reference mark of a footnote/endnote in the text; the note body is in `DocumentModel.footnotes`. */
  | {
      type: "noteRef";
      kind: "footnote" | "endnote";
      id: string;
      label: string;
      style: RunStyle;
      /** The note's own mark, in its text (not a reference). */ own?: boolean;
    }
  /** A legacy check box form field (FORMCHECKBOX): a square as tall as its run's line. */
  | { type: "checkbox"; checked: boolean; style: RunStyle };

/** An equation (OMML m:oMath), set by layout/objects/math.ts; `display`: an m:oMathPara, centred on its own line. */
export interface MathInline {
  node: MathNode;
  display: boolean;
}

/** Office Math as a tree: what layout/objects/math.ts sets (sizes and positions come from the fonts). */
export type MathNode =
  /** A math run: letters in math italic unless the run is plain text (m:sty p, m:nor). */
  | { kind: "text"; text: string; italic: boolean; bold?: boolean }
  | { kind: "row"; items: MathNode[] }
  /** m:sSub, m:sSup, m:sSubSup, m:sPre (empty base). */
  | { kind: "script"; base: MathNode; sub?: MathNode; sup?: MathNode }
  /** m:f: numerator over denominator, with a bar unless noBar. */
  | { kind: "fraction"; num: MathNode; den: MathNode; bar: boolean }
  | { kind: "radical"; body: MathNode; degree?: MathNode }
  /** m:nary (∑ ∫ ∏ ...): limits under/over the operator, or as scripts beside it. */
  | { kind: "nary"; op: string; body: MathNode; sub?: MathNode; sup?: MathNode; limitsUnder: boolean }
  /** m:d: items between delimiters, separated by `separator`. */
  | { kind: "delimiter"; open: string; close: string; separator: string; items: MathNode[] }
  /** m:m and m:eqArr: rows of cells. */
  | { kind: "matrix"; rows: MathNode[][] }
  /** m:limLow, m:limUpp, m:acc, m:groupChr: something set small over or under the base. */
  | { kind: "limit"; base: MathNode; over?: MathNode; under?: MathNode }
  /** m:bar: a line over or under the base. */
  | { kind: "bar"; base: MathNode; over: boolean };

/** A chart (DrawingML c:chart) drawn inside its drawing's box, from the chart part's cached values. */
export interface Chart {
  /** "other": a chart type we do not draw (frame and title only). */
  kind: "bar" | "line" | "pie" | "other";
  /** Bars grow sideways (c:barDir bar) instead of upwards (col). */
  horizontal: boolean;
  /** Series stacked on each other (grouping stacked/percentStacked). */
  stacked: boolean;
  /** Stacked to 100 % (percentStacked). */
  percent: boolean;
  /** Space between category groups, percent of a bar's thickness (c:gapWidth). */
  gapWidth: number;
  /** Overlap of bars within a group, percent (c:overlap; 100 when stacked). */
  overlap: number;
  title?: ChartText;
  categories: string[];
  series: ChartSeries[];
  legend?: { position: "b" | "t" | "l" | "r" | "tr"; style: RunStyle };
  /** Value axis tick labels, and category labels. */
  axisText: RunStyle;
  categoryText: RunStyle;
  gridColor: Color;
  gridlines: boolean;
  valueAxisShown: boolean;
  categoryAxisShown: boolean;
  /** Fixed value axis bounds and step (c:scaling min/max, c:majorUnit), when given. */
  axisMin?: number;
  axisMax?: number;
  majorUnit?: number;
  /** Chart area fill and outline (null = none). */
  fill: Color | null;
  border: Color | null;
}

export interface ChartText {
  text: string;
  style: RunStyle;
}

export interface ChartSeries {
  name: string;
  color: Color;
  /** Values by category index; null where the cache has no number. */
  values: (number | null)[];
  /** Pie charts: one colour per point. */
  pointColors?: Color[];
}

/** Position of a floating object (wp:anchor). Offsets in pt. */
export interface Anchor {
  /** Horizontal: offset from the reference, or an alignment against it. */
  x: {
    relativeTo:
      "page" | "margin" | "column" | "character" | "leftMargin" | "rightMargin" | "insideMargin" | "outsideMargin";
    offset?: number;
    align?: "left" | "center" | "right" | "inside" | "outside";
  };
  y: {
    relativeTo: "page" | "margin" | "paragraph" | "line" | "topMargin" | "bottomMargin";
    offset?: number;
    align?: "top" | "center" | "bottom" | "inside" | "outside";
  };
  wrap: "square" | "tight" | "through" | "topAndBottom" | "none";
  /** Which side text may flow on for square/tight wrap. */
  wrapSide?: "both" | "left" | "right" | "largest";
  /** Distance kept from text, pt. */
  distance: { top: number; bottom: number; left: number; right: number };
  behindText: boolean;
  /**
   * Alignments keep the wrap distances inside the reference (left/top: that far in from the start,
   * right/bottom: from the end), as LibreOffice places a floating table's frame (measured).
   */
  distanceInside?: true;
  /**
   * A DrawingML shape or group aligned right with text wrapping around it ends its right wrap
   * distance inside the reference (LibreOffice, measured: relative to the margin, column or page;
   * pictures do not, nor does a left alignment).
   */
  rightDistanceInside?: true;
}

/** One part of a group (see the box inline's `parts`): a text box or a picture at (x, y) in the group, pt. */
export interface GroupPart {
  x: number;
  y: number;
  inline: Extract<Inline, { type: "image" } | { type: "box" }>;
}

export interface Border {
  style: string; // w:val: single, double, dashed, dotted, thick, nil/none ...
  /** Width in pt (w:sz / 8). */
  width: number;
  color: Color | null;
  /** Space between border and content, pt. */
  space: number;
}

export type TabAlign = "left" | "center" | "right" | "decimal" | "bar" | "clear";
export type TabLeader = "none" | "dot" | "hyphen" | "underscore" | "middleDot" | "heavy";
export interface TabStop {
  pos: number;
  align: TabAlign;
  leader: TabLeader;
  /** A numbering level's list tab (`w:tab w:val="num"`): where the tab after its label goes. */
  list?: boolean;
}

export interface LineSpacing {
  /** auto: `value` is a multiple of single spacing (1 = single); exact/atLeast: `value` in pt. */
  rule: "auto" | "exact" | "atLeast";
  value: number;
}

export interface ParagraphStyle {
  /** Style id (w:pStyle) after resolution, for contextual spacing comparisons. */
  styleId: string;
  align: "left" | "center" | "right" | "justify" | "distribute";
  indentLeft: number;
  indentRight: number;
  /** First-line indent; negative = hanging. */
  firstLine: number;
  spaceBefore: number;
  spaceAfter: number;
  /**
   * Set when the space comes from w:beforeAutospacing / w:afterAutospacing. LibreOffice (measured)
   * drops auto space before the document's first paragraph and a cell's first paragraph, and auto
   * space after a cell's last paragraph.
   */
  autoSpaceBefore?: true;
  autoSpaceAfter?: true;
  /** Ignore before/after spacing between paragraphs of the same style. */
  contextualSpacing: boolean;
  /** w:snapToGrid off: the section's line grid (w:docGrid) does not apply to this paragraph. */
  snapToGrid?: false;
  /** w:suppressLineNumbers: the paragraph's lines are neither numbered nor counted (line numbering). */
  suppressLineNumbers?: true;
  line: LineSpacing;
  /** Resolved tab stops (style + direct, `clear` applied), sorted by position. */
  tabs: TabStop[];
  keepNext: boolean;
  keepLines: boolean;
  widowControl: boolean;
  pageBreakBefore: boolean;
  /** A column break before any text of the paragraph (see leadingBreakToBreakBefore in blocks.ts). */
  columnBreakBefore?: boolean;
  bidi: boolean;
  borders: { top?: Border; bottom?: Border; left?: Border; right?: Border; between?: Border };
  /**
   * A w:between element in the paragraph's borders, whatever its value (none and nil too), directly
   * or from its style: LibreOffice then turns ParaIsConnectBorder off, and the paragraph joins no
   * paragraph below into a bordered group (measured, see `bordersJoin`).
   */
  bordersUnconnected?: true;
  /** The paragraph's own w:between (direct formatting; none and nil kept for their space), see `betweenAsTopBorder`. */
  ownBetween?: Border;
  shading: Color | null;
  /** Outline level / heading level if any (unused by layout, kept for bookmarks). */
  outlineLevel?: number;
  /** w:framePr: a framed paragraph, positioned outside the text flow (page numbers in headers and footers). */
  frame?: ParagraphFrame;
  /** A drop cap frame (w:framePr w:dropCap="drop"): its text becomes the next paragraph's drop cap. */
  dropCapFrame?: DropCapFrame;
}

/** A drop cap's height in lines and its distance from the text beside it (pt). */
export interface DropCapFrame {
  lines: number;
  distance: number;
}

/** A paragraph frame (w:framePr), offsets and width in pt. */
export interface ParagraphFrame {
  x: number;
  y: number;
  xAlign?: "left" | "center" | "right" | "inside" | "outside";
  width?: number;
  vAnchor?: "text" | "margin" | "page";
  hAnchor?: "text" | "margin" | "page";
}

export type NumberFormat =
  | "decimal"
  | "upperRoman"
  | "lowerRoman"
  | "upperLetter"
  | "lowerLetter"
  | "ordinal"
  | "bullet"
  | "decimalZero"
  | "none"
  | "arabicAbjad"
  | "hebrew1"
  | "russianUpper"
  | "russianLower"
  | "chicago"
  | "cardinalText"
  | "ordinalText"
  | "ideographDigital"
  | "japaneseCounting"
  | "chineseCounting"
  | "chineseCountingThousand"
  | "taiwaneseCounting"
  | "aiueo"
  | "aiueoFullWidth"
  | "iroha"
  | "irohaFullWidth"
  | "ganada"
  | "chosung"
  | "koreanDigital"
  | "koreanCounting"
  | "ideographTraditional"
  | "ideographZodiac"
  | "decimalEnclosedCircle"
  | "decimalEnclosedCircleChinese"
  | "ideographEnclosedCircle"
  /** Decimal digits, full-width in a list label whose paragraph language asks for native digits. */
  | "decimalFullWidth";

export interface Paragraph {
  type: "paragraph";
  style: ParagraphStyle;
  inlines: Inline[];
  /**
   * Letters set as a drop cap at the start of the paragraph: as tall as `lines` lines, beside them
   * (from a w:dropCap frame paragraph before it).
   */
  dropCap?: DropCapFrame & { text: string; style: RunStyle };
  /** The list label already computed (counters, restarts, level text), with its own formatting. */
  numbering?: {
    text: string;
    /** The label's characters as the level text has them, where `text` draws others (see the text inline's). */
    typed?: string;
    style: RunStyle;
    suffix: "tab" | "space" | "nothing";
    align: "left" | "center" | "right";
    image?: string;
  };
  /** Formatting of the paragraph mark: gives an empty paragraph its height. */
  markStyle: RunStyle;
  /**
   * Where it differs from `markStyle`: the mark's formatting as an empty paragraph's line takes it in
   * LibreOffice, without the mark's character style (w:rStyle) and at its Western size and font even
   * when the mark is right-to-left (measured).
   */
  emptyLine?: RunStyle;
  /**
   * The paragraph style's run formatting, without the mark's or the runs' direct formatting: a
   * paragraph of nothing but spaces and tabs is as tall as this font (LibreOffice, measured).
   */
  styleRun?: RunStyle;
  /** Mail-merge fields all with an empty result: LibreOffice hides the paragraph (model/blocks.ts). */
  emptyMergeFields?: boolean;
}

export interface TableCell {
  /** Grid columns this cell spans (w:gridSpan). */
  gridSpan: number;
  /** Vertical merge: "restart" starts a merged cell, "continue" is covered by the cell above. */
  vMerge: "restart" | "continue" | null;
  /** Preferred width in pt, if given in absolute units (w:tcW type dxa); percent widths resolved against the table. */
  width?: number;
  blocks: Block[];
  borders: { top?: Border; bottom?: Border; left?: Border; right?: Border };
  shading: Color | null;
  margins: { top: number; bottom: number; left: number; right: number };
  vAlign: "top" | "center" | "bottom";
}

export interface TableRow {
  cells: TableCell[];
  height?: { value: number; rule: "atLeast" | "exact" };
  /** Repeated at the top of each page (w:tblHeader). */
  header: boolean;
  /** Row may not split across pages (w:cantSplit). */
  cantSplit: boolean;
  /** Grid columns skipped before/after the first/last cell (w:gridBefore/w:gridAfter). */
  gridBefore: number;
  gridAfter: number;
  /**
   * Row-level table borders (w:tblPrEx). LibreOffice gives their top/left/bottom/right to every
   * cell of the row that has none of its own and ignores insideH/insideV; kept here as written.
   */
  borders?: TableBorders;
}

/** Table-level borders: outer sides and the inside lines between cells. */
export interface TableBorders {
  top?: Border;
  bottom?: Border;
  left?: Border;
  right?: Border;
  insideH?: Border;
  insideV?: Border;
}

export interface Table {
  type: "table";
  /** Column widths from w:tblGrid, pt. */
  grid: number[];
  /** Preferred table width: pt, a fraction of the available width (pct), or auto. */
  width: { type: "pt"; value: number } | { type: "pct"; value: number } | { type: "auto" };
  layout: "fixed" | "autofit";
  align: "left" | "center" | "right";
  /** w:tblInd, pt. */
  indent: number;
  /**
   * Word 2013+ documents (compatibilityMode 15 and later): tblInd measures to the outer edge of
   * the left border, not to where the first cell's text starts.
   */
  indentToBorder?: boolean;
  /**
   * The table's own left cell margin (w:tblCellMar, else the 5.4 pt default), pt: LibreOffice moves
   * a table left of its indent by this, whatever the first cell's own w:tcMar says.
   */
  cellMarginLeft?: number;
  rows: TableRow[];
  /** Inside borders of the table (tblBorders insideH/insideV), used where cells give none. */
  insideBorders: { horizontal?: Border; vertical?: Border };
  /** Outer borders of the table (tblBorders top/left/bottom/right). */
  borders: { top?: Border; bottom?: Border; left?: Border; right?: Border };
  bidi: boolean;
  /**
   * A floating table (w:tblpPr): where its frame goes and how text wraps around it. The flow decides
   * whether it really floats (layout/flow/floating-tables.ts); elsewhere it stays in line. LibreOffice
   * puts it in a frame of its own, so a header's rules for its own tables skip it.
   */
  float?: Anchor;
}

export type Block = Paragraph | Table;

export interface Columns {
  count: number;
  /** Space between columns, pt (equal-width columns). */
  space: number;
  /** Explicit widths/spaces when not equal width. */
  widths?: { width: number; space: number }[];
  separator: boolean;
}

export interface Section {
  pageWidth: number;
  pageHeight: number;
  margins: { top: number; right: number; bottom: number; left: number; header: number; footer: number; gutter: number };
  columns: Columns;
  /** How this section starts (w:type of its sectPr). */
  start: "nextPage" | "continuous" | "evenPage" | "oddPage" | "nextColumn";
  /** Header/footer part ids (keys of DocumentModel.headerFooters), inherited from earlier sections where absent. */
  headers: { default?: string; first?: string; even?: string };
  footers: { default?: string; first?: string; even?: string };
  /** Distinct first-page header/footer (w:titlePg). */
  titlePage: boolean;
  /**
   * The sectPr names headers or footers of its own. A section started by a continuous break gets a
   * page style of its own (from its first page break) only then, in LibreOffice.
   */
  ownHeadersFooters?: boolean;
  /** Footnote numbers restart on each page (the sectPr's w:footnotePr w:numRestart="eachPage"). */
  footnotesRestartEachPage?: boolean;
  pageNumberStart?: number;
  pageNumberFormat: NumberFormat;
  /** Line grid (w:docGrid type lines/linesAndChars/snapToChars, common in East Asian documents): lines snap to `linePitch` pt. */
  lineGrid?: { type: "lines" | "linesAndChars" | "snapToChars"; linePitch: number };
  /**
   * w:lnNumType with a w:countBy of 1 or more: LibreOffice turns line numbering on for the whole
   * document then (model/line-numbering.ts); `start` is w:start (Word counts from 0), `restart` w:restart.
   */
  lineNumbers?: LineNumberType;
  /** The number the first line of this section's first paragraph gets (model/line-numbering.ts). */
  lineNumberStart?: number;
  /** Vertical writing (w:textDirection tbRl): lines top to bottom, right to left (layout/flow/vertical.ts). */
  vertical?: boolean;
  /** Blocks of the body belonging to this section, in order. */
  blocks: Block[];
}

export interface LineNumberType {
  countBy: number;
  start: number;
  restart: "newPage" | "newSection" | "continuous";
  /** w:distance in pt, if given. */
  distance?: number;
}

/** Line numbering as LibreOffice applies it to the whole document (see `Section.lineNumbers`). */
export interface LineNumbering {
  countBy: number;
  /** Numbers restart on each page (the last section's w:restart is newPage, or absent). */
  restartEachPage: boolean;
  /** From the text column's left edge to the number's right edge, pt. */
  distance: number;
  /** The numbers' formatting: the "Line Number" character style over the document defaults. */
  style: RunStyle;
}

export interface ImageResource {
  bytes: Uint8Array;
  /** PNG, JPEG and GIF (converted to PNG) are painted; others are skipped (their box stays empty). */
  type: "png" | "jpeg" | "gif" | "other";
  /** A WMF picture's text and lines (model/wmf.ts), drawn by layout into the picture's box. */
  picture?: MetafilePicture;
}

export interface DocumentModel {
  sections: Section[];
  /** Header and footer contents by part id. */
  headerFooters: Map<string, Block[]>;
  /** Footnote and endnote bodies by `kind:id` (e.g. "footnote:2"). */
  notes: Map<string, Block[]>;
  /** Images by id (the part name inside the package). */
  images: Map<string, ImageResource>;
  /**
   * w:evenAndOddHeaders in settings.xml. Where a section has an even part and no default one,
   * `headerFooters` also holds EMPTY_PARTS: the empty header and footer LibreOffice shows on pages
   * without a part of their own.
   */
  evenAndOddHeaders: boolean;
  /**
   * Paragraph spacing adds up: a paragraph's space after and the next one's space before both
   * apply, where LibreOffice otherwise keeps only the larger. LibreOffice adds them for a package
   * without a settings part, or whose settings say w:doNotUseHTMLParagraphAutoSpacing (measured).
   */
  paragraphSpacingAdds?: boolean;
  /**
   * Set where some section's footnote numbers restart on each page: layout numbers the footnotes
   * (per page in those sections, running on elsewhere) from this start and format. Under
   * settings.xml's w:numRestart="eachPage" the model's labels are the start number, a stand-in.
   */
  footnotesRestartEachPage?: { start: number; format: NumberFormat };
  /** w:defaultTabStop, pt (36 when absent). */
  defaultTabStop: number;
  /** Line numbering, when some section asks for it (model/line-numbering.ts). */
  lineNumbering?: LineNumbering;
  /** dc:title of docProps/core.xml, used as the PDF title. */
  title?: string;
  /** Every font family the model names (for loading fonts before layout). */
  fontFamilies: Set<string>;
  /** Font table entries (word/fontTable.xml) by name: alternate names, family class, pitch, panose. */
  fontTable: Map<string, FontTableEntry>;
  /**
   * The document's default languages (docDefaults w:lang: w:val, w:bidi), BCP 47: the fonts'
   * fallback order for a character depends on its language, as fontconfig's does.
   */
  languages?: { latin?: string; complex?: string };
  /** Fonts the document embeds that LibreOffice would use (model/embedded-fonts.ts), de-obfuscated. */
  embeddedFonts?: EmbeddedFont[];
}

export interface FontTableEntry {
  name: string;
  altName?: string;
  /** w:family: roman, swiss, modern, script, decorative, auto. */
  family?: string;
  /** w:pitch: fixed, variable. */
  pitch?: string;
  /** w:panose1 hex (10 bytes). */
  panose?: string;
  /** w:charset (hex): 80 Shift-JIS, 81 Hangul, 82 Johab, 86 GB2312, 88 Big5 mark East Asian fonts. */
  charset?: string;
}

/** Ids in DocumentModel.headerFooters of the empty header and footer (see `evenAndOddHeaders`). */
export const EMPTY_PARTS = { header: "#empty-header", footer: "#empty-footer" } as const;
