/**
 * Anchored objects: where a float goes (wp:positionH/positionV against page, margin, column,
 * paragraph or line), what its wrap does to text (square/tight/through → text beside it on the
 * wider side, topAndBottom → text below), and the exclusions paragraphs beside it lay out with.
 * Best effort, never fails.
 */
import type { Anchor } from "../../model/types";
import type { Exclusions } from "../types";

/** A floating object placed on a page, with what it does to text next to it. */
export interface PlacedFloat {
  x: number;
  y: number;
  width: number;
  height: number;
  /** square: text beside it on one side; topAndBottom: text below; none: no effect. */
  wrap: "square" | "topAndBottom" | "none";
  /** Side of the float where text flows, for square wrap. */
  textSide: "left" | "right";
  distance: { top: number; bottom: number; left: number; right: number };
}

/** The boxes an anchor can be relative to, in page coordinates. */
export interface AnchorFrame {
  pageWidth: number;
  pageHeight: number;
  margins: { top: number; right: number; bottom: number; left: number };
  column: { left: number; width: number };
  /** Top of the anchoring paragraph and of the line holding the anchor. */
  paragraphTop: number;
  lineTop: number;
}

/** Narrower than this, a side is not worth flowing text into (Word then skips past the float). */
const MIN_TEXT_WIDTH = 36;

function alignIn(
  start: number,
  extent: number,
  size: number,
  align: string | undefined,
  offset: number | undefined,
): number {
  switch (align) {
    case "center":
      return start + (extent - size) / 2;
    case "right":
    case "bottom":
    case "outside":
      return start + extent - size;
    case "left":
    case "top":
    case "inside":
      return start;
    default:
      return start + (offset ?? 0);
  }
}

/**
 * Offset of a float's top from its line's top. LibreOffice 7.4 takes a DOCX offset relative to the
 * line (positionV relativeFrom="line") upwards: +20 pt puts the picture 20 pt above the line's top,
 * -20 pt below it (measured in the body and in table cells), where Word puts it the other way.
 */
export function lineOffset(anchor: Anchor): number {
  return -(anchor.y.offset ?? 0);
}

/** Top-left corner of a float of `width` x `height` anchored by `anchor` within `frame`. */
export function positionFloat(
  anchor: Anchor,
  width: number,
  height: number,
  frame: AnchorFrame,
): { x: number; y: number } {
  const m = frame.margins;
  const textWidth = frame.pageWidth - m.left - m.right;
  let hx: [number, number];
  switch (anchor.x.relativeTo) {
    case "page":
      hx = [0, frame.pageWidth];
      break;
    case "column":
    case "character":
      hx = [frame.column.left, frame.column.width];
      break;
    case "leftMargin":
    case "insideMargin":
      hx = [0, m.left];
      break;
    case "rightMargin":
    case "outsideMargin":
      hx = [frame.pageWidth - m.right, m.right];
      break;
    default:
      hx = [m.left, textWidth];
  }
  let vy: [number, number];
  switch (anchor.y.relativeTo) {
    case "page":
      vy = [0, frame.pageHeight];
      break;
    case "paragraph":
      vy = [frame.paragraphTop, 0];
      break;
    case "line":
      vy = [frame.lineTop, 0];
      break;
    case "topMargin":
      vy = [0, m.top];
      break;
    case "bottomMargin":
      vy = [frame.pageHeight - m.bottom, m.bottom];
      break;
    default:
      vy = [m.top, frame.pageHeight - m.top - m.bottom];
  }
  let x = alignIn(hx[0], hx[1], width, anchor.x.align, anchor.x.offset);
  // Paragraph/line alignments have no extent: align top is the reference itself.
  const yOffset = anchor.y.relativeTo === "line" ? lineOffset(anchor) : anchor.y.offset;
  let y = vy[1] === 0 && anchor.y.align ? vy[0] : alignIn(vy[0], vy[1], height, anchor.y.align, yOffset);
  const d = anchor.distance;
  if (anchor.distanceInside) {
    x += inside(anchor.x.align, d.left, d.right);
    y += inside(anchor.y.align, d.top, d.bottom);
  } else if (anchor.wrap !== "none" && (anchor.x.relativeTo === "page" || anchor.rightDistanceInside)) {
    // An object text wraps around, aligned left or right on the page (or a shape aligned right
    // anywhere), keeps its wrap distance inside (LibreOffice, measured: a picture aligned left on the
    // page with 18 pt distances stands 18 pt in; one placed by an offset stays where it says).
    x += inside(anchor.x.align, d.left, d.right);
  }
  // Keep the object on the page, as both Word and LibreOffice do by default.
  x = clamp(x, Math.min(0, frame.pageWidth - width), Math.max(0, frame.pageWidth - width));
  y = clamp(y, Math.min(0, frame.pageHeight - height), Math.max(0, frame.pageHeight - height));
  return { x: finite(x), y: finite(y) };
}

/** How far an alignment keeping the wrap distances inside its reference moves the object. */
function inside(align: string | undefined, before: number, after: number): number {
  if (align === "left" || align === "top" || align === "inside") return before;
  if (align === "right" || align === "bottom" || align === "outside") return -after;
  return 0;
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(Math.max(v, lo), hi);
}

function finite(v: number): number {
  return Number.isFinite(v) ? v : 0;
}

/**
 * What a float does to text in a column: square-like wraps keep text on the wider side (or the
 * side the anchor asks for); a side too narrow for text turns it into top-and-bottom.
 */
export function floatWrap(
  anchor: Anchor,
  x: number,
  width: number,
  column: { left: number; width: number },
): Pick<PlacedFloat, "wrap" | "textSide"> {
  if (anchor.behindText || anchor.wrap === "none") return { wrap: "none", textSide: "left" };
  if (anchor.wrap === "topAndBottom") return { wrap: "topAndBottom", textSide: "left" };
  const leftRoom = x - anchor.distance.left - column.left;
  const rightRoom = column.left + column.width - (x + width + anchor.distance.right);
  let side: "left" | "right";
  if (anchor.wrapSide === "left") side = "left";
  else if (anchor.wrapSide === "right") side = "right";
  else side = leftRoom >= rightRoom ? "left" : "right";
  const room = side === "left" ? leftRoom : rightRoom;
  if (room < MIN_TEXT_WIDTH) return { wrap: "topAndBottom", textSide: side };
  return { wrap: "square", textSide: side };
}

/**
 * Exclusions for a paragraph whose box is `box` and whose first line starts at `top` on a page
 * holding `floats`: lines beside a square-wrapped float get narrower on that side.
 */
export function exclusionsFor(
  floats: readonly PlacedFloat[],
  box: { left: number; width: number },
  top: number,
): Exclusions | undefined {
  const relevant = floats.filter((f) => f.wrap === "square" && f.x < box.left + box.width && f.x + f.width > box.left);
  if (relevant.length === 0) return undefined;
  return (lineTop: number, height: number) => {
    let left = 0;
    let right = 0;
    const y0 = top + lineTop;
    const y1 = y0 + height;
    for (const f of relevant) {
      if (f.y - f.distance.top >= y1 || f.y + f.height + f.distance.bottom <= y0) continue;
      if (f.textSide === "right") left = Math.max(left, f.x + f.width + f.distance.right - box.left);
      else right = Math.max(right, box.left + box.width - (f.x - f.distance.left));
    }
    return { left: Math.max(0, left), right: Math.max(0, right) };
  };
}

/** Whether any square float on the page overlaps the vertical range [y0, y1) within the box. */
export function floatsBeside(
  floats: readonly PlacedFloat[],
  box: { left: number; width: number },
  y0: number,
  y1: number,
): boolean {
  return floats.some(
    (f) =>
      f.wrap === "square" &&
      f.x < box.left + box.width &&
      f.x + f.width > box.left &&
      f.y - f.distance.top < y1 &&
      f.y + f.height + f.distance.bottom > y0,
  );
}
