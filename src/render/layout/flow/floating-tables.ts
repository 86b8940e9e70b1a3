/**
 * Floating tables (w:tblpPr) in the body, headers and footers. LibreOffice 7.4's DOCX import
 * (writerfilter) turns such a table into a frame anchored at the paragraph after it, placed by its
 * tblpPr, with the text wrapping beside it; in the body only when text could go beside it
 * (SectionPropertyMap::FloatingTableConversion). Here the table becomes a text box float of that
 * paragraph, holding the table at its own width.
 */
import type { Block, Paragraph, Section, Table } from "../../model/types";
import { buildGrid, columnWidths } from "../block/table-grid";
import type { LayoutContext, PageBox } from "../types";

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
  page: PageBox,
  ctx: LayoutContext,
  cache: WeakMap<Paragraph, Paragraph>,
): Block[] {
  const textWidth = page.width - page.left - page.right;
  return anchorTables(blocks, cache, (t, p) => {
    const width = tableWidth(t, textWidth);
    if (!floats(t, width, page, section.columns.count)) return undefined;
    const framed = withFloatingTable(t, p, width, ctx);
    // A frame taller than the body would lose rows off the page (LibreOffice 7.4 does not split it):
    // such a table stays in line, where its rows go on to the next page.
    const bodyHeight = page.height - Math.abs(page.top) - Math.abs(page.bottom);
    return framed && framed.height <= bodyHeight ? framed.paragraph : undefined;
  });
}

/**
 * A header's or footer's blocks (`width` wide) with every floating table made a float of the
 * paragraph after it: LibreOffice converts those whatever their width (DomainMapperTableHandler).
 */
export function floatPartTables(
  blocks: Block[],
  width: number,
  ctx: LayoutContext,
  cache: WeakMap<Paragraph, Paragraph>,
): Block[] {
  return anchorTables(blocks, cache, (t, p) => withFloatingTable(t, p, tableWidth(t, width), ctx)?.paragraph);
}

/** `blocks` with each floating table that `anchor` gives to the paragraph after it taken out. */
function anchorTables(
  blocks: Block[],
  cache: WeakMap<Paragraph, Paragraph>,
  anchor: (t: Table, next: Paragraph) => Paragraph | undefined,
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
    const anchored = cache.get(next) ?? anchor(b, next);
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

/** Width of table `t` laid out in `available` pt. */
function tableWidth(t: Table, available: number): number {
  return columnWidths(t, buildGrid(t), available).reduce((a, w) => a + w, 0);
}

/** `p` holding `t` (`width` wide) as a float at its start, and the float's height; undefined when empty. */
function withFloatingTable(
  t: Table,
  p: Paragraph,
  width: number,
  ctx: LayoutContext,
): { paragraph: Paragraph; height: number } | undefined {
  const anchor = t.float!;
  // Keeps its float: stacked in the frame it is not floated again, but stays a frame's table.
  const inFrame: Table = {
    ...t,
    width: { type: "pt", value: width },
    indent: 0,
    indentToBorder: true,
    align: "left",
  };
  const height = ctx.routines.stackTable(inFrame, width, { ...ctx, inTableCell: false }, 0).bottom;
  if (!(height > 0 && width > 0)) return undefined;
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
  return { paragraph: { ...p, inlines: [box, ...p.inlines] }, height };
}

/** Whether LibreOffice makes a frame of `t` (`width` wide) on `page` with `columns` (FloatingTableConversion). */
function floats(t: Table, width: number, page: PageBox, columns: number): boolean {
  const anchor = t.float!;
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
  return columns > 1;
}
