/**
 * A paragraph's frame in the flow: the room its top and bottom borders take (border width plus
 * its space, as LibreOffice and the stacked layout count it) and the shading and border lines drawn
 * around each page's part of the paragraph.
 */
import type { Border, Paragraph } from "../../model/types";
import type { LineBox, PaintItem, ParagraphLayout } from "../types";
import type { PlacedLine } from "./paragraph-pagination";
import { translateItem } from "../items";
import { paragraphBorderLine, paragraphBorderRoom } from "../block/paragraph-borders";

function visible(b: Border | undefined): b is Border {
  return !!b && b.style !== "nil" && b.style !== "none" && Number.isFinite(b.width) && b.width > 0;
}

/** The layout with room for top/bottom borders added to its first and last lines. */
export function withBorderRoom(p: Paragraph, layout: ParagraphLayout): ParagraphLayout {
  const top = paragraphBorderRoom(p.style.borders.top);
  const bottom = paragraphBorderRoom(p.style.borders.bottom);
  if ((top === 0 && bottom === 0) || layout.lines.length === 0) return layout;
  const lines = layout.lines.map((l) => ({ ...l }));
  const first = lines[0]!;
  if (top > 0) {
    first.height += top;
    first.baseline += top;
    first.items = first.items.map((i) => translateItem(i, 0, top));
  }
  const last: LineBox = lines[lines.length - 1]!;
  last.height += bottom;
  return { ...layout, lines };
}

/** One page's (or column's) part of a placed paragraph. */
export interface FramePiece {
  page: number;
  top: number;
  bottom: number;
  left: number;
  width: number;
  /** The piece holds the paragraph's first / last line. */
  first: boolean;
  last: boolean;
  /** The piece starts a page or column with the top border taken again above it (its room is above `top`). */
  topBorder?: boolean;
  /** The piece ends a page or column, the paragraph going on, with the bottom border below it (within `bottom`). */
  bottomBorder?: boolean;
}

/** Groups placed lines into pieces, one per page and column. */
export function framePieces(
  layout: ParagraphLayout,
  placed: PlacedLine[],
  columnWidth: (line: PlacedLine) => number,
): FramePiece[] {
  const pieces: FramePiece[] = [];
  let i = 0;
  while (i < placed.length) {
    const start = placed[i]!;
    let bottom = start.top + (layout.lines[i]?.height ?? 0) + (start.bottomBorder ?? 0);
    let j = i + 1;
    while (j < placed.length && placed[j]!.page === start.page && placed[j]!.left === start.left) {
      bottom = placed[j]!.top + (layout.lines[j]?.height ?? 0) + (placed[j]!.bottomBorder ?? 0);
      j++;
    }
    pieces.push({
      page: start.page,
      top: start.top - (start.topBorder ?? 0),
      ...(start.topBorder ? { topBorder: true } : {}),
      ...(placed[j - 1]!.bottomBorder ? { bottomBorder: true } : {}),
      bottom,
      left: start.left,
      width: columnWidth(start),
      first: i === 0,
      last: j === layout.lines.length,
    });
    i = j;
  }
  return pieces;
}

/**
 * Shading (into `background`) and border lines (into `lines`) of one piece; `groupTop` and
 * `groupBottom`, the borders of the bordered group a joined paragraph belongs to, drawn where a
 * piece takes them again at a page or column edge.
 */
export function paintFrame(
  p: Paragraph,
  piece: FramePiece,
  background: PaintItem[],
  lines: PaintItem[],
  groupTop?: Border,
  groupBottom?: Border,
): void {
  const { borders, shading, indentLeft, indentRight } = p.style;
  const left = piece.left + indentLeft;
  const right = piece.left + piece.width - indentRight;
  if (right <= left || piece.bottom <= piece.top) return;
  if (shading)
    background.push({
      kind: "rect",
      x: left,
      y: piece.top,
      width: right - left,
      height: piece.bottom - piece.top,
      fill: shading,
    });
  const edge = (b: Border, x1: number, y1: number, x2: number, y2: number) =>
    lines.push(paragraphBorderLine(b, x1, y1, x2, y2));
  const top = piece.first || piece.topBorder ? (borders.top ?? groupTop) : undefined;
  if (visible(top)) edge(top, left, piece.top + top.width / 2, right, piece.top + top.width / 2);
  const bottom = piece.last || piece.bottomBorder ? (borders.bottom ?? groupBottom) : undefined;
  if (visible(bottom)) edge(bottom, left, piece.bottom - bottom.width / 2, right, piece.bottom - bottom.width / 2);
  if (visible(borders.left))
    edge(borders.left, left - borders.left.space, piece.top, left - borders.left.space, piece.bottom);
  if (visible(borders.right))
    edge(borders.right, right + borders.right.space, piece.top, right + borders.right.space, piece.bottom);
}
