/**
 * Model values for tests that lay out hand-built paragraphs: Word's defaults (Calibri 12 pt, left
 * aligned, single spacing) with the fields a test cares about overridden.
 */
import type { ParagraphStyle, RunStyle } from "../../src/render/model/types";

export const runStyle = (o: Partial<RunStyle> = {}): RunStyle => ({
  font: "Calibri",
  size: 12,
  bold: false,
  italic: false,
  underline: "none",
  strike: false,
  doubleStrike: false,
  color: null,
  highlight: null,
  caps: false,
  smallCaps: false,
  vertAlign: "baseline",
  charSpacing: 0,
  position: 0,
  scale: 100,
  hidden: false,
  rtl: false,
  ...o,
});

export const paragraphStyle = (o: Partial<ParagraphStyle> = {}): ParagraphStyle => ({
  styleId: "Normal",
  align: "left",
  indentLeft: 0,
  indentRight: 0,
  firstLine: 0,
  spaceBefore: 0,
  spaceAfter: 0,
  contextualSpacing: false,
  line: { rule: "auto", value: 1 },
  tabs: [],
  keepNext: false,
  keepLines: false,
  widowControl: true,
  pageBreakBefore: false,
  bidi: false,
  borders: {},
  shading: null,
  ...o,
});
