/**
 * What layout and paint need from fonts. Fonts are loaded (async) before layout, from a
 * `FontSource` (the static-assets binding in the worker, the file system in Node tools); after
 * that, measuring is synchronous.
 */

/** Where font files come from: returns the bytes of a file like "Carlito-Bold.ttf", or null. */
export interface FontSource {
  load(file: string): Promise<Uint8Array | null>;
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
  /** Advance width of `text` at `size`, pt (with kerning off, as Word does by default). */
  widthOf(text: string, size: number): number;
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
}
