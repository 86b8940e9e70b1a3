/**
 * One parsed TrueType face behind the FontFace contract: the same file in HarfBuzz (text shaped and
 * measured as LibreOffice shapes it) and in fontkit (coverage, outlines' bounds, the vertical metrics
 * LibreOffice uses for a single-spaced line, the tables paint embeds).
 */
import fontkit from "@pdf-lib/fontkit";
import type { Font } from "@pdf-lib/fontkit";
import type { Shaper, ShapingFace } from "../shaping/harfbuzz";
import { LIMITS } from "../../limits";
import type { FontFace, ShapedText, ShapeFlags } from "./types";

interface VerticalMetrics {
  /** Font units above the baseline, including the line gap. */
  ascent: number;
  /** Font units below the baseline (positive). */
  descent: number;
  /** The line gap's font units (within `ascent`). */
  gap: number;
}

interface Os2Table {
  typoAscender?: number;
  typoDescender?: number;
  typoLineGap?: number;
  winAscent?: number;
  winDescent?: number;
  fsSelection?: { useTypoMetrics?: boolean };
  codePageRange?: number[];
}

/**
 * Single line height as LibreOffice computes it for DOCX (vcl's line spacing from the font):
 * hhea ascender + |descender| + lineGap, the OS/2 typo values instead when the font sets
 * USE_TYPO_METRICS, win metrics only when hhea is empty. The line gap sits above the ascent.
 *
 * Measured with LibreOffice 7 (soffice --convert-to pdf, 12 pt, single spacing, these font files
 * on the fontconfig path), baseline distance / first baseline below the top margin:
 *   Carlito  hhea 1950/-550/0 @2048  → 14.65 / 11.43 pt (measured 14.6 / 11.4)
 *   Caladea  hhea 900/-250/0 @1000   → 13.80 / 10.80 (measured 13.8 / 10.8; win 1050/250 would give 15.6)
 *   Arimo    hhea 1854/-434/67 @2048 → 13.80 / 11.26 (measured 13.8 / 11.3 with Liberation Sans, same hhea)
 *   Tinos    hhea 1825/-443/87 @2048 → 13.80 / 11.20 (measured 13.8 / 11.2; typo 1420/-442/307 would give 12.7)
 *   Cousine  hhea 1705/-615/0 @2048  → 13.59           (measured 13.6)
 *   Noto Sans/Serif hhea 1069/-293/0 @1000 → 16.34 / 12.83 (measured 16.3 / 12.8)
 * A symbol font (OS/2 code page bit 31) has no line gap above its ascent:
 *   OpenSymbol typo 1420/-442/307 @2048 → 10.00 / 7.63 at 11 pt (measured 10.0 / 7.67; with the gap 11.65)
 */
function verticalMetrics(font: Font): VerticalMetrics {
  const hhea = (font as unknown as { hhea?: { ascent: number; descent: number; lineGap: number } }).hhea;
  const os2 = (font as unknown as Record<string, Os2Table | undefined>)["OS/2"];
  const symbol = (os2?.codePageRange?.[0] ?? 0) >>> 31 === 1;
  const gap = (g: number | undefined) => (symbol ? 0 : Math.max(0, g ?? 0));
  if (os2?.fsSelection?.useTypoMetrics && (os2.typoAscender || os2.typoDescender)) {
    return {
      ascent: (os2.typoAscender ?? 0) + gap(os2.typoLineGap),
      descent: Math.abs(os2.typoDescender ?? 0),
      gap: gap(os2.typoLineGap),
    };
  }
  if (hhea && (hhea.ascent || hhea.descent)) {
    return { ascent: hhea.ascent + gap(hhea.lineGap), descent: Math.abs(hhea.descent), gap: gap(hhea.lineGap) };
  }
  return { ascent: os2?.winAscent ?? font.unitsPerEm, descent: os2?.winDescent ?? 0, gap: 0 };
}

/** Per-isolate cache of parsed fonts, keyed by catalog file name. */
const parsed = new Map<string, LoadedFace>();

export function faceFromBytes(file: string, bytes: Uint8Array): LoadedFace {
  const hit = parsed.get(file);
  if (hit) return hit;
  const face = new LoadedFace(file.replace(/\.ttf$/i, ""), bytes);
  parsed.set(file, face);
  return face;
}

/** Shaped texts longer than this (UTF-16 units) are not cached. */
const MAX_CACHED_TEXT = 64;

/** Pixels per point of LibreOffice's layout reference device (VirtualDevice RefDevMode::MSO1, 6 x 1440 dpi). */
const PX_PER_PT = 120;

/**
 * The canonical decomposition of an Arabic letter with a hamza or madda above or below (ۀ U+06C0 =
 * ە + ٔ, آ أ ؤ إ ئ ۂ ۓ), else undefined. A face without the letter draws it this way, as HarfBuzz
 * does in LibreOffice (DejaVu Sans has no U+06C0: LibreOffice draws Persian "کتابخانۀ" with it).
 */
export function decomposedArabic(codePoint: number): string | undefined {
  if (!(
    (codePoint >= 0x622 && codePoint <= 0x626) ||
    codePoint === 0x6c0 ||
    codePoint === 0x6c2 ||
    codePoint === 0x6d3
  ))
    return undefined;
  return String.fromCodePoint(codePoint).normalize("NFD");
}

export class LoadedFace implements FontFace {
  readonly font: Font;
  private readonly unitsPerEm: number;
  private readonly metrics: VerticalMetrics;
  private readonly advances = new Map<number, number>();
  /** Single line heights by font size (a document uses a handful of sizes). */
  private readonly lineHeights = new Map<number, number>();
  private readonly coverage = new Map<number, boolean>();
  /** The face in HarfBuzz (set by `useShaper` before layout). */
  private shaping: ShapingFace | undefined;
  /** Shaped texts, keyed by flags and text (bounded: emptied when full). */
  private readonly shapedCache = new Map<string, ShapedText>();
  /** LibreOffice forms no ligatures in a fixed-pitch face (vcl: SalLayoutFlags for monospaced fonts). */
  private readonly fixedPitch: boolean;

  constructor(
    readonly id: string,
    readonly bytes: Uint8Array,
  ) {
    this.font = fontkit.create(bytes);
    this.unitsPerEm = this.font.unitsPerEm || 1000;
    this.metrics = verticalMetrics(this.font);
    this.fixedPitch = Boolean((this.font as unknown as { post?: { isFixedPitch?: number } }).post?.isFixedPitch);
  }

  /**
   * Loads the face into `shaper` (once; a face is shared by the documents of an isolate, as is its
   * shaper). A file HarfBuzz refuses (over its size limit) is measured unshaped, glyph by glyph.
   */
  useShaper(shaper: Shaper): void {
    if (this.shaping) return;
    this.shapedCache.clear();
    try {
      this.shaping = shaper.face(this.bytes);
    } catch {
      this.shaping = undefined;
    }
  }

  /** Frees the face's memory in the shaper (a document's embedded faces, after painting). */
  releaseShaper(): void {
    this.shaping?.destroy();
    this.shaping = undefined;
    this.shapedCache.clear();
  }

  ascent(size: number): number {
    return (this.metrics.ascent / this.unitsPerEm) * size;
  }

  descent(size: number): number {
    return (this.metrics.descent / this.unitsPerEm) * size;
  }

  /**
   * In whole twips as LibreOffice gets it: vcl rounds the ascender, descender and line gap to
   * pixels of its 8640 dpi reference device (ImplCalcLineSpacing), and Writer converts ascent plus
   * descent to twips in one, the line gap apart (Tinos 10 pt: 1069 + 260 px = 222 tw, 51 px = 9 tw,
   * 11.55 pt where the font units give 11.499). Measured on 7 faces at 27 sizes, 7 to 20 pt.
   */
  lineHeight(size: number): number {
    let height = this.lineHeights.get(size);
    if (height === undefined) {
      height = this.wholeTwipsLine(size);
      this.lineHeights.set(size, height);
    }
    return height;
  }

  private wholeTwipsLine(size: number): number {
    const { ascent, descent, gap } = this.metrics;
    const scale = Math.round(size * PX_PER_PT) / this.unitsPerEm;
    const px = (units: number) => Math.round(units * scale);
    const text = px(ascent - gap) + px(descent);
    return (Math.round(text / 6) + Math.round(px(gap) / 6)) / 20;
  }

  /**
   * `text` shaped by HarfBuzz as LibreOffice shapes a text portion (GSUB and GPOS with the font's
   * default features: ligatures, contextual and joining forms, mark positioning; kerning only when
   * asked; no ligatures in a fixed-pitch face). Joins on either side are given to HarfBuzz as a
   * zero-width joiner of context, outside the shaped text. Without a shaper (a face HarfBuzz
   * refused), one glyph per code point from the cmap.
   */
  shaped(text: string, flags: ShapeFlags = {}): ShapedText {
    const key = `${flags.kern ? 1 : 0}${flags.joinBefore ? 1 : 0}${flags.joinAfter ? 1 : 0}${flags.rtl ? 1 : 0}${text}`;
    let run = this.shapedCache.get(key);
    if (run) return run;
    // A long left-to-right text (paint draws a line's merged words as one) is shaped word by word
    // and space by space, as layout measured it: the words come from the cache, and the line has
    // the advances its pieces were measured with. Long texts themselves are not kept.
    if (text.length > MAX_CACHED_TEXT)
      return !flags.rtl && / /.test(text) ? this.shapedByWords(text, flags) : this.shapeUncached(text, flags);
    run = this.shapeUncached(text, flags);
    if (this.shapedCache.size >= LIMITS.paragraph.shapedCacheEntries) this.shapedCache.clear();
    this.shapedCache.set(key, run);
    return run;
  }

  private shapeUncached(text: string, flags: ShapeFlags): ShapedText {
    return this.shaping ? this.shapeWithHarfBuzz(text, flags) : this.unshaped(text, !!flags.rtl);
  }

  /** `text` shaped a stretch of spaces or of other characters at a time, the runs joined in order. */
  private shapedByWords(text: string, flags: ShapeFlags): ShapedText {
    const parts: { run: ShapedText; at: number }[] = [];
    const chunks = text.match(/ +|[^ ]+/g) ?? [];
    let at = 0;
    chunks.forEach((chunk, i) => {
      const own: ShapeFlags = {};
      if (flags.kern) own.kern = true;
      if (flags.joinBefore && i === 0) own.joinBefore = true;
      if (flags.joinAfter && i === chunks.length - 1) own.joinAfter = true;
      // A long word or run of spaces is shaped alone, uncached (never split again).
      parts.push({
        run: chunk.length > MAX_CACHED_TEXT ? this.shapeUncached(chunk, own) : this.shaped(chunk, own),
        at,
      });
      at += chunk.length;
    });
    const n = parts.reduce((sum, p) => sum + p.run.glyphs.length, 0);
    const out = {
      glyphs: new Uint32Array(n),
      clusters: new Uint32Array(n),
      xAdvances: new Int32Array(n),
      xOffsets: new Int32Array(n),
      yOffsets: new Int32Array(n),
      unitsPerEm: this.unitsPerEm,
    };
    let k = 0;
    for (const { run, at: offset } of parts) {
      out.glyphs.set(run.glyphs, k);
      out.xAdvances.set(run.xAdvances, k);
      out.xOffsets.set(run.xOffsets, k);
      out.yOffsets.set(run.yOffsets, k);
      for (let i = 0; i < run.clusters.length; i++) out.clusters[k + i] = run.clusters[i]! + offset;
      k += run.glyphs.length;
    }
    return out;
  }

  private shapeWithHarfBuzz(text: string, flags: ShapeFlags): ShapedText {
    const pre = flags.joinBefore ? "\u200d" : "";
    const post = flags.joinAfter ? "\u200d" : "";
    const features = [];
    if (!flags.kern) features.push({ tag: "kern", value: 0 });
    if (this.fixedPitch) features.push({ tag: "liga", value: 0 }, { tag: "clig", value: 0 });
    const run = this.shaping!.shape(pre + text + post, {
      start: pre.length,
      end: pre.length + text.length,
      features,
      ...(flags.rtl ? { direction: "rtl" as const } : {}),
    });
    if (pre) for (let i = 0; i < run.clusters.length; i++) run.clusters[i] = run.clusters[i]! - pre.length;
    return run;
  }

  /** One glyph per code point (cmap), its hmtx advance; right to left reversed. */
  private unshaped(text: string, rtl: boolean): ShapedText {
    const cps: { cp: number; at: number }[] = [];
    for (let i = 0; i < text.length;) {
      const cp = text.codePointAt(i)!;
      cps.push({ cp, at: i });
      i += cp > 0xffff ? 2 : 1;
    }
    if (rtl) cps.reverse();
    const n = cps.length;
    const run = {
      glyphs: new Uint32Array(n),
      clusters: new Uint32Array(n),
      xAdvances: new Int32Array(n),
      xOffsets: new Int32Array(n),
      yOffsets: new Int32Array(n),
      unitsPerEm: this.unitsPerEm,
    };
    cps.forEach(({ cp, at }, i) => {
      const gid = this.font.hasGlyphForCodePoint(cp) ? this.font.glyphForCodePoint(cp).id : 0;
      run.glyphs[i] = gid;
      run.clusters[i] = at;
      run.xAdvances[i] = this.advance(cp);
    });
    return run;
  }

  widthOf(text: string, size: number, flags?: ShapeFlags): number {
    // LibreOffice lays text out on a 8640 dpi reference device (1/120 pt a pixel) with the face at
    // a whole pixel size, and HarfBuzz's advances are rounded to whole pixels glyph by glyph
    // before they are summed (Tinos 8 pt "e" is 426 px = 3.55 pt, not 3.5508; a line of 120 of
    // them is 8520 twips wide, measured by where LibreOffice breaks it). Kerned and ligature
    // advances are rounded the same way.
    if (!text) return 0;
    const scale = this.pixelScale(size);
    const adv = this.shaped(text, flags).xAdvances;
    let px = 0;
    for (let i = 0; i < adv.length; i++) px += Math.round(adv[i]! * scale);
    return px / PX_PER_PT;
  }

  /**
   * The advance of each UTF-16 unit of `text` as shaped (pt): a cluster's glyphs on its first unit
   * (a ligature's whole width on its first letter, a mark's on its own unit), 0 on the others. A word
   * broken by characters is cut by these, as LibreOffice cuts a shaped word.
   */
  advancesOf(text: string, size: number, flags?: ShapeFlags): number[] {
    const out = new Array<number>(text.length).fill(0);
    const scale = this.pixelScale(size);
    const run = this.shaped(text, flags);
    for (let i = 0; i < run.glyphs.length; i++) {
      const at = Math.min(run.clusters[i]!, text.length - 1);
      out[at] = out[at]! + Math.round(run.xAdvances[i]! * scale) / PX_PER_PT;
    }
    return out;
  }

  /** Pixels of LibreOffice's reference device per font unit at `size` (the face set at whole pixels). */
  private pixelScale(size: number): number {
    return Math.round(size * PX_PER_PT) / this.unitsPerEm;
  }

  covers(codePoint: number): boolean {
    let c = this.coverage.get(codePoint);
    if (c === undefined) {
      c = this.font.hasGlyphForCodePoint(codePoint) || this.decomposes(codePoint);
      this.coverage.set(codePoint, c);
    }
    return c;
  }

  /** Whether the face draws `codePoint` by its canonical decomposition (see `decomposedArabic`). */
  decomposes(codePoint: number): boolean {
    const parts = decomposedArabic(codePoint);
    return (
      !!parts &&
      !this.font.hasGlyphForCodePoint(codePoint) &&
      [...parts].every((c) => this.font.hasGlyphForCodePoint(c.codePointAt(0)!))
    );
  }

  glyphBounds(codePoint: number, size: number): { top: number; bottom: number } | null {
    if (!this.font.hasGlyphForCodePoint(codePoint)) return null;
    try {
      const box = this.font.glyphForCodePoint(codePoint).bbox;
      return { top: (box.maxY / this.unitsPerEm) * size, bottom: (box.minY / this.unitsPerEm) * size };
    } catch {
      // A glyph fontkit cannot decode: no outline to copy.
      return null;
    }
  }

  private advance(codePoint: number): number {
    let a = this.advances.get(codePoint);
    if (a === undefined) {
      if (this.decomposes(codePoint))
        a = [...decomposedArabic(codePoint)!].reduce((sum, c) => sum + this.advance(c.codePointAt(0)!), 0);
      else a = glyphAdvance(this.font, this.font.glyphForCodePoint(codePoint).id);
      this.advances.set(codePoint, a);
    }
    return a;
  }
}

/**
 * Advance of a glyph in font units, from the hmtx table. Not `glyph.advanceWidth`: fontkit throws
 * computing the metrics of an empty last glyph (Carlito's no-break space, Cousine's U+FEFF).
 */
export function glyphAdvance(font: Font, glyphId: number): number {
  const metrics = (
    font as unknown as { hmtx: { metrics: { length: number; get(i: number): { advance: number } | undefined } } }
  ).hmtx.metrics;
  if (metrics.length === 0) return 0;
  return metrics.get(Math.min(Math.max(0, glyphId), metrics.length - 1))?.advance ?? 0;
}
