/** Paragraph borders shared by neighbours: which paragraphs form one bordered group. */
import type { Border, Paragraph } from "../../model/types";
import { isVisible } from "./table-borders";

/**
 * Consecutive paragraphs with the same borders and indents form one bordered group (Word and
 * LibreOffice): no bottom border between them, no top border below the first (measured: a cell of
 * paragraphs each with a bottom rule shows one rule, under the last).
 */
export function bordersJoin(a: Paragraph, b: Paragraph): boolean {
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
