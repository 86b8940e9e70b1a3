import type { ParagraphStyle, RunStyle } from "./types";

/**
 * Styles with nothing of their own but what the caller names: a run in `font` at `size` with no
 * decoration, on the baseline, at full scale; a left-aligned paragraph with single spacing, no
 * indents, spacing, tabs, borders or shading. For text the model makes itself (chart labels,
 * metafile text, equation fallbacks) and for tests that build paragraphs by hand.
 */
export function plainRunStyle(font: string, size: number, o: Partial<RunStyle> = {}): RunStyle {
  return {
    font,
    size,
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
  };
}

export function plainParagraphStyle(o: Partial<ParagraphStyle> = {}): ParagraphStyle {
  return {
    styleId: "",
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
  };
}
