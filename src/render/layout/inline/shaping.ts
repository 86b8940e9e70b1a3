/**
 * Widths of text as HarfBuzz shapes it (fonts/font-face.ts `shaped`), for pieces: the run's kerning
 * (w:kern), joins across run boundaries inside an Arabic word, presentation forms typed into the
 * document read as their letters. Bidi, line breaking and kashida justification stay ours.
 */
import type { FontFace, ShapeFlags } from "../../fonts/types";
import type { RunStyle } from "../../model/types";
import { fromPresentationForms } from "./arabic-joining";

/** How a piece's text is shaped: kerned where its run asks for it, joined where its word goes on. */
export function shapeFlags(pc: {
  style: Pick<RunStyle, "kern">;
  joinBefore?: boolean;
  joinAfter?: boolean;
}): ShapeFlags {
  const flags: ShapeFlags = {};
  if (pc.style.kern) flags.kern = true;
  if (pc.joinBefore) flags.joinBefore = true;
  if (pc.joinAfter) flags.joinAfter = true;
  return flags;
}

/** The advance of `text` at `size`, pt, shaped (each glyph rounded to LibreOffice's 1/120 pt). */
export function shapedWidth(face: FontFace, text: string, size: number, flags?: ShapeFlags): number {
  return face.widthOf(fromPresentationForms(text), size, flags);
}

/**
 * The advance of each UTF-16 unit of `text` as shaped in the whole text (a cluster's width on its
 * first unit), or undefined where the face cannot say (then each character is measured alone).
 */
export function shapedAdvances(face: FontFace, text: string, size: number, flags?: ShapeFlags): number[] | undefined {
  if (!face.advancesOf || fromPresentationForms(text) !== text) return undefined;
  return face.advancesOf(text, size, flags);
}
