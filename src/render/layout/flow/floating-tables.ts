/**
 * Floating tables (w:tblpPr) in the body. LibreOffice 7.4's DOCX import (writerfilter) turns such a
 * table into a frame anchored at the paragraph after it, placed by its tblpPr, with the text
 * wrapping beside it, unless no text could go beside it (SectionPropertyMap::FloatingTableConversion):
 * here the table becomes a text box float of that paragraph, holding the table at its own width.
 */
import type { Block, Paragraph, Section, Table } from "../../model/types";
import { buildGrid, columnWidths } from "../block/table-grid";
import type { LayoutContext } from "../types";
import { sanePage } from "./sections";

/**
 * Word keeps a table in line when its width with its wrap distances comes within this of the room
 * (writerfilter's 469 twips), even if a narrow paragraph would fit beside it.
 */
const NO_ROOM_MARGIN = 469 / 20;

/** LibreOffice's default left cell margin, pt: the frame of a table placed by tblpX starts that far left. */
const DEFAULT_CELL_MARGIN = 5.4;

/**
 * `blocks` with each body table LibreOffice makes float taken out and given, as an anchored box,
 * to the paragraph after it (`cache`: the replaced paragraphs, so that a paragraph keeps one
 * identity across balancing trials). Tables followed by anything but a paragraph stay in line.
 */
export function floatTables(
  blocks: Block[],
  section: Section,
  ctx: LayoutContext,
  cache: WeakMap<Paragraph, Paragraph>,
): Block[] {
  if (!blocks.some((b) => b.type === "table" && b.float)) return blocks;
  const out: Block[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    const next = blocks[i + 1];
    if (b.type !== "table" || !b.float || next?.type !== "paragraph") {
      out.push(b);
      continue;
    }
    const known = cache.get(next);
    const anchored = known ?? withFloatingTable(b, next, section, ctx);
    if (!anchored) {
      out.push(b);
      continue;
    }
    cache.set(next, anchored);
    out.push(anchored);
    i++;
  }
  return out;
}

/** `p` holding `t` as a float at its start, or undefined when LibreOffice keeps `t` in line. */
function withFloatingTable(t: Table, p: Paragraph, section: Section, ctx: LayoutContext): Paragraph | undefined {
  const anchor = t.float!;
  const page = sanePage(section);
  const textWidth = page.width - page.left - page.right;
  const width = columnWidths(t, buildGrid(t), textWidth).reduce((a, w) => a + w, 0);
  if (!floats(t, width, section)) return undefined;
  // Keeps its float: stacked in the frame it is not floated again, but stays a frame's table.
  const inFrame: Table = {
    ...t,
    width: { type: "pt", value: width },
    indent: 0,
    indentToBorder: true,
    align: "left",
  };
  const height = ctx.routines.stackTable(inFrame, width, { ...ctx, inTableCell: false }, 0).bottom;
  // A frame taller than the body would lose rows off the page (LibreOffice 7.4 does not split it):
  // such a table stays in line, where its rows go on to the next page.
  if (!(height > 0) || height > page.height - Math.abs(page.top) - Math.abs(page.bottom)) return undefined;
  // Placed by tblpX, the frame starts one left cell margin left of it: the first cell's text is at tblpX.
  const x =
    anchor.x.align === undefined
      ? { ...anchor.x, offset: (anchor.x.offset ?? 0) - (t.cellMarginLeft ?? DEFAULT_CELL_MARGIN) }
      : anchor.x;
  const box: Paragraph["inlines"][number] = {
    type: "box",
    blocks: [inFrame],
    width,
    height,
    style: p.markStyle,
    anchor: { ...anchor, x },
    insets: { left: 0, top: 0, right: 0, bottom: 0 },
  };
  return { ...p, inlines: [box, ...p.inlines] };
}

/** Whether LibreOffice makes a frame of `t` (`width` wide) in `section` (FloatingTableConversion). */
function floats(t: Table, width: number, section: Section): boolean {
  const anchor = t.float!;
  const page = sanePage(section);
  // Placed by offset against the page, in the page's bottom-left quarter: left in line (text
  // would hardly fit beside it, and the table would likely run onto the next page).
  if (
    anchor.x.relativeTo === "page" &&
    anchor.y.relativeTo === "page" &&
    anchor.x.align === undefined &&
    anchor.y.align === undefined &&
    (anchor.x.offset ?? 0) < page.width / 2 &&
    (anchor.y.offset ?? 0) > page.height / 2
  )
    return false;
  const outer = width + anchor.distance.left + anchor.distance.right + NO_ROOM_MARGIN;
  if (outer < page.width - page.left - page.right) return true;
  if (anchor.x.relativeTo === "page" && outer < page.width - Math.min(page.left, page.right)) return true;
  return section.columns.count > 1;
}
