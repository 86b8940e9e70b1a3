/**
 * Line numbering (w:sectPr/w:lnNumType) as LibreOffice 7.4 imports it from DOCX: a setting of the
 * whole document, not of a section. Once any section has w:lnNumType with a w:countBy of 1 or more,
 * every body paragraph is numbered, in sections without w:lnNumType too (measured); the count, the
 * distance and whether numbers restart on each page are the last such section's. A section's first
 * paragraph starts the count again at w:start + 1 when w:start is above 0, or at 1 when it says
 * w:restart="newSection" and an earlier section already turned numbering on (writerfilter's
 * SectionPropertyMap). Layout draws the numbers (layout/flow/line-numbers.ts).
 */
import type { LineNumberType, LineNumbering, Section } from "./types";
import type { XNode } from "./xml-tree";
import { overlayRun, toRunStyle } from "./properties";
import type { Styles } from "./styles";
import { int, twips } from "./units";

/** LibreOffice's own distance (0.5 cm) when w:distance is absent. */
const DEFAULT_DISTANCE = (0.5 / 2.54) * 72;
/** Counts past this are Word's own limit (ST_DecimalNumber, the dialog stops at 100). */
const MAX_COUNT_BY = 100;
const MAX_START = 32_767;

/** w:lnNumType of a section, if it turns numbering on (w:countBy of 1 or more: LibreOffice needs it). */
export function readLineNumberType(node: XNode | undefined): LineNumberType | undefined {
  const countBy = int(node?.attr("countBy"));
  if (!node || countBy === undefined || countBy < 1) return undefined;
  const restart = node.attr("restart");
  const distance = twips(node.attr("distance"));
  const start = int(node.attr("start")) ?? 0;
  return {
    countBy: Math.min(countBy, MAX_COUNT_BY),
    start: Math.max(0, Math.min(start, MAX_START)),
    restart: restart === "newSection" || restart === "continuous" ? restart : "newPage",
    ...(distance !== undefined && distance >= 0 && distance <= 1584 ? { distance } : {}),
  };
}

/**
 * The document's line numbering from its sections' w:lnNumType, or undefined when none turns it on;
 * sets `lineNumberStart` on the sections whose first paragraph starts the count again.
 */
export function resolveLineNumbering(sections: Section[], styles: Styles): LineNumbering | undefined {
  let last: LineNumberType | undefined;
  for (const s of sections) {
    const type = s.lineNumbers;
    if (!type) continue;
    if (type.start > 0 || (last && type.restart === "newSection")) s.lineNumberStart = type.start + 1;
    last = type;
  }
  if (!last) return undefined;
  return {
    countBy: last.countBy,
    restartEachPage: last.restart === "newPage",
    distance: last.distance ?? DEFAULT_DISTANCE,
    style: toRunStyle(overlayRun(styles.defaultRun, styles.runProps(lineNumberStyle(styles)))),
  };
}

/**
 * LibreOffice 7.4 draws the numbers in its "Line Numbering" character style, which a DOCX style
 * named "Line Number" (or LibreOffice's own "Line Numbering") becomes; Word's lower-case built-in
 * name "line number" is not mapped in 7.4 (measured), nor is the style id read.
 */
function lineNumberStyle(styles: Styles): string | undefined {
  for (const def of styles.byId.values()) {
    if (def.type !== "character") continue;
    const name = def.node.child("name")?.attr("val");
    if (name === "Line Number" || name === "Line Numbering") return def.id;
  }
  return undefined;
}
