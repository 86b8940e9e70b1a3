/**
 * The state one parse shares across stories (body, headers, footers, notes): styles, numbering,
 * budgets, loaded images, the font set, and interned run styles (equal styles share one object,
 * so adjacent runs merge and layout can compare styles by reference).
 */
import { parseWmf } from "./wmf";
import { LimitExceeded, UnprocessableContent } from "../../errors";
import { LIMITS } from "../../limits";
import type { DocxPackage, Relationship } from "../../docx/package";
import type { ImageResource, Inline, NumberFormat, RunStyle } from "./types";
import type { Numbering } from "./numbering";
import type { ReadEnv, RunProps } from "./properties";
import type { RunLanguages } from "./label-language";
import type { Styles } from "./styles";
import { NO_DOC_PROPERTIES, type DocProperties } from "./doc-properties";
import type { DataStores } from "./data-binding";
import { Bookmarks, type FieldResult, type Sequences } from "./field-results";
import { detach } from "./xml-tree";

/** One part whose content is read as blocks, with its relationships and open complex fields. */
export interface Story {
  part: string;
  rels: Map<string, Relationship>;
  fields: FieldFrame[];
  /** Inside a note body: the label its w:footnoteRef/w:endnoteRef shows. */
  noteLabel?: string;
  /** Inside a note body: the note's `kind:id`. */
  noteKey?: string;
  /** A page break LibreOffice's import moves onto the story's next paragraph (model/blocks.ts). */
  carriedPageBreak?: boolean;
}

export interface FieldFrame {
  instr: string;
  inResult: boolean;
  /**
   * `computed`: a field whose `result` LibreOffice shows instead of the cached result, or (keepCached)
   * where that is empty (field-results.ts, doc-properties.ts); `reference`: a REF showing a bookmark's text.
   */
  kind?: "page" | "hyperlink" | "computed" | "reference" | "other";
  result?: FieldResult;
  /** A REF field's bookmark. */
  bookmark?: string;
  /** Text other than spaces drawn in the field's cached result. */
  cachedShown?: boolean;
  /** A legacy drop-down (w:ffData w:ddList) opened this field: the entry it shows. */
  dropdown?: FieldResult;
  link?: string;
  fallback: string;
  style: RunStyle;
  /** A legacy check box (w:ffData w:checkBox) opened this field: whether it is checked. */
  checkbox?: boolean;
  /** Any text drawn in the field's result (tracked for mail-merge fields, see model/blocks.ts). */
  resultText?: boolean;
}

/** A run's style; `symbolFont` when its text is written in a symbol font (mapped to Unicode, drawn in `style.font`). */
export interface ResolvedRun {
  style: RunStyle;
  symbolFont?: string;
  /** The run's languages (w:lang), kept out of its style: they only choose a list label's digits. */
  langs: RunLanguages;
}

export class ParseContext {
  blocks = 0;
  inlines = 0;
  cells = 0;
  depth = 0;
  imageBytes = 0;
  readonly images = new Map<string, ImageResource>();
  readonly fontFamilies = new Set<string>();
  /** Labels of note references, by `kind:id`, in order of appearance. */
  readonly noteLabels = new Map<string, string>();
  readonly noteCounters = { footnote: 0, endnote: 0 };
  /** Note numbering (settings.xml w:footnotePr / w:endnotePr): Word's defaults are 1, 2, 3 and i, ii, iii. */
  readonly noteNumbering: Record<"footnote" | "endnote", { format: NumberFormat; start: number }> = {
    footnote: { format: "decimal", start: 1 },
    endnote: { format: "lowerRoman", start: 1 },
  };
  /** Footnote numbers restart on each page: references get the provisional label of the start number. */
  footnotesRestartEachPage = false;
  /**
   * Word's old rule that a table style replaces the default paragraph style's left alignment and its
   * 11 or 12 pt size; off when settings.xml has compatSetting overrideTableStyleFontSizeAndJustification
   * (Word 2013+ writes it), as LibreOffice reads it.
   */
  tableStyleBeatsDefaults = true;
  /** settings.xml `w:splitPgBreakAndParaMark`: a break ending a paragraph leaves its mark on the next page. */
  splitPageBreakAndMark = false;
  /** The document's properties, for property fields (doc-properties.ts). */
  docProperties: DocProperties = NO_DOC_PROPERTIES;
  /** The next paragraph read is the first of a block-level content control (blocks.ts readBlocks). */
  blockControlStart = false;
  /** How many block-level content controls (w:sdt) the blocks being read sit in (blocks.ts readBlocks). */
  blockControlDepth = 0;
  /** The stores data-bound content controls read (data-binding.ts); none: cached text. */
  dataStores?: DataStores;
  /** SEQ field counters (field-results.ts). */
  readonly sequences: Sequences = new Map();
  /** Bookmarks for REF fields; parseDocx gives them document.xml's bytes, where names are read when first needed. */
  bookmarks = new Bookmarks(() => undefined);
  /** REF results whose bookmark comes later: filled in by `settleReferences` once every story is read. */
  readonly pendingReferences: { inline: Extract<Inline, { type: "text" }>; bookmark: string }[] = [];

  private readonly styleIntern = new Map<string, RunStyle>();
  /** Resolved runs by base properties object, then by the run's rPr source text. */
  private readonly runStyles = new WeakMap<object, Map<string, ResolvedRun>>();
  /** Paragraph base run properties by cell formatting (or the body), then paragraph style id. */
  private readonly bases = new WeakMap<object, Map<string, RunProps>>();

  constructor(
    readonly pkg: DocxPackage,
    readonly env: ReadEnv,
    readonly styles: Styles,
    readonly numbering: Numbering,
  ) {}

  /** Puts each later bookmark's text in front of the references to it (their text so far came after the field). */
  settleReferences(): void {
    for (const { inline, bookmark } of this.pendingReferences)
      inline.text = (this.bookmarks.text(bookmark) ?? "") + inline.text;
    this.pendingReferences.length = 0;
  }

  story(part: string): Story {
    const rels = new Map<string, Relationship>();
    for (const r of this.pkg.relationships(part)) rels.set(r.id, r);
    return { part, rels, fields: [] };
  }

  /** Cached `make()` for a (base, key) pair: runs with the same base and rPr text share one style. */
  runStyle(base: object, key: string, make: () => ResolvedRun): ResolvedRun {
    let m = this.runStyles.get(base);
    if (!m) this.runStyles.set(base, (m = new Map()));
    let r = m.get(key);
    if (!r) {
      r = make();
      r.style = this.intern(r.style);
      // The key is a slice of the part's text: a copy lets the segment it came from be collected.
      m.set(detach(key), r);
    }
    return r;
  }

  /** Cached run properties every paragraph of (cell formatting, style) starts from. */
  paragraphBase(cell: object, styleId: string, make: () => RunProps): RunProps {
    let m = this.bases.get(cell);
    if (!m) this.bases.set(cell, (m = new Map()));
    let b = m.get(styleId);
    if (!b) m.set(styleId, (b = make()));
    return b;
  }

  intern(style: RunStyle): RunStyle {
    const key = JSON.stringify(style);
    const hit = this.styleIntern.get(key);
    if (hit) return hit;
    this.styleIntern.set(key, style);
    this.fontFamilies.add(style.font);
    if (style.fontEastAsia) this.fontFamilies.add(style.fontEastAsia);
    if (style.fontComplex) this.fontFamilies.add(style.fontComplex);
    return style;
  }

  countBlock(): void {
    if (++this.blocks > LIMITS.render.maxBlocks)
      throw tooMuch(`more than ${LIMITS.render.maxBlocks} paragraphs and tables`);
  }

  countInline(): void {
    if (++this.inlines > LIMITS.render.maxInlines) throw tooMuch(`more than ${LIMITS.render.maxInlines} runs`);
  }

  countCell(): void {
    if (++this.cells > LIMITS.render.maxTableCells)
      throw tooMuch(`more than ${LIMITS.render.maxTableCells} table cells`);
  }

  /** Runs `f` one nesting level deeper (tables in cells, text boxes); beyond the limit the content is refused. */
  nested<T>(f: () => T): T {
    if (this.depth >= LIMITS.render.maxNesting)
      throw tooMuch(`tables or text boxes nested deeper than ${LIMITS.render.maxNesting} levels`);
    this.depth++;
    try {
      return f();
    } finally {
      this.depth--;
    }
  }

  /** Loads an image part once (by part name); returns its id or undefined when the part is missing. */
  loadImage(part: string): string | undefined {
    const entry = this.pkg.entry(part);
    if (!entry) return undefined;
    const id = entry.name;
    if (this.images.has(id)) return id;
    if (this.images.size >= LIMITS.render.maxImages) throw tooMuch(`more than ${LIMITS.render.maxImages} images`);
    const ext = id.slice(id.lastIndexOf(".") + 1).toLowerCase();
    // Formats paint cannot draw are not inflated at all.
    if (ext === "wmf") {
      // Text and lines of a Windows Metafile are drawn (model/wmf.ts); its bitmaps are not.
      this.imageBytes += entry.uncompressedSize;
      if (this.imageBytes > LIMITS.render.maxTotalImageBytes) {
        throw new LimitExceeded(
          "zip_limit",
          `The document's images exceed ${LIMITS.render.maxTotalImageBytes / 1024 / 1024} MiB in total.`,
        );
      }
      const bytes = this.pkg.readBinary(id, LIMITS.render.maxImageBytes);
      let picture: ReturnType<typeof parseWmf> = null;
      try {
        picture = parseWmf(bytes);
      } catch {
        picture = null; // a broken metafile leaves its box empty, like any undrawable picture
      }
      this.images.set(id, { bytes: new Uint8Array(0), type: "other", ...(picture ? { picture } : {}) });
      return id;
    }
    if (["emf", "svg", "tif", "tiff", "bmp", "wdp", "emz", "wmz"].includes(ext)) {
      this.images.set(id, { bytes: new Uint8Array(0), type: "other" });
      return id;
    }
    this.imageBytes += entry.uncompressedSize;
    if (this.imageBytes > LIMITS.render.maxTotalImageBytes) {
      throw new LimitExceeded(
        "zip_limit",
        `The document's images exceed ${LIMITS.render.maxTotalImageBytes / 1024 / 1024} MiB in total.`,
      );
    }
    const bytes = this.pkg.readBinary(id, LIMITS.render.maxImageBytes);
    this.images.set(id, { bytes, type: sniffImage(bytes) });
    return id;
  }
}

export function sniffImage(b: Uint8Array): ImageResource["type"] {
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return "png";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
  if (b.length >= 6 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38) return "gif";
  return "other";
}

function tooMuch(what: string): UnprocessableContent {
  return new UnprocessableContent(
    "docx_invalid",
    `The document has ${what}; Signet renders documents within its limits only.`,
  );
}
