/**
 * Sections: the page box of a section (hostile sizes made sane), its body between header and
 * footer, its columns, the page of a document without sections and LibreOffice's endnote pages.
 */
import { EMPTY_PARTS, type Block, type Section } from "../../model/types";
import { choosePart, type PartHeights } from "./header-footer";
import type { PageGeometry } from "./pager";
import type { PageBox } from "../types";

/** US Letter with 1-inch margins: the page of a document without sections. */
export const DEFAULT_SECTION: Section = {
  pageWidth: 612,
  pageHeight: 792,
  margins: { top: 72, right: 72, bottom: 72, left: 72, header: 36, footer: 36, gutter: 0 },
  columns: { count: 1, space: 36, separator: false },
  start: "nextPage",
  headers: {},
  footers: {},
  titlePage: false,
  pageNumberFormat: "decimal",
  blocks: [],
};

/** Smallest page side and body height we lay out in (hostile sizes are clamped to it). */
const MIN_PAGE_SIDE = 72;
const MIN_BODY = 12;

/** Margins of LibreOffice's endnote pages (2 cm). */
const ENDNOTE_MARGIN = (2 / 2.54) * 72;

/** Page box of a section with hostile values made sane. */
export function sanePage(s: Section): PageBox {
  const num = (v: number, d: number) => (Number.isFinite(v) ? v : d);
  const width = Math.min(Math.max(num(s.pageWidth, 612), MIN_PAGE_SIDE), 14_400);
  const height = Math.min(Math.max(num(s.pageHeight, 792), MIN_PAGE_SIDE), 14_400);
  let left = Math.max(0, num(s.margins.left, 72)) + Math.max(0, num(s.margins.gutter, 0));
  let right = Math.max(0, num(s.margins.right, 72));
  if (width - left - right < MIN_BODY) {
    left = (width - MIN_BODY) / 2;
    right = left;
  }
  return { width, height, left, right, top: num(s.margins.top, 72), bottom: num(s.margins.bottom, 72) };
}

/** Page box and columns of a page of section `s`; header, footer and margins of its page style's section `st`. */
export function pageGeometry(
  s: Section,
  st: Section,
  evenAndOddHeaders: boolean,
  heights: PartHeights,
  firstOfSection: boolean,
  pageNumber: number,
): PageGeometry {
  const page = sanePage(s);
  const style = sanePage(st);
  // Left and right margins are the page style's too: a section started by a continuous break is
  // laid out between the margins of the page it runs on, on every page until a page break
  // (LibreOffice 7.4, measured); its columns are its own.
  const textWidth = style.width - style.left - style.right;
  const choice = { firstOfSection, pageNumber };
  const headerPart = choosePart(st.headers, st, evenAndOddHeaders, choice, EMPTY_PARTS.header);
  const footerPart = choosePart(st.footers, st, evenAndOddHeaders, choice, EMPTY_PARTS.footer);
  const header = heights.height(headerPart, style.width - style.left - style.right);
  const footer = heights.height(footerPart, style.width - style.left - style.right);
  // A negative top/bottom margin is exact: the body does not move for a tall header/footer. A page
  // without a header (footer) keeps its margin even when the header (footer) distance is larger
  // (LibreOffice turns the header off).
  const top =
    style.top < 0 || headerPart === undefined
      ? Math.abs(style.top)
      : Math.max(style.top, Math.max(0, st.margins.header) + header);
  const bottomMargin =
    style.bottom < 0 || footerPart === undefined
      ? Math.abs(style.bottom)
      : Math.max(style.bottom, Math.max(0, st.margins.footer) + footer);
  let bodyTop = Math.min(Math.max(0, top), page.height - MIN_BODY);
  let bodyBottom = page.height - Math.max(0, bottomMargin);
  if (bodyBottom - bodyTop < MIN_BODY) {
    bodyTop = Math.min(bodyTop, page.height - MIN_BODY);
    bodyBottom = bodyTop + MIN_BODY;
  }
  // LibreOffice centres a whole number of grid lines in the body (measured).
  const pitch = s.lineGrid?.linePitch;
  if (pitch && pitch > 0 && bodyBottom - bodyTop >= pitch) {
    const rest = (bodyBottom - bodyTop) % pitch;
    bodyTop += rest / 2;
    bodyBottom -= rest / 2;
  }
  return {
    width: page.width,
    height: page.height,
    bodyTop,
    bodyBottom,
    columns: columnBoxes(s, style.left, textWidth),
    separator: s.columns.separator,
  };
}

/** LibreOffice's endnote page style: the last section's page size, 2 cm margins, no header or footer. */
export function endnoteSection(last: Section): Section {
  const m = ENDNOTE_MARGIN;
  return {
    ...last,
    margins: { top: m, right: m, bottom: m, left: m, header: 0, footer: 0, gutter: 0 },
    columns: { count: 1, space: 0, separator: false },
    start: "nextPage",
    headers: {},
    footers: {},
    titlePage: false,
    pageNumberStart: undefined,
    blocks: [],
  };
}

/**
 * A section's blocks without the empty paragraph that only carries its section break: LibreOffice
 * drops that paragraph on import, so it takes no room, except when it is the section's only
 * paragraph or the section starts with a table: then it keeps a line of the mark's size (measured
 * with continuous breaks, 13 cases: text, the paragraph, text: dropped; the paragraph alone: kept;
 * a table, text, a table, the paragraph: kept; text, a table, the paragraph: dropped).
 */
export function withoutBreakMark(blocks: Block[]): Block[] {
  const last = blocks[blocks.length - 1];
  if (blocks.length < 2 || last?.type !== "paragraph" || last.numbering) return blocks;
  if (blocks[0]!.type === "table") return blocks;
  const empty = last.inlines.every((i) => i.type === "text" && i.text === "");
  return empty ? blocks.slice(0, -1) : blocks;
}

/** Column boxes of a section (equal widths, or the explicit ones), in page coordinates. */
export function columnBoxes(s: Section, left: number, textWidth: number): { left: number; width: number }[] {
  const count = Math.min(Math.max(1, Math.floor(s.columns.count) || 1), 45);
  if (count === 1) return [{ left, width: textWidth }];
  const explicit = s.columns.widths;
  if (explicit && explicit.length === count) {
    // Explicit widths that do not add up to the text width are scaled to it as LibreOffice does:
    // each column with half the space on its inner sides is scaled, and the spaces themselves stay.
    const gap = (i: number) => (i >= 0 && i < count - 1 ? Math.max(0, explicit[i]!.space) / 2 : 0);
    const total = explicit.reduce((sum, c, i) => sum + Math.max(0, c.width) + gap(i - 1) + gap(i), 0);
    const scale = total > 0 ? textWidth / total : 1;
    const boxes: { left: number; width: number }[] = [];
    let x = left;
    explicit.forEach((c, i) => {
      const share = (Math.max(0, c.width) + gap(i - 1) + gap(i)) * scale;
      boxes.push({ left: x + gap(i - 1), width: Math.max(1, share - gap(i - 1) - gap(i)) });
      x += share;
    });
    return boxes;
  }
  const space = Math.max(0, Math.min(s.columns.space, textWidth / count));
  const width = Math.max(1, (textWidth - space * (count - 1)) / count);
  return Array.from({ length: count }, (_, i) => ({ left: left + i * (width + space), width }));
}
