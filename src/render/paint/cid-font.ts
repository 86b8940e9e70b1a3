/**
 * One embedded font as PDF objects: a Type0 font with Identity-H encoding over a CIDFontType2 whose
 * CIDs are the original glyph ids (CIDToGIDMap /Identity), the subset font file (pdf/font/truetype-subset.ts),
 * widths of the glyphs used, and a ToUnicode CMap so the text can be selected, searched and copied.
 * The objects are written by `finish()`, once every string of the document has been encoded.
 * Streams are compressed with fflate, not pdf-lib's pako: in a profile of a 3-page document (two
 * fonts, loaded machine) pako's deflate took 37 ms of 43 ms painting, fflate level 1 takes 12 ms;
 * level 1 makes the font files 0.7 % larger than level 6.
 */
import type { Font } from "@pdf-lib/fontkit";
import { PDFString, type PDFContext, type PDFRef } from "pdf-lib";
import { strToU8, zlibSync } from "fflate";
import { subsetTrueType } from "../../pdf/font/truetype-subset";
import { cidWidths } from "../../pdf/font/cid-widths";
import { toUnicodeCMap } from "../../pdf/font/to-unicode";
import { glyphAdvance, type LoadedFace } from "../fonts/font-face";
import type { ShapedText, ShapeFlags } from "../fonts/types";
import { isDefaultIgnorable } from "../layout/inline/arabic-joining";
import { num } from "./content-stream";
import { LIMITS } from "../../limits";

export class CidFont {
  readonly ref: PDFRef;
  /** Glyph id → the text it stands for (first use wins), for widths and ToUnicode. */
  private readonly used = new Map<number, string>();
  /** Code point → its glyph id as 4 hex digits (the glyph is marked used when first seen). */
  private readonly hexByCodePoint = new Map<number, string>();
  /** Shaped text (flags, size and text) → its operators; only short texts (words, labels) recur. */
  private readonly shown = new Map<string, string>();
  /** Glyph id → its width in the PDF (1000 units an em). */
  private readonly widths = new Map<number, number>();
  /**
   * Glyphs drawn for a text other than their own, each under its own CID above the font's glyph
   * ids (a CIDToGIDMap stream maps it back to the glyph), so ToUnicode gives the text: characters
   * no glyph draws (all on .notdef: a copy of "水仙花" would read one character three times), a
   * glyph shaping makes for several texts (an alef base for آ and ٱ; a ligature's second letter),
   * mirrored brackets in right-to-left text (")" drawn for a typed "(").
   */
  private readonly aliases = new Map<string, { cid: number; gid: number; text: string; zeroWidth: boolean }>();

  constructor(
    /** The document (or just the context) the font objects are written into. */
    private readonly pdf: { context: PDFContext },
    private readonly font: Font,
    private readonly bytes: Uint8Array,
    private readonly baseName: string,
    /** The face HarfBuzz shapes with (the renderer's); without one, text is drawn a glyph per code point. */
    private readonly face?: LoadedFace,
  ) {
    this.ref = pdf.context.nextRef();
  }

  /** The glyph string for `text` as hex, a glyph per code point from the cmap (no shaping: a signature's appearance). */
  encode(text: string, rtl = false): string {
    return this.encodeDirect(text, rtl);
  }

  /**
   * The operators that draw `text` (one segment, logical order; a right-to-left one comes out in
   * visual order) from the current text position, at `size`: HarfBuzz's glyphs (the face's
   * `shaped`, as layout measured them) in TJ arrays, where a glyph's advance differs from its width
   * in the PDF (kerning, a mark with no advance) an adjustment, where GPOS moves a glyph (a mark over
   * its letter) an offset: sideways in the array, up or down by text rise. Each cluster's text goes
   * to ToUnicode on its widest glyph (a ligature copies as "ffi", a reordered Devanagari syllable as
   * typed), the cluster's other glyphs copy as nothing. `typed`: the characters a left-to-right
   * segment stands for where it draws others (mirrored brackets): drawn glyph by glyph.
   */
  show(text: string, rtl: boolean, size: number, flags: ShapeFlags = {}, typed?: string): string {
    // A zero-width non-joiner: a blank glyph (the space's) under its own CID, no width, its own text.
    if (text === "\u200c") return `<${hex4(this.aliasCid(this.font.glyphForCodePoint(0x20)?.id ?? 0, text, true))}> Tj`;
    if (!rtl && typed !== undefined && typed !== text) return `<${this.encodeTyped(text, typed)}> Tj`;
    if (!this.face) return `<${this.encodeDirect(text, rtl)}> Tj`;
    const key = `${rtl ? 1 : 0}${flags.kern ? 1 : 0}${flags.joinBefore ? 1 : 0}${flags.joinAfter ? 1 : 0}${size}\u0000${text}`;
    const hit = this.shown.get(key);
    if (hit !== undefined) return hit;
    const ops = this.shapedOps(text, size, { ...flags, ...(rtl ? { rtl: true } : {}) });
    if (text.length > MAX_CACHED_TEXT) return ops;
    if (this.shown.size >= LIMITS.paint.shapedTextCacheEntries) this.shown.clear();
    this.shown.set(key, ops);
    return ops;
  }

  private shapedOps(text: string, size: number, flags: ShapeFlags): string {
    const run = this.face!.shaped(text, flags);
    const texts = clusterTexts(run, text);
    const em = 1000 / run.unitsPerEm;
    let out = "";
    let array = "";
    let hex = "";
    let rise = 0;
    let plain = true;
    // Adjustments are carried until they reach half a thousandth of an em (0.006 pt at 11 pt):
    // advances rounded at the size differ from the PDF widths by fractions on nearly every glyph,
    // and writing each made the content stream 1.7 times as long (slower to write and to deflate).
    let pending = 0;
    const adjust = (n: number) => {
      pending += n;
      if (Math.abs(pending) < MIN_ADJUSTMENT) return;
      plain = false;
      if (hex) array += `<${hex}>`;
      hex = "";
      array += ` ${num(pending)} `;
      pending = 0;
    };
    const flush = () => {
      if (hex) array += `<${hex}>`;
      if (array) out += plain ? `${array} Tj ` : `[${array.trim()}] TJ `;
      array = hex = "";
      plain = true;
    };
    for (let i = 0; i < run.glyphs.length; i++) {
      const gid = run.glyphs[i]!;
      const cid = this.cidFor(gid, texts[i]!);
      const dy = run.yOffsets[i]! ? num((run.yOffsets[i]! * size) / run.unitsPerEm) : "0";
      if (dy !== String(rise)) {
        flush();
        out += `${dy} Ts `;
        rise = Number(dy);
      }
      const dx = run.xOffsets[i]! * em;
      if (dx) adjust(-dx);
      hex += hex4(cid);
      adjust(this.pdfWidth(gid) - run.xAdvances[i]! * em + dx);
    }
    flush();
    if (rise) out += "0 Ts ";
    return out.trim();
  }

  /** The CID drawing glyph `gid` for `text`: the glyph itself when first used, or used for the same text. */
  private cidFor(gid: number, text: string): number {
    const known = this.used.get(gid);
    if (gid !== 0 && (known === undefined || known === text)) {
      this.used.set(gid, text);
      return gid;
    }
    return this.aliasCid(gid, text);
  }

  /** The width the PDF's W array gives glyph `gid` and its aliases (1000 units an em; see `finish`). */
  private pdfWidth(gid: number): number {
    let w = this.widths.get(gid);
    if (w === undefined) {
      w = Math.round((glyphAdvance(this.font, gid) * 1000) / (this.font.unitsPerEm || 1000));
      this.widths.set(gid, w);
    }
    return w;
  }

  /** Code point → glyph, no shaping; `reverse` puts a right-to-left segment in visual order. */
  private encodeDirect(text: string, reverse: boolean): string {
    const glyphs: string[] = [];
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      let glyph = this.hexByCodePoint.get(cp);
      if (glyph === undefined) {
        const gid = this.font.glyphForCodePoint(cp)?.id ?? 0;
        if (gid === 0) glyph = hex4(this.aliasCid(0, ch));
        else {
          if (!this.used.has(gid)) this.used.set(gid, ch);
          glyph = hex4(gid);
        }
        this.hexByCodePoint.set(cp, glyph);
      }
      glyphs.push(glyph);
    }
    if (reverse) glyphs.reverse();
    return glyphs.join("");
  }

  /** Left-to-right text drawn with other characters than typed (mirrored brackets): glyphs of `text`, ToUnicode of `typed`. */
  private encodeTyped(text: string, typed: string): string {
    const drawn = [...text];
    const source = [...typed];
    if (drawn.length !== source.length) return this.encodeDirect(text, false);
    let hex = "";
    drawn.forEach((ch, i) => {
      if (ch === source[i]) hex += this.encodeDirect(ch, false);
      else hex += hex4(this.aliasCid(this.font.glyphForCodePoint(ch.codePointAt(0)!)?.id ?? 0, source[i]!));
    });
    return hex;
  }

  /** The CID drawing glyph `gid` for `text` (the glyph itself once the CID space is used up). */
  private aliasCid(gid: number, text: string, zeroWidth = false): number {
    const key = `${gid}\u0000${text}\u0000${zeroWidth ? 1 : 0}`;
    const known = this.aliases.get(key);
    if (known) return known.cid;
    const cid = this.font.numGlyphs + this.aliases.size;
    if (cid > 0xffff || this.aliases.size >= LIMITS.paint.aliasCids) {
      if (!this.used.has(gid)) this.used.set(gid, gid === 0 ? "" : text);
      return gid;
    }
    this.aliases.set(key, { cid, gid, text, zeroWidth });
    return cid;
  }

  /** Writes the font objects (call once, after the last `encode`). */
  finish(): void {
    const ctx = this.pdf.context;
    const font = this.font;
    const upem = font.unitsPerEm || 1000;
    const scale = (n: number) => Math.round((n * 1000) / upem);
    // The subset keeps the glyphs used directly and those drawn under alias CIDs.
    const gids = [...new Set([...this.used.keys(), ...[...this.aliases.values()].map((a) => a.gid)])].sort(
      (a, b) => a - b,
    );

    const subset = subsetTrueType(this.bytes, gids);
    const fontFile = ctx.register(
      ctx.stream(zlibSync(subset, { level: 1 }), { Filter: "FlateDecode", Length1: subset.length }),
    );
    const bbox = font.bbox;
    const italic = (font.italicAngle ?? 0) !== 0;
    const fixedPitch = Boolean((font as unknown as { post?: { isFixedPitch?: number } }).post?.isFixedPitch);
    const descriptor = ctx.register(
      ctx.obj({
        Type: "FontDescriptor",
        FontName: this.baseName,
        Flags: 4 | (fixedPitch ? 1 : 0) | (italic ? 64 : 0),
        FontBBox: [scale(bbox.minX), scale(bbox.minY), scale(bbox.maxX), scale(bbox.maxY)],
        ItalicAngle: font.italicAngle ?? 0,
        Ascent: scale(font.ascent),
        Descent: scale(font.descent),
        CapHeight: scale(font.capHeight || font.ascent),
        StemV: 80,
        FontFile2: fontFile,
      }),
    );

    const widths = cidWidths(gids, (gid) => scale(glyphAdvance(font, gid)));
    const aliases = [...this.aliases.values()];
    if (aliases.length)
      widths.push(
        aliases[0]!.cid,
        aliases.map((a) => (a.zeroWidth ? 0 : scale(glyphAdvance(font, a.gid)))),
      );

    const cidFont = ctx.register(
      ctx.obj({
        Type: "Font",
        Subtype: "CIDFontType2",
        BaseFont: this.baseName,
        CIDSystemInfo: { Registry: PDFString.of("Adobe"), Ordering: PDFString.of("Identity"), Supplement: 0 },
        FontDescriptor: descriptor,
        W: widths,
        CIDToGIDMap: aliases.length
          ? ctx.register(
              ctx.stream(
                cidToGidMap(
                  font.numGlyphs,
                  aliases.map((a) => a.gid),
                ),
                { Filter: "FlateDecode" },
              ),
            )
          : "Identity",
      }),
    );
    // Glyphs that stand for no character of their own (marks split off by shaping) get no entry.
    const mapped = [
      ...gids.filter((g) => this.used.get(g)).map((g) => [g, this.used.get(g)!] as const),
      ...aliases.filter((a) => a.text).map((a) => [a.cid, a.text] as const),
    ];
    const toUnicode = ctx.register(
      ctx.stream(zlibSync(strToU8(toUnicodeCMap(mapped)), { level: 6 }), { Filter: "FlateDecode" }),
    );
    ctx.assign(
      this.ref,
      ctx.obj({
        Type: "Font",
        Subtype: "Type0",
        BaseFont: this.baseName,
        Encoding: "Identity-H",
        DescendantFonts: [cidFont],
        ToUnicode: toUnicode,
      }),
    );
  }
}

const hex4 = (n: number) => n.toString(16).padStart(4, "0");

/** Glyph position adjustments (thousandths of an em) smaller than this are carried to the next glyph. */
const MIN_ADJUSTMENT = 0.5;

/** Texts longer than this (a line's merged words) are drawn once: not kept. */
const MAX_CACHED_TEXT = 64;

/** CIDToGIDMap (compressed): identity for the font's own glyph ids, then the alias CIDs' glyphs. */
function cidToGidMap(numGlyphs: number, aliasGlyphs: number[]): Uint8Array {
  const bytes = new Uint8Array((numGlyphs + aliasGlyphs.length) * 2);
  for (let cid = 0; cid < numGlyphs; cid++) {
    bytes[cid * 2] = cid >> 8;
    bytes[cid * 2 + 1] = cid & 0xff;
  }
  aliasGlyphs.forEach((gid, i) => {
    bytes[(numGlyphs + i) * 2] = gid >> 8;
    bytes[(numGlyphs + i) * 2 + 1] = gid & 0xff;
  });
  return zlibSync(bytes, { level: 6 });
}

/**
 * The text each shaped glyph copies as: a cluster's characters (from its first UTF-16 offset to the
 * next cluster's) on its widest glyph (first of the widest), nothing on its other glyphs. Format characters that draw
 * nothing (direction marks, joiners) are left out of the copied text, except a zero-width non-joiner,
 * which is part of Persian words (LibreOffice's text keeps it).
 */
function clusterTexts(run: ShapedText, text: string): string[] {
  // Clusters are monotone (HarfBuzz's MONOTONE_CHARACTERS level): increasing in visual order left
  // to right, decreasing right to left. A cluster ends where the next one (in logical order) starts.
  const n = run.glyphs.length;
  const rtl = n > 1 && run.clusters[0]! > run.clusters[n - 1]!;
  const out = new Array<string>(n).fill("");
  let i = 0;
  while (i < n) {
    const c = run.clusters[i]!;
    let j = i + 1;
    let carrier = i;
    while (j < n && run.clusters[j] === c) {
      if (run.xAdvances[j]! > run.xAdvances[carrier]!) carrier = j;
      j++;
    }
    // The next cluster in logical order: after this group left to right, before it right to left.
    const k = rtl ? i - 1 : j;
    const end = k >= 0 && k < n && run.clusters[k]! > c ? run.clusters[k]! : nextAbove(run.clusters, c, text.length);
    let t = "";
    for (const ch of text.slice(c, end)) if (ch === "\u200c" || !isDefaultIgnorable(ch.codePointAt(0)!)) t += ch;
    out[carrier] = t;
    i = j;
  }
  return out;
}

/** The smallest cluster value above `c`, else `end` (the fallback when the order is not as expected). */
function nextAbove(clusters: Uint32Array, c: number, end: number): number {
  let best = end;
  for (const v of clusters) if (v > c && v < best) best = v;
  return best;
}
