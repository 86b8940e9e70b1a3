/**
 * Fidelity measures of one document: Signet's PDF against LibreOffice's, both read with
 * `pdftotext -bbox` (same tokenizer on both sides).
 *
 * - word recall: share of LibreOffice's words (a multiset, all pages) that Signet's PDF contains;
 * - positions: share of LibreOffice's words that Signet draws on the same page within `tolerance`
 *   pt. Each LibreOffice word, in reading order, takes the nearest not-yet-taken Signet word with
 *   the same text on the same page. Distance is the larger of the left-edge and bottom-edge
 *   differences: the bottom edge sits a font's descent under the baseline, so it moves less than
 *   the top when two PDFs declare slightly different ascents for the same font.
 * - per page (`placedAligned`): the same, page by page, once each LibreOffice page's first text line
 *   is aligned with Signet's (scripts/lib/fidelity-lines.ts): a page broken elsewhere earlier in the
 *   document (drift) no longer costs the pages after it; errors inside a page still count.
 * - `divergence`: the first page where the two part, and how.
 */
import type { PageWords } from "../../test/node/support/libreoffice";
import { alignedPlacement, firstDivergence, matchWords, norm, poolOf, type Divergence } from "./fidelity-lines";

export const POSITION_TOLERANCE_PT = 5;

export interface WordComparison {
  /** LibreOffice's word count (all pages). */
  words: number;
  /** LibreOffice words also present in Signet's output (multiset intersection). */
  recalled: number;
  /** LibreOffice words Signet places on the same page within the tolerance. */
  placed: number;
  /** LibreOffice words in place on their page once the page's first text line is aligned. */
  placedAligned: number;
  /** The first page where the renderings part (none: every line in place, same page count). */
  divergence?: Divergence;
  pagesReference: number;
  pagesOurs: number;
}

function counts(pages: PageWords[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const pg of pages) for (const w of pg.words) m.set(norm(w.text), (m.get(norm(w.text)) ?? 0) + 1);
  return m;
}

export function compareWords(
  reference: PageWords[],
  ours: PageWords[],
  tolerance = POSITION_TOLERANCE_PT,
): WordComparison {
  const refCounts = counts(reference);
  const ourCounts = counts(ours);
  let words = 0;
  let recalled = 0;
  for (const [text, n] of refCounts) {
    words += n;
    recalled += Math.min(n, ourCounts.get(text) ?? 0);
  }

  let placed = 0;
  reference.forEach((refPage, i) => (placed += matchWords(refPage.words, poolOf(ours[i]?.words ?? []), 0, tolerance)));
  return {
    words,
    recalled,
    placed,
    placedAligned: alignedPlacement(reference, ours, tolerance),
    divergence: firstDivergence(reference, ours, tolerance),
    pagesReference: reference.length,
    pagesOurs: ours.length,
  };
}

export interface DocResult {
  name: string;
  /** Signet threw (or timed out): the message. */
  error?: string;
  /** LibreOffice could not convert it: excluded from the measures. */
  referenceError?: string;
  renderMs?: number;
  cmp?: WordComparison;
  /** Glyphs of Signet's PDF a viewer cannot draw (scripts/lib/fidelity-glyphs.ts); null: not checked. */
  brokenGlyphs?: number | null;
}

export interface Totals {
  documents: number;
  /** Documents LibreOffice converted (the ones measured). */
  measured: number;
  renderedWithoutError: number;
  /** Mean of per-document recall over measured documents (a Signet error counts as 0). */
  meanRecall: number;
  /** All recalled words / all LibreOffice words. */
  overallRecall: number;
  equalPageCount: number;
  /** All placed words / all LibreOffice words. */
  placedShare: number;
  /** The same, page by page with each page's first text line aligned. */
  placedAlignedShare: number;
  /** Rendered documents with at least one glyph a viewer cannot draw. */
  withBrokenGlyphs: number;
}

const share = (n: number, d: number) => (d === 0 ? 1 : n / d);

/** A document without words (only pictures) scores 1 when rendered, 0 when Signet failed. */
export function docRecall(d: DocResult): number {
  return d.cmp && !d.error ? share(d.cmp.recalled, d.cmp.words) : 0;
}
export function docPlaced(d: DocResult): number {
  return d.cmp && !d.error ? share(d.cmp.placed, d.cmp.words) : 0;
}
/** Per-page share (first lines aligned); results saved before the measure existed have none. */
export function docPlacedAligned(d: DocResult): number {
  return d.cmp && !d.error ? share(d.cmp.placedAligned ?? Number.NaN, d.cmp.words) : 0;
}

export function totals(results: DocResult[]): Totals {
  const measured = results.filter((d) => !d.referenceError);
  // Words of a document Signet failed on still count in the denominators.
  const wordsOf = (d: DocResult) => d.cmp?.words ?? 0;
  const allWords = measured.reduce((n, d) => n + wordsOf(d), 0);
  return {
    documents: results.length,
    measured: measured.length,
    renderedWithoutError: results.filter((d) => !d.error).length,
    meanRecall: measured.length ? measured.reduce((n, d) => n + docRecall(d), 0) / measured.length : 0,
    overallRecall: share(
      measured.reduce((n, d) => n + (d.cmp?.recalled ?? 0), 0),
      allWords,
    ),
    equalPageCount: measured.filter((d) => d.cmp && d.cmp.pagesOurs === d.cmp.pagesReference).length,
    placedShare: share(
      measured.reduce((n, d) => n + (d.cmp?.placed ?? 0), 0),
      allWords,
    ),
    placedAlignedShare: share(
      measured.reduce((n, d) => n + (d.error ? 0 : (d.cmp?.placedAligned ?? Number.NaN)), 0),
      allWords,
    ),
    withBrokenGlyphs: results.filter((d) => !d.error && (d.brokenGlyphs ?? 0) > 0).length,
  };
}

/** The measures of the fidelity issue's table for one set of documents. */
export interface SetMeasures {
  documents: number;
  meanRecall: number;
  /** Share of documents with as many pages as LibreOffice's. */
  equalPages: number;
  /** All placed words / all LibreOffice words (long documents weigh more). */
  placedShare: number;
  /** Mean and median of the documents' own shares of words within the tolerance. */
  meanDocPlaced: number;
  medianDocPlaced: number;
  /** Documents with at least 90 % of their words in place. */
  docsNinetyPlaced: number;
  /** Per page, first lines aligned: all words, and the mean of the documents' shares. */
  placedAlignedShare: number;
  meanDocPlacedAligned: number;
}

export function setMeasures(results: DocResult[]): SetMeasures {
  const measured = results.filter((d) => !d.referenceError);
  const t = totals(measured);
  const placed = measured.map(docPlaced).sort((a, b) => a - b);
  const mid = placed.length >> 1;
  return {
    documents: measured.length,
    meanRecall: t.meanRecall,
    equalPages: share(t.equalPageCount, measured.length),
    placedShare: t.placedShare,
    meanDocPlaced: placed.length ? placed.reduce((a, b) => a + b, 0) / placed.length : 0,
    medianDocPlaced: placed.length ? (placed.length % 2 ? placed[mid]! : (placed[mid - 1]! + placed[mid]!) / 2) : 0,
    docsNinetyPlaced: placed.filter((p) => p >= 0.9).length,
    placedAlignedShare: t.placedAlignedShare,
    meanDocPlacedAligned: measured.length ? measured.reduce((n, d) => n + docPlacedAligned(d), 0) / measured.length : 0,
  };
}

/**
 * The corpus's sets, by MANIFEST.tsv order: the first 77 documents are those the renderer was tuned
 * on, the rest came later from other projects (the fidelity issue reports them apart).
 */
export const TUNED_SET_SIZE = 77;

/** The DOCX documents in MANIFEST.tsv's order (rows of its first column under docx/, without it). */
export function manifestOrder(manifestTsv: string): string[] {
  return manifestTsv
    .split("\n")
    .slice(1)
    .flatMap((line) => /^docx\/([^\t]+)/.exec(line)?.[1] ?? []);
}

export function corpusSets(results: DocResult[], manifestOrder: string[]): { name: string; results: DocResult[] }[] {
  const rank = new Map(manifestOrder.map((n, i) => [n, i]));
  const tuned = results.filter((d) => (rank.get(d.name) ?? Infinity) < TUNED_SET_SIZE);
  const later = results.filter((d) => !tuned.includes(d));
  return [
    { name: `first ${TUNED_SET_SIZE} (tuned on)`, results: tuned },
    { name: `the ${later.length} after them`, results: later },
  ];
}

/** The issue's table: one Markdown row per set. */
export function setTable(sets: { name: string; results: DocResult[] }[]): string[] {
  const pct = (x: number) => (Number.isNaN(x) ? "-" : `${(100 * x).toFixed(1)} %`);
  return [
    `| set | documents | word recall (mean) | equal pages | words within ${POSITION_TOLERANCE_PT} pt (all words) | per-document mean within ${POSITION_TOLERANCE_PT} pt (median) | documents with ≥ 90 % in place | per page, first lines aligned: all words (per-document mean) |`,
    `|---|---|---|---|---|---|---|---|`,
    ...sets.map(({ name, results }) => {
      const m = setMeasures(results);
      return `| ${name} | ${m.documents === results.length ? m.documents : `${m.documents} of ${results.length}`} | ${pct(m.meanRecall)} | ${pct(m.equalPages)} | ${pct(m.placedShare)} | ${pct(m.meanDocPlaced)} (${pct(m.medianDocPlaced)}) | ${m.docsNinetyPlaced} | ${pct(m.placedAlignedShare)} (${pct(m.meanDocPlacedAligned)}) |`;
    }),
  ];
}
