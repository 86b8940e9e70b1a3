/**
 * Drop caps (w:framePr w:dropCap="drop", made the paragraph's `dropCap` by the model): the letters
 * are set so tall that their glyphs, from their lowest point to their highest, reach from the
 * baseline of the paragraph's line N up to the top of its first line, at the paragraph's start
 * edge, and the first N lines start after them and the frame's distance (LibreOffice's drop
 * portion; measured: a three-line "D" in Ubuntu beside 12 pt text at 1.15 line spacing is 61.2 pt;
 * "D", "W", "A", "Th", "g" in four faces, 2 to 5 lines).
 */
import type { Paragraph } from "../../model/types";
import type { FontFace } from "../../fonts/types";
import type { LayoutContext, PaintItem } from "../types";
import { automaticColor } from "./line-items";

export interface DropCapBox {
  /** Lines beside the letters. */
  lines: number;
  /** Room the letters take at the start of those lines, distance included. */
  width: number;
  face: FontFace;
  size: number;
  text: string;
  /** The letters' own advance. */
  advance: number;
  /** How far the letters' baseline sits above the last line's: their lowest point rests on it. */
  raise: number;
}

/**
 * The drop cap's face, size and room. `lineHeight` is the height of the paragraph's lines and
 * `ascent` the first line's ascent, both before the letters are placed.
 */
export function measureDropCap(p: Paragraph, ctx: LayoutContext, lineHeight: number, ascent: number): DropCapBox | undefined {
  const drop = p.dropCap;
  if (!drop) return undefined;
  const face = ctx.fonts.face({ family: drop.style.font, bold: drop.style.bold, italic: drop.style.italic });
  // The letters' glyph bounds at 1 pt (below the baseline: negative) decide the size.
  let top = 0;
  let bottom = 0;
  for (const ch of drop.text) {
    const b = face.glyphBounds?.(ch.codePointAt(0)!, 1);
    if (b) [top, bottom] = [Math.max(top, b.top), Math.min(bottom, b.bottom)];
  }
  // Letters without outlines (a face fontkit cannot read, spaces): the face's own ascent and descent.
  if (!(top > 0)) [top, bottom] = [face.ascent(1), -face.descent(1)];
  const reach = (drop.lines - 1) * lineHeight + ascent;
  const size = Math.min(Math.max(reach / (top - bottom), 1), 1638);
  const advance = face.widthOf(drop.text, size);
  return { lines: drop.lines, width: advance + drop.distance, face, size, text: drop.text, advance, raise: -bottom * size };
}

/** The letters drawn at `x` on the baseline `y` of the last line beside them (line coordinates). */
export function dropCapItem(p: Paragraph, box: DropCapBox, x: number, y: number): PaintItem {
  return {
    kind: "text",
    x,
    y: y - box.raise,
    text: box.text,
    face: box.face,
    size: box.size,
    color: p.dropCap!.style.color ?? automaticColor(p.dropCap!.style.shading),
    width: box.advance,
  };
}
