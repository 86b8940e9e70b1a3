/**
 * Line-level views of two renderings, for telling pagination drift from local error:
 *
 * - `alignedPlacement`: words in place page by page once each LibreOffice page's first text line is
 *   aligned with the same line in Signet's output (the per-page measure of `npm run fidelity`);
 * - `firstDivergence`: the first page where the renderings part, and how (the first LibreOffice line
 *   Signet does not draw in place, and where Signet drew it instead).
 *
 * Lines are read back from `pdftotext -bbox` words: consecutive words (poppler's reading order) on
 * one baseline form a line. Both sides go through the same grouping.
 */
import type { PageWords, Word } from "../../test/node/support/libreoffice";

/** Words closer than this to the line's bottom edge are on the same line. */
const SAME_LINE_PT = 2;
/** An anchor (a page's first text line) is looked for among this many of the page's first lines. */
const ANCHOR_LINES = 12;
/** The anchor is looked for in Signet's output this many pages before and after the same page. */
const ANCHOR_PAGES = 2;

export interface TextLine {
  page: number;
  text: string;
  words: Word[];
  /** Bottom edge of the line's first word (pt from the page top). */
  y: number;
  x: number;
}

/** Words compare after NFKC normalisation (ligatures, compatibility forms). */
export const norm = (s: string): string => s.normalize("NFKC");

/** Each page's lines in reading order. */
export function textLines(pages: PageWords[]): TextLine[][] {
  return pages.map((pg, page) => {
    const lines: TextLine[] = [];
    let cur: Word[] = [];
    const flush = () => {
      if (!cur.length) return;
      lines.push({ page, text: cur.map((w) => norm(w.text)).join(" "), words: cur, y: cur[0]!.yMax, x: cur[0]!.xMin });
      cur = [];
    };
    for (const w of pg.words) {
      const last = cur.at(-1);
      if (last && (Math.abs(w.yMax - last.yMax) > SAME_LINE_PT || w.xMin < last.xMin)) flush();
      cur.push(w);
    }
    flush();
    return lines;
  });
}

const distance = (a: Word, b: Word, dy: number) =>
  Math.max(Math.abs(a.xMin - b.xMin), Math.abs(a.yMax - (b.yMax + dy)));

/**
 * Matches `ref` words against `pool` words of the same text (nearest unused one, shifted down by
 * `dy`), taking matched words out of the pool; returns how many lie within `tolerance`.
 */
export function matchWords(ref: Word[], pool: Map<string, Word[]>, dy: number, tolerance: number): number {
  let placed = 0;
  for (const w of ref) {
    const cands = pool.get(norm(w.text));
    if (!cands?.length) continue;
    let best = 0;
    for (let k = 1; k < cands.length; k++) if (distance(w, cands[k]!, dy) < distance(w, cands[best]!, dy)) best = k;
    if (distance(w, cands[best]!, dy) <= tolerance) {
      placed++;
      cands.splice(best, 1);
    }
  }
  return placed;
}

/** Words by their text (NFKC), each list a pool the matching takes words from. */
export function poolOf(words: Word[]): Map<string, Word[]> {
  const m = new Map<string, Word[]>();
  for (const w of words) {
    const key = norm(w.text);
    if (!m.has(key)) m.set(key, []);
    m.get(key)!.push(w);
  }
  return m;
}

/** How often each line text occurs in a document. */
function lineCounts(lines: TextLine[][]): Map<string, number> {
  const m = new Map<string, number>();
  for (const page of lines) for (const l of page) m.set(l.text, (m.get(l.text) ?? 0) + 1);
  return m;
}

export interface Anchor {
  /** Index of the LibreOffice page's line used as anchor. */
  line: number;
  /** Signet's page holding the same line, and how far lower LibreOffice draws it (pt). */
  page: number;
  dy: number;
}

/**
 * Candidate anchors of LibreOffice page `i`: its first text lines that occur once in each document
 * (so a running header or a repeated label is skipped), found in Signet's output within
 * ANCHOR_PAGES pages.
 */
function anchorsOf(
  i: number,
  ref: TextLine[][],
  ours: TextLine[][],
  refCounts: Map<string, number>,
  ourCounts: Map<string, number>,
): Anchor[] {
  const out: Anchor[] = [];
  const lines = ref[i] ?? [];
  for (let k = 0; k < Math.min(lines.length, ANCHOR_LINES); k++) {
    const l = lines[k]!;
    if (refCounts.get(l.text) !== 1 || ourCounts.get(l.text) !== 1) continue;
    for (let p = Math.max(0, i - ANCHOR_PAGES); p <= Math.min(ours.length - 1, i + ANCHOR_PAGES); p++) {
      const hit = ours[p]!.find((o) => o.text === l.text);
      if (hit) out.push({ line: k, page: p, dy: l.y - hit.y });
    }
  }
  return out;
}

const clonePool = (pool: Map<string, Word[]>) => new Map([...pool].map(([k, v]) => [k, [...v]]));

/**
 * Words in place page by page: each LibreOffice page is aligned on one of its first text lines
 * (`anchorsOf`; of those, the one that places most words): the lines from the anchor on are
 * compared with Signet's page holding the anchor, shifted so the two anchor lines coincide; the
 * repeated lines above it (running headers) and pages without an anchor are compared as the strict
 * measure does (same page, no shift), the page's own lines above it count as out of place. A word Signet drew on another page than its page's anchor is out of
 * place, so a page break inside the page still counts, but not the pages broken elsewhere before it.
 */
export function alignedPlacement(reference: PageWords[], ours: PageWords[], tolerance: number): number {
  const ref = textLines(reference);
  const our = textLines(ours);
  const refCounts = lineCounts(ref);
  const ourCounts = lineCounts(our);
  // Each of Signet's pages is a pool of words; a word matched once is taken.
  const pools = ours.map((pg) => poolOf(pg.words));
  const empty = new Map<string, Word[]>();
  let placed = 0;
  ref.forEach((lines, i) => {
    const place = (anchor: Anchor | undefined, commit: boolean) => {
      const split = anchor?.line ?? lines.length;
      const same = commit ? (pools[i] ?? empty) : clonePool(pools[i] ?? empty);
      const other = !anchor
        ? empty
        : anchor.page === i
          ? same
          : commit
            ? pools[anchor.page]!
            : clonePool(pools[anchor.page]!);
      // Above the anchor only repeated lines (running headers) are compared; a line of the page's
      // own text above the anchor is out of place (it is where Signet parted from the page).
      const repeated = lines.slice(0, split).filter((l) => !anchor || refCounts.get(l.text) !== 1);
      const above = matchWords(
        repeated.flatMap((l) => l.words),
        same,
        0,
        tolerance,
      );
      return (
        above +
        (anchor
          ? matchWords(
              lines.slice(split).flatMap((l) => l.words),
              other,
              anchor.dy,
              tolerance,
            )
          : 0)
      );
    };
    let best: Anchor | undefined;
    let bestPlaced = place(undefined, false);
    for (const a of anchorsOf(i, ref, our, refCounts, ourCounts)) {
      const n = place(a, false);
      if (n > bestPlaced) [best, bestPlaced] = [a, n];
    }
    placed += place(best, true);
  });
  return placed;
}

export interface Divergence {
  /** 1-based LibreOffice page where the renderings first part. */
  page: number;
  /**
   * - `line`: a line drawn elsewhere on the same page (`dy`, `dx` say how far);
   * - `earlier-break`: Signet drew the line on a later page (it broke the page earlier);
   * - `later-break`: Signet drew it on an earlier page (it kept more on the page before);
   * - `missing`: the line's text is not found as a line near that page (other line breaks, other text);
   * - `page-count`: every line is in place, but the page counts differ.
   */
  kind: "line" | "earlier-break" | "later-break" | "missing" | "page-count";
  /** The LibreOffice line (text cut to 80 characters) and its bottom edge on its page. */
  text: string;
  y: number;
  /** Where Signet drew it, when found: 1-based page and its offset (Signet minus LibreOffice). */
  oursPage?: number;
  dy?: number;
  dx?: number;
}

/**
 * The first LibreOffice line (pages in order, lines in reading order) that Signet does not draw
 * within `tolerance` on the same page, with most of its words: where the two renderings part.
 */
export function firstDivergence(reference: PageWords[], ours: PageWords[], tolerance: number): Divergence | undefined {
  const ref = textLines(reference);
  const our = textLines(ours);
  for (let i = 0; i < ref.length; i++) {
    const pool = poolOf(ours[i]?.words ?? []);
    for (const l of ref[i]!) {
      if (!/[\p{L}\p{N}\p{S}\p{P}]/u.test(l.text)) continue;
      const placed = matchWords(l.words, pool, 0, tolerance);
      if (placed * 2 > l.words.length) continue;
      const div: Divergence = { page: i + 1, kind: "missing", text: l.text.slice(0, 80), y: round(l.y) };
      // Where Signet drew the same line: the nearest page, then the nearest position.
      let found: TextLine | undefined;
      for (const p of [i, i + 1, i - 1, i + 2, i - 2]) {
        const hits = (our[p] ?? []).filter((o) => o.text === l.text);
        if (hits.length) {
          found = hits.reduce((a, b) => (Math.abs(b.y - l.y) < Math.abs(a.y - l.y) ? b : a));
          break;
        }
      }
      if (found) {
        div.oursPage = found.page + 1;
        div.dy = round(found.y - l.y);
        div.dx = round(found.x - l.x);
        div.kind = found.page === i ? "line" : found.page > i ? "earlier-break" : "later-break";
      } else {
        // The line is broken otherwise: where Signet drew its first word (the nearest one on the page).
        const first = l.words[0]!;
        const same = (ours[i]?.words ?? []).filter((w) => norm(w.text) === norm(first.text));
        if (same.length) {
          const w = same.reduce((a, b) => (distance(first, b, 0) < distance(first, a, 0) ? b : a));
          div.oursPage = i + 1;
          div.dy = round(w.yMax - first.yMax);
          div.dx = round(w.xMin - first.xMin);
        }
      }
      return div;
    }
  }
  if (ref.length !== ours.length)
    return { page: Math.min(ref.length, ours.length) + 1, kind: "page-count", text: "", y: 0 };
  return undefined;
}

const round = (x: number) => Math.round(x * 10) / 10;

/** One line of text for a report: "p3 earlier-break (Signet p4, dy -612.0): "Clause 4 ..."". */
export function describeDivergence(d: Divergence | undefined): string {
  if (!d) return "";
  if (d.kind === "page-count") return `p${d.page} page count`;
  const where =
    d.oursPage === undefined
      ? ""
      : d.kind === "line"
        ? ` (dy ${d.dy}, dx ${d.dx})`
        : d.kind === "missing"
          ? ` (its first word: dy ${d.dy}, dx ${d.dx})`
          : ` (Signet p${d.oursPage})`;
  return `p${d.page} y ${d.y} ${d.kind}${where}: "${d.text}"`;
}
