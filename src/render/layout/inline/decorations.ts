/**
 * Run decorations drawn with a piece of text: highlight behind it, underline and strike-through
 * over it, placed as LibreOffice places them. Measured on its PDFs (stroke positions at 12 and
 * 24 pt for Carlito, Arimo, Tinos, Caladea): the line thickness is a quarter of the font's descent,
 * the underline's centre sits 0.4 descent below the baseline, and the strike-out's centre 0.28 em
 * above it. LibreOffice ignores the post table's underline values for these fonts (Carlito's would
 * give a line 40 % thicker).
 */
import type { Color } from "../../model/types";
import type { Piece } from "./piece";
import type { PaintItem } from "../types";

const UNDERLINE_DESCENTS = 0.4;
const THICKNESS_DESCENTS = 0.25;
const STRIKE_EM = 0.28;

/** Highlight behind, underline and strike-through over one piece whose baseline is at `y`. */
export function decorate(
  pc: Piece,
  x: number,
  w: number,
  y: number,
  back: PaintItem[],
  lines: PaintItem[],
  textColor: Color | null = pc.style.color,
): void {
  const s = pc.style;
  const size = pc.size;
  if (s.highlight)
    back.push({
      kind: "rect",
      x,
      y: y - pc.metrics.ascent(size),
      width: w,
      height: pc.metrics.lineHeight(size),
      fill: s.highlight,
    });
  if (pc.kind === "object") return;
  const descent = pc.metrics.descent(size);
  const thickness = Math.max(0.1, descent * THICKNESS_DESCENTS);
  if (s.underline !== "none" && !(s.underline === "words" && pc.kind !== "text")) {
    const uy = y + descent * UNDERLINE_DESCENTS;
    const line: PaintItem = {
      kind: "line",
      x1: x,
      y1: uy,
      x2: x + w,
      y2: uy,
      width: thickness * (s.underline === "thick" ? 2 : 1),
      color: s.underlineColor ?? textColor,
    };
    if (s.underline === "double" || s.underline === "dotted" || s.underline === "dashed") line.style = s.underline;
    lines.push(line);
  }
  if (s.strike || s.doubleStrike) {
    const sy = y - size * STRIKE_EM;
    const line: PaintItem = { kind: "line", x1: x, y1: sy, x2: x + w, y2: sy, width: thickness, color: textColor };
    if (s.doubleStrike) line.style = "double";
    lines.push(line);
  }
}
