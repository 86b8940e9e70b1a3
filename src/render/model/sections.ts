/**
 * w:sectPr → Section (page size, margins, columns, start type, header/footer references,
 * page numbering). References a section does not give are inherited from the previous one.
 */
import type { Section } from "./types";
import type { XNode } from "./xml-tree";
import type { Story } from "./context";
import { toNumberFormat } from "./number-format";
import { int, twips, val } from "./units";
import { readLineNumberType } from "./line-numbering";

const MAX_PAGE = 14_400; // pt, Word's largest page side (200 in)

function pageSide(v: number | undefined, fallback: number): number {
  return v !== undefined && v >= 36 && v <= MAX_PAGE ? v : fallback;
}

const START: Record<string, Section["start"]> = {
  nextPage: "nextPage",
  continuous: "continuous",
  evenPage: "evenPage",
  oddPage: "oddPage",
  nextColumn: "nextColumn",
};

/** A Section without blocks; `previous` supplies inherited header/footer references. */
export function readSection(
  sectPr: XNode | undefined,
  story: Story,
  previous: Section | undefined,
): Omit<Section, "blocks"> {
  const pgSz = sectPr?.child("pgSz");
  let w = pageSide(twips(pgSz?.attr("w")), 612);
  let h = pageSide(twips(pgSz?.attr("h")), 792);
  if (pgSz?.attr("orient") === "landscape" && w < h) [w, h] = [h, w];
  const m = sectPr?.child("pgMar");
  const margin = (name: string, fallback: number) => {
    const v = twips(m?.attr(name));
    return v === undefined ? fallback : Math.min(Math.abs(v), MAX_PAGE / 2);
  };
  // A negative top/bottom margin is exact (the body does not move for a tall header): the sign is kept for layout.
  const signedMargin = (name: string, fallback: number) => {
    const v = twips(m?.attr(name));
    return v === undefined ? fallback : Math.sign(v) * Math.min(Math.abs(v), MAX_PAGE / 2);
  };
  const cols = sectPr?.child("cols");
  const count = Math.max(1, Math.min(int(cols?.attr("num")) ?? 1, 45));
  const columns: Section["columns"] = {
    count,
    space: twips(cols?.attr("space")) ?? 36,
    separator: (cols?.attr("sep") ?? "0") !== "0" && cols?.attr("sep") !== "false",
  };
  const explicit = cols?.all("col") ?? [];
  if (explicit.length && cols?.attr("equalWidth") !== "1" && cols?.attr("equalWidth") !== "true") {
    columns.widths = explicit.map((c) => ({
      width: Math.max(0, twips(c.attr("w")) ?? 0),
      space: Math.max(0, twips(c.attr("space")) ?? 0),
    }));
    columns.count = columns.widths.length;
  }
  const refs = (
    kind: "headerReference" | "footerReference",
    inherited: Section["headers"] | undefined,
  ): Section["headers"] => {
    const out: Section["headers"] = { ...inherited };
    for (const ref of sectPr?.all(kind) ?? []) {
      const type = ref.attr("type") ?? "default";
      const rel = story.rels.get(ref.attr("id") ?? "");
      if (!rel || rel.external || !rel.target) continue;
      if (type === "default" || type === "first" || type === "even") out[type] = rel.target;
    }
    return out;
  };
  const titlePg = sectPr?.child("titlePg");
  const pgNum = sectPr?.child("pgNumType");
  const section: Omit<Section, "blocks"> = {
    pageWidth: w,
    pageHeight: h,
    margins: {
      top: signedMargin("top", 72),
      right: margin("right", 72),
      bottom: signedMargin("bottom", 72),
      left: margin("left", 72),
      header: margin("header", 36),
      footer: margin("footer", 36),
      gutter: margin("gutter", 0),
    },
    columns,
    start: START[val(sectPr, "type") ?? "nextPage"] ?? "nextPage",
    headers: refs("headerReference", previous?.headers),
    footers: refs("footerReference", previous?.footers),
    titlePage: !!titlePg && !["0", "false", "off"].includes(titlePg.attr("val") ?? "1"),
    pageNumberFormat: toNumberFormat(pgNum?.attr("fmt")),
  };
  if (sectPr?.child("headerReference") || sectPr?.child("footerReference")) section.ownHeadersFooters = true;
  // LibreOffice restarts footnote numbers on each page only from the section's w:footnotePr (not settings.xml's).
  if (val(sectPr?.child("footnotePr"), "numRestart") === "eachPage") section.footnotesRestartEachPage = true;
  const grid = sectPr?.child("docGrid");
  const gridType = grid?.attr("type");
  const pitch = twips(grid?.attr("linePitch"));
  if (
    (gridType === "lines" || gridType === "linesAndChars" || gridType === "snapToChars") &&
    pitch !== undefined &&
    pitch >= 1 &&
    pitch <= 1584
  ) {
    section.lineGrid = { type: gridType, linePitch: pitch };
  }
  const lineNumbers = readLineNumberType(sectPr?.child("lnNumType"));
  if (lineNumbers) section.lineNumbers = lineNumbers;
  const direction = val(sectPr, "textDirection");
  if (direction === "tbRl" || direction === "tbRlV") section.vertical = true;
  const start = int(pgNum?.attr("start"));
  if (start !== undefined && start >= 0) section.pageNumberStart = start;
  return section;
}
