/**
 * The unit of inline layout. A paragraph's inlines are cut into measured pieces (pieces.ts): a text
 * piece is one face, one size and one style, never containing a break opportunity (so a line ends
 * only between pieces, except when a word longer than the line is broken by characters); runs of
 * spaces are pieces of their own (they stretch under justification and hang at the end of a line).
 */
import type { FontFace } from "../../fonts/types";
import type { Inline, RunStyle } from "../../model/types";
import type { MathBox } from "../objects/math";
import type { ObjectInline } from "../types";

export interface Piece {
  kind: "text" | "space" | "tab" | "break" | "object" | "float";
  /** Text drawn (caps applied); for spaces the spaces themselves. */
  text: string;
  /** The document's characters where `text` draws others (a symbol font's, mapped), as long as `text`: copied and searched. */
  typed?: string;
  face: FontFace;
  /**
   * Face whose ascent and descent the line uses: the run's own font even where a fallback face
   * draws the glyphs (LibreOffice's glyph fallback does not change line metrics).
   */
  metrics: FontFace;
  /** Drawing size (after superscript/subscript/small caps). */
  size: number;
  /** Advance in pt including character spacing and horizontal scale (0 for tabs until placed). */
  width: number;
  style: RunStyle;
  /** Baseline shift upwards, pt (superscript, w:position). */
  rise: number;
  /** A line may end after this piece. */
  breakAfter: boolean;
  link?: string;
  /** "footnote:ID" / "endnote:ID" of a note reference mark. */
  noteRef?: string;
  /** "footnote:ID" of a note's number (its reference or its own mark) that layout sets per page. */
  noteLabelOf?: string;
  /** A soft hyphen follows: a line ending here shows a hyphen (line-fit.ts adds it). */
  softHyphen?: boolean;
  /**
   * The piece ends after a solidus with whitespace shortly before it: a line ending here ends after
   * that whitespace instead, or, when the whitespace is not on the line, is chopped at the edge
   * (LibreOffice's i#17155, line-break.ts).
   */
  pulledBack?: boolean;
  /** Code unit offsets in `text` of such opportunities inside the piece (the word is not cut there). */
  pulledBackAt?: number[];
  /** The first piece of a run (a LibreOffice text portion, where its line breaking looks again after an underflow). */
  portionStart?: boolean;
  object?: ObjectInline;
  /** The equation an object piece holds, set: its box is `object`'s width and height (ascent), its depth goes below the baseline. */
  math?: MathBox;
  breakKind?: "line" | "page" | "column";
  /** Part of the numbering label (never separated from the first line's text). */
  label?: boolean;
  /** Code points of the text (for character spacing and justification). */
  chars: number;
  /** At a right-to-left (odd) embedding level: drawn right to left as a whole. */
  rtl: boolean;
  /** Bidi embedding level (bidi.ts); every character of a piece has the same. Absent: 0, or 1 when `rtl`. */
  level?: number;
  /**
   * The run's stretch of one script (one LibreOffice text portion) this text belongs to, and
   * whether a fallback face, not the portion's own, draws it: line-items.ts writes a portion's
   * fallback glyphs after its own ones, as LibreOffice's PDF export does.
   */
  portion?: object;
  fallback?: boolean;
  /** Arabic letters joined across a run boundary: the piece's first letter joins the piece before, its last the piece after. */
  joinBefore?: boolean;
  joinAfter?: boolean;
}

/**
 * Superscript/subscript as LibreOffice draws w:vertAlign (automatic escapement): 58 % of the size,
 * raised so its ascent lines up with the run's ascent, or lowered so the descents line up.
 */
export const SUPERSCRIPT_SCALE = 0.58;
/** Small capitals are drawn at 80 % of the size (LibreOffice's and Word's ratio). */
export const SMALL_CAPS_SCALE = 0.8;

/** A stretch of the paragraph's text from one inline (or the numbering label), before it is cut into pieces. */
export interface Atom {
  inline: Inline | null;
  style: RunStyle;
  /** Offset of this atom's text in the paragraph text. */
  start: number;
  text: string;
  /** The document's characters where `text` draws others, as long as `text` (see Piece). */
  typed?: string;
  link?: string;
  noteRef?: string;
  noteLabelOf?: string;
  label?: boolean;
}
