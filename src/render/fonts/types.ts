import type { Shaper } from "../shaping/harfbuzz";

/**
 * What layout and paint need from fonts. Fonts are loaded (async) before layout, from a
 * `FontSource` (the static-assets binding in the worker, the file system in Node tools); after
 * that, measuring is synchronous.
 */

/** Where font files come from: returns the bytes of a file like "Carlito-Bold.ttf", or null. */
export interface FontSource {
  load(file: string): Promise<Uint8Array | null>;
  /** The shaping engine (HarfBuzz) of this environment: the worker's imported module, Node's compiled file. */
  shaper(): Promise<Shaper>;
}

/**
 * How a stretch of text is shaped. `kern`: the face's kerning (GPOS and kern table) is applied, as
 * LibreOffice does for a run with w:kern (any value) and for a package without a styles part.
 * `joinBefore`/`joinAfter`: the text continues a word on that side (a run boundary inside an Arabic
 * word, a kashida's cut), so its end letters take their joining forms.
 */
export interface ShapeFlags {
  kern?: boolean;
  joinBefore?: boolean;
  joinAfter?: boolean;
  /** Shape right to left (an item at an odd bidi level); default: from the text's script. */
  rtl?: boolean;
}

/** A shaped stretch of text (HarfBuzz), glyphs in visual order; clusters are UTF-16 offsets into the text. */
export interface ShapedText {
  readonly glyphs: Uint32Array;
  readonly clusters: Uint32Array;
  /** Font units. */
  readonly xAdvances: Int32Array;
  readonly xOffsets: Int32Array;
  readonly yOffsets: Int32Array;
  readonly unitsPerEm: number;
}

/** One loaded face (a family in one weight/style). */
export interface FontFace {
  /** Stable id, e.g. "Carlito-Bold": paint embeds one PDF font per id. */
  readonly id: string;
  /** The TrueType bytes (paint subsets and embeds them). */
  readonly bytes: Uint8Array;
  /** Ascent and descent (positive, below baseline) in pt for a given size, as Word/LibreOffice use for line height. */
  ascent(size: number): number;
  descent(size: number): number;
  /** Height of one single-spaced line for this size, pt (ascent + descent + line gap as Word computes it). */
  lineHeight(size: number): number;
  /**
   * Advance width of `text` at `size`, pt: the text shaped by HarfBuzz (ligatures, contextual
   * forms; kerning only when `flags.kern`), each glyph's advance rounded to LibreOffice's 1/120 pt.
   */
  widthOf(text: string, size: number, flags?: ShapeFlags): number;
  /** The advance of each UTF-16 unit of `text` as shaped (a cluster's glyphs on its first unit), pt. */
  advancesOf?(text: string, size: number, flags?: ShapeFlags): number[];
  /** Whether the face has a glyph for this code point. */
  covers(codePoint: number): boolean;
  /** Top and bottom of a code point's glyph outline, pt above the baseline at `size` (null: no glyph). */
  glyphBounds?(codePoint: number, size: number): { top: number; bottom: number } | null;
}

export interface FaceRequest {
  family: string;
  bold: boolean;
  italic: boolean;
  /** The run's East Asian font slot: an unknown family maps to the CJK face (catalog `eastAsianFamily`). */
  eastAsian?: boolean;
}

/** Resolves family names (through the document's font table and our substitutes) to loaded faces. */
export interface FontBook {
  /** The face that renders this family/weight/style (substitute or fallback when not available). */
  face(req: FaceRequest): FontFace;
  /**
   * Splits `text` into pieces each drawn with one face: the requested face where it has the glyphs,
   * a fallback face (wide-coverage Noto) for characters it lacks.
   */
  split(text: string, req: FaceRequest): { text: string; face: FontFace }[];
  /**
   * The face whose line height a run's East Asian text takes, for its East Asian font name and
   * language (catalog `eastAsianLineFamily`); the face that draws it when that one is not loaded.
   */
  eastAsianLineFace(req: FaceRequest, lang: string | undefined): FontFace;
  /** Frees what the document's own faces hold in the shaper (its embedded fonts): call once painted. */
  release(): void;
}
