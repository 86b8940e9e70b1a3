/** Paragraph borders shared by neighbours: which paragraphs form one bordered group. */
import type { Border, Paragraph } from "../../model/types";
import type { PaintItem } from "../types";
import { isVisible, thickness } from "./table-borders";

/**
 * Consecutive paragraphs with the same borders and indents form one bordered group (Word and
 * LibreOffice): no bottom border between them, no top border below the first (measured: a cell of
 * paragraphs each with a bottom rule shows one rule, under the last). A paragraph with a w:between
 * border (even none or nil) joins no paragraph below it: LibreOffice 7.4 imports it with
 * ParaIsConnectBorder off, and that flag of the upper paragraph decides (measured: a between in a
 * style, of any value, gives each paragraph its own box; a plain paragraph above one joins it).
 */
export function bordersJoin(a: Paragraph, b: Paragraph): boolean {
  if (a.style.bordersUnconnected) return false;
  const x = a.style.borders;
  const y = b.style.borders;
  if (!isVisible(x.top) && !isVisible(x.bottom) && !isVisible(x.left) && !isVisible(x.right)) return false;
  const same = (u: Border | undefined, v: Border | undefined) =>
    isVisible(u) === isVisible(v) &&
    (!isVisible(u) ||
      (u!.style === v!.style && u!.width === v!.width && u!.space === v!.space && u!.color === v!.color));
  return (
    same(x.top, y.top) &&
    same(x.bottom, y.bottom) &&
    same(x.left, y.left) &&
    same(x.right, y.right) &&
    a.style.indentLeft === b.style.indentLeft &&
    a.style.indentRight === b.style.indentRight
  );
}

/**
 * Room a paragraph's top or bottom border takes: its thickness (three widths for two-line styles, as
 * LibreOffice) and its space. A border of none takes its space only: the one a paragraph's own between
 * of none leaves (see blocks.ts `betweenAsTopBorder`).
 */
export function paragraphBorderRoom(b: Border | undefined): number {
  if (b?.style === "none") return Math.max(0, b.space || 0);
  return isVisible(b) ? thickness(b) + Math.max(0, b.space || 0) : 0;
}

/**
 * One side of a paragraph's border as a painted line from (x1, y1) to (x2, y2). Paragraph borders know
 * double, dotted and dashed styles only; table borders map more (`table-borders.ts`).
 */
export function paragraphBorderLine(b: Border, x1: number, y1: number, x2: number, y2: number): PaintItem {
  const style =
    b.style === "double"
      ? "double"
      : b.style === "dotted"
        ? "dotted"
        : b.style.startsWith("dash")
          ? "dashed"
          : undefined;
  return { kind: "line", x1, y1, x2, y2, width: b.width, color: b.color, style };
}
