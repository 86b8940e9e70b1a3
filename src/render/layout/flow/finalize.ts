/**
 * Finalize: the flow's pages made into laid-out pages, each with what could only be drawn once the
 * whole document was paginated (page numbers and counts in headers and footers, footnote numbers).
 */
import { formatNumber } from "../../model/number-format";
import { EMPTY_PARTS, type DocumentModel, type Section } from "../../model/types";
import type { LaidOutPage, LayoutContext, PaintItem } from "../types";
import { choosePart, pageFieldContext, placePart } from "./header-footer";
import { numberNotesOnPage, type Footnotes } from "./notes";
import { LineCounter } from "./line-numbers";
import type { FlowPage, NumberedLine } from "./pager";
import { sanePage } from "./sections";
import { turnPageBack } from "./vertical";

/**
 * The laid-out pages, once the flow is done and the page count known: behind-text floats, header
 * and footer (their PAGE, NUMPAGES and SECTIONPAGES fields known now), body, footnotes, column
 * separators, in-front floats, footnote numbers that restart per page; a vertical section's pages
 * turned back. `sectionOf`: the section of a page's index.
 */
export function finishPages(
  pages: FlowPage[],
  sectionOf: (index: number) => Section,
  model: DocumentModel,
  notes: Footnotes,
  ctx: LayoutContext,
): LaidOutPage[] {
  const sectionPages = new Map<number, number>();
  for (const p of pages) sectionPages.set(p.section, (sectionPages.get(p.section) ?? 0) + 1);
  const restart = model.footnotesRestartEachPage;
  const noteLabels = new Map<string, string>();
  const numbering = model.lineNumbering;
  // Headers, footers and footnotes record their counted lines when the document numbers lines.
  const partCtx = numbering ? { ...ctx, countLines: true } : ctx;
  const bodyLines = numbering && new LineCounter(numbering, ctx);
  const partLines = numbering && new LineCounter(numbering, ctx);
  // LibreOffice does not export the blank pages odd/even section starts insert (they still count).
  return pages
    .filter((page) => !page.blank)
    .map((page) => {
      const s = sectionOf(page.section);
      const items: PaintItem[] = [...page.background];
      const lines = numbering ? { header: [], notes: [], footer: [] } : undefined;
      paintHeaderFooter(
        page,
        s,
        { numPages: pages.length, sectionPages: sectionPages.get(page.section) ?? 1 },
        model,
        partCtx,
        items,
        lines,
      );
      items.push(...page.items);
      bodyLines?.page(page.numberedLines, items);
      const box = sanePage(s);
      notes.paint(page, box.left, box.width - box.left - box.right, items, lines?.notes);
      if (lines) partLines?.page([...lines.header, ...lines.notes, ...lines.footer], items);
      paintSeparators(page, items);
      items.push(...page.foreground);
      if (restart) numberNotesOnPage(page, { ...restart, perPage: !!s.footnotesRestartEachPage }, noteLabels, items);
      const laidOut = { width: page.width, height: page.height, items };
      return s.vertical ? turnPageBack(laidOut) : laidOut;
    });
}

/** The header and footer a page of section `s` shows, its page fields filled in. */
function paintHeaderFooter(
  page: FlowPage,
  s: Section,
  counts: { numPages: number; sectionPages: number },
  model: DocumentModel,
  base: LayoutContext,
  into: PaintItem[],
  lines?: { header: NumberedLine[]; footer: NumberedLine[] },
): void {
  const box = sanePage(s);
  const width = box.width - box.left - box.right;
  const ctx = pageFieldContext(
    base,
    {
      page: formatNumber(page.number, s.pageNumberFormat),
      pageNumber: page.number,
      sectionFormat: s.pageNumberFormat,
      ...counts,
    },
    formatNumber,
  );
  const choice = { firstOfSection: page.firstOfSection, pageNumber: page.number };
  const header = choosePart(s.headers, s, model.evenAndOddHeaders, choice, EMPTY_PARTS.header);
  const footer = choosePart(s.footers, s, model.evenAndOddHeaders, choice, EMPTY_PARTS.footer);
  const frame = { left: box.left, width, pageHeight: page.height };
  placePart(
    header ? model.headerFooters.get(header) : undefined,
    "header",
    { ...frame, distance: Math.max(0, s.margins.header) },
    ctx,
    into,
    lines?.header,
  );
  placePart(
    footer ? model.headerFooters.get(footer) : undefined,
    "footer",
    { ...frame, distance: Math.max(0, s.margins.footer) },
    ctx,
    into,
    lines?.footer,
  );
}

/** Lines between the columns of a page's regions that ask for them, as tall as the longest column. */
function paintSeparators(page: FlowPage, into: PaintItem[]): void {
  for (const region of page.regions) {
    if (!region.separator || region.columns.length < 2) continue;
    const bottom = Math.max(...region.columnBottoms);
    if (bottom <= region.top) continue;
    for (let c = 1; c < region.columns.length; c++) {
      const left = region.columns[c - 1]!;
      const right = region.columns[c]!;
      const x = (left.left + left.width + right.left) / 2;
      into.push({ kind: "line", x1: x, y1: region.top, x2: x, y2: bottom, width: 0.5, color: null });
    }
  }
}
