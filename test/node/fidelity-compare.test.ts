/**
 * The fidelity harness's measures (scripts/lib/fidelity-compare.ts) and its side-by-side images:
 * what `npm run fidelity` reports must mean what the report says.
 */
import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  compareWords,
  corpusSets,
  docPlaced,
  docRecall,
  manifestOrder,
  setMeasures,
  totals,
  type DocResult,
} from "../../scripts/lib/fidelity-compare";
import { encodePng, parsePpm, sideBySide, type Rgb } from "../../scripts/lib/fidelity-images";
import type { PageWords, Word } from "./support/libreoffice";

const w = (text: string, x: number, y: number): Word => ({ text, xMin: x, yMin: y - 10, xMax: x + 20, yMax: y });
const page = (...words: Word[]): PageWords => ({ width: 612, height: 792, words });

describe("compareWords", () => {
  const reference = [page(w("The", 72, 100), w("quick", 100, 100), w("fox", 140, 100)), page(w("Second", 72, 100))];

  it("counts a copy as full recall and every word placed", () => {
    expect(compareWords(reference, reference)).toEqual({
      words: 4,
      recalled: 4,
      placed: 4,
      placedAligned: 4,
      divergence: undefined,
      pagesReference: 2,
      pagesOurs: 2,
    });
  });

  it("places words moved by up to 5 pt and not those moved further", () => {
    const shifted = (dx: number, dy: number) =>
      reference.map((pg) => page(...pg.words.map((x) => w(x.text, x.xMin + dx, x.yMax + dy))));
    expect(compareWords(reference, shifted(4, -5)).placed).toBe(4);
    expect(compareWords(reference, shifted(0, 5.5)).placed).toBe(0);
    expect(compareWords(reference, shifted(6, 0)).recalled).toBe(4);
  });

  it("needs the same page: a word pushed to the next page is recalled but not placed", () => {
    const ours = [page(w("The", 72, 100), w("quick", 100, 100)), page(w("fox", 140, 100), w("Second", 72, 100))];
    expect(compareWords(reference, ours)).toMatchObject({ recalled: 4, placed: 3, pagesOurs: 2 });
  });

  it("treats words as a multiset and matches each of ours once, nearest first", () => {
    const ref = [page(w("the", 72, 100), w("the", 200, 100), w("the", 72, 300))];
    const ours = [page(w("the", 201, 101), w("the", 73, 99))];
    expect(compareWords(ref, ours)).toMatchObject({ words: 3, recalled: 2, placed: 2 });
  });

  it("compares text after NFKC normalisation (ligatures, compatibility forms)", () => {
    expect(compareWords([page(w("office", 72, 100))], [page(w("o\uFB03ce", 72, 100))]).placed).toBe(1);
  });
});

describe("per-page measure and first divergence", () => {
  /** A document of `n` one-word lines, 20 pt apart, `perPage` a page, starting at y = 100. */
  const doc = (n: number, perPage: number, shift = (_line: number) => 0) => {
    const pages: PageWords[] = [];
    for (let i = 0; i < n; i++) {
      const k = i % perPage;
      if (k === 0) pages.push(page());
      pages.at(-1)!.words.push(w(`line${i}`, 72, 100 + 20 * k + shift(i)));
    }
    return pages;
  };

  it("a page broken one line earlier costs the strict measure every later page, the per-page measure only the lines pushed on each page", () => {
    const lo = doc(30, 10);
    const ours = doc(30, 9);
    const cmp = compareWords(lo, ours);
    expect(cmp.placed).toBe(9);
    // Each LibreOffice page is aligned on its first line: only the lines Signet pushed to the next page are out of place
    // (one more on each page, as each of Signet's pages holds a line less).
    expect(cmp.placedAligned).toBe(9 + 8 + 7);
    expect(cmp.divergence).toMatchObject({ page: 1, kind: "earlier-break", text: "line9", oursPage: 2 });
  });

  it("a page broken one line later is a later break on the next page", () => {
    const cmp = compareWords(doc(30, 10), doc(30, 11));
    expect(cmp.divergence).toMatchObject({ page: 2, kind: "later-break", text: "line10", oursPage: 1 });
    // Page 2 is aligned on its second line, the first that Signet draws on its page 2 (page 3 on its third).
    expect(cmp.placedAligned).toBe(10 + 9 + 8);
  });

  it("a line drawn lower on its page: the offset and the line where the renderings part", () => {
    const cmp = compareWords(
      doc(10, 10),
      doc(10, 10, (i) => (i >= 4 ? 7 : 0)),
    );
    expect(cmp.placed).toBe(4);
    expect(cmp.divergence).toMatchObject({ page: 1, kind: "line", text: "line4", dy: 7, dx: 0 });
  });

  it("a running header repeated on every page is not an anchor: the body is aligned on its own first line", () => {
    const withHeader = (pages: PageWords[]) => pages.map((pg) => page(w("Header", 72, 50), ...pg.words));
    const cmp = compareWords(withHeader(doc(30, 10)), withHeader(doc(30, 9)));
    expect(cmp.placedAligned).toBe(3 + 9 + 8 + 7);
    expect(cmp.placed).toBe(1 + 9 + 1 + 1);
  });

  it("all lines in place with another page count: the divergence is the page count", () => {
    const lo = doc(10, 10);
    expect(compareWords(lo, [...lo, page()]).divergence).toEqual({ page: 2, kind: "page-count", text: "", y: 0 });
  });
});

describe("totals", () => {
  it("scores a document without words as 1 when rendered and 0 when Signet failed", () => {
    const pictureOnly = [page()];
    expect(docRecall({ name: "a", cmp: compareWords(pictureOnly, pictureOnly) })).toBe(1);
    expect(docRecall({ name: "b", error: "boom", cmp: compareWords(pictureOnly, []) })).toBe(0);
    expect(docPlaced({ name: "b", error: "boom", cmp: compareWords(pictureOnly, []) })).toBe(0);
  });

  it("keeps the words of a document Signet failed on in the denominators", () => {
    const ref = [page(w("a", 1, 1), w("b", 30, 1), w("c", 60, 1))];
    const results: DocResult[] = [
      { name: "ok.docx", cmp: compareWords(ref, ref), renderMs: 5, brokenGlyphs: 2 },
      { name: "fails.docx", error: "boom", cmp: compareWords(ref, []) },
      { name: "lo-fails.docx", referenceError: "timeout" },
    ];
    expect(docRecall(results[1]!)).toBe(0);
    expect(docPlaced(results[0]!)).toBe(1);
    expect(totals(results)).toEqual({
      documents: 3,
      measured: 2,
      renderedWithoutError: 2,
      meanRecall: 0.5,
      overallRecall: 0.5,
      equalPageCount: 1,
      placedShare: 0.5,
      placedAlignedShare: 0.5,
      withBrokenGlyphs: 1,
    });
  });
});

describe("side-by-side images", () => {
  const solid = (width: number, height: number, rgb: number[]): Rgb => {
    const data = new Uint8Array(width * height * 3);
    for (let i = 0; i < data.length; i += 3) data.set(rgb, i);
    return { width, height, data };
  };

  it("reads pdftoppm's PPM header, comments included", () => {
    const header = new TextEncoder().encode("P6\n# pdftoppm\n2 1\n255\n");
    const ppm = new Uint8Array([...header, 1, 2, 3, 4, 5, 6]);
    expect(parsePpm(ppm)).toEqual({ width: 2, height: 1, data: new Uint8Array([1, 2, 3, 4, 5, 6]) });
  });

  it("puts the first image left and the second right in a valid PNG", () => {
    const img = sideBySide([solid(3, 2, [255, 0, 0]), solid(2, 4, [0, 0, 255])], 1);
    expect([img.width, img.height]).toEqual([3 + 2 + 3, 4 + 2]);
    const png = encodePng(img);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const dv = new DataView(png.buffer, png.byteOffset);
    expect([dv.getUint32(16), dv.getUint32(20)]).toEqual([8, 6]);
    // Decode the single IDAT chunk and read pixels back.
    const idatLength = dv.getUint32(33);
    const raw = inflateSync(png.subarray(41, 41 + idatLength));
    const px = (x: number, y: number) => [
      ...raw.subarray(y * (8 * 3 + 1) + 1 + x * 3, y * (8 * 3 + 1) + 1 + x * 3 + 3),
    ];
    expect(px(1, 1)).toEqual([255, 0, 0]);
    expect(px(5, 1)).toEqual([0, 0, 255]);
    expect(px(5, 4)).toEqual([0, 0, 255]);
    expect(px(1, 4)).toEqual([0x90, 0x90, 0x90]); // below the shorter image: background
  });
});

describe("setMeasures and the corpus sets", () => {
  const doc = (
    name: string,
    words: number,
    placed: number,
    pages = [1, 1],
    extra: Partial<DocResult> = {},
  ): DocResult => ({
    name,
    cmp: {
      words,
      recalled: words,
      placed,
      placedAligned: Math.min(words, placed + 5),
      pagesReference: pages[0]!,
      pagesOurs: pages[1]!,
    },
    ...extra,
  });

  it("gives the issue's columns: pooled and per-document shares, their median, documents with 90 % in place", () => {
    const m = setMeasures([
      doc("a", 100, 100),
      doc("b", 300, 30, [2, 3]),
      doc("c", 100, 95),
      doc("x", 5, 0, [1, 1], { referenceError: "LibreOffice failed" }),
    ]);
    expect(m.documents).toBe(3);
    expect(m.equalPages).toBeCloseTo(2 / 3);
    expect(m.placedShare).toBeCloseTo(225 / 500);
    expect(m.meanDocPlaced).toBeCloseTo((1 + 0.1 + 0.95) / 3);
    expect(m.medianDocPlaced).toBeCloseTo(0.95);
    expect(m.docsNinetyPlaced).toBe(2);
    // The per-page measure beside them: 100 + 35 + 100 of 500 words, documents 1, 35/300 and 1.
    expect(m.placedAlignedShare).toBeCloseTo(235 / 500);
    expect(m.meanDocPlacedAligned).toBeCloseTo((1 + 35 / 300 + 1) / 3);
  });

  it("splits the corpus by MANIFEST order: the first 77 documents, then the rest", () => {
    const names = Array.from({ length: 80 }, (_, i) => `d${i}.docx`);
    const manifest = `relative_path\tsource\npdf/a.pdf\trepo\n${names.map((n) => `docx/${n}\trepo`).join("\n")}\n`;
    const order = manifestOrder(manifest);
    expect(order).toHaveLength(80);
    const [tuned, later] = corpusSets(
      [...names].reverse().map((n) => doc(n, 10, 10)),
      order,
    );
    expect(tuned!.results.map((d) => d.name).sort()).toEqual(names.slice(0, 77).sort());
    expect(later!.results.map((d) => d.name).sort()).toEqual(names.slice(77).sort());
  });
});
