/**
 * One embedded font as PDF objects: a Type0 font with Identity-H encoding over a CIDFontType2 whose
 * CIDs are the original glyph ids (CIDToGIDMap /Identity), the subset font file (pdf/font/truetype-subset.ts),
 * widths of the glyphs used, and a ToUnicode CMap so the text can be selected, searched and copied.
 * The objects are written by `finish()`, once every string of the document has been encoded.
 * Streams are compressed with fflate, not pdf-lib's pako: in a profile of a 3-page document (two
 * fonts, loaded machine) pako's deflate took 37 ms of 43 ms painting, fflate level 1 takes 12 ms;
 * level 1 makes the font files 0.7 % larger than level 6.
 */
import type { Font, Glyph } from "@pdf-lib/fontkit";
import { PDFString, type PDFContext, type PDFRef } from "pdf-lib";
import { strToU8, zlibSync } from "fflate";
import { subsetTrueType } from "../../pdf/font/truetype-subset";
import { cidWidths } from "../../pdf/font/cid-widths";
import { toUnicodeCMap } from "../../pdf/font/to-unicode";
import { decomposedArabic, glyphAdvance } from "../fonts/font-face";
import { LIMITS } from "../../limits";

/**
 * Word draws no ligatures by default, and layout measured each character's own advance: with
 * ligatures on, painted text would differ from the measured width. Arabic joining forms (init,
 * medi, fina, rlig) stay on: fontkit picks them from the script.
 */
const FEATURES = { liga: false, clig: false, dlig: false };

/**
 * Scripts drawn glyph by glyph without shaping: Latin, Greek, Cyrillic, Armenian, punctuation,
 * symbols, and CJK (ideographs, kana, Hangul syllables, full-width forms: one glyph per character).
 */
const SIMPLE_TEXT =
  /^[\u0000-\u058f\u1d00-\u1fff\u2000-\u2bff\u2e00-\u2e7f\u2e80-\u2fdf\u3000-\u9fff\ua640-\ua69f\ua720-\ua7ff\uac00-\ud7af\uf900-\ufaff\ufb00-\ufb06\ufe20-\ufe2f\ufe30-\ufe4f\uff00-\uffef]*$/u;

export class CidFont {
  readonly ref: PDFRef;
  /** Glyph id → the text it stands for (first use wins), for widths and ToUnicode. */
  private readonly used = new Map<number, string>();
  /** Code point → its glyph id as 4 hex digits (the glyph is marked used when first seen). */
  private readonly hexByCodePoint = new Map<number, string>();
  /** Shaped text ("l"/"r" + text) → its glyph string. */
  private readonly shaped = new Map<string, string>();
  /**
   * Glyphs drawn for a text other than their own, each under its own CID above the font's glyph
   * ids (a CIDToGIDMap stream maps it back to the glyph), so ToUnicode gives the text: characters
   * no glyph draws (all on .notdef: a copy of "水仙花" would read one character three times) and
   * mirrored brackets in right-to-left text (")" drawn for a typed "(").
   */
  private readonly aliases = new Map<string, { cid: number; gid: number; text: string; zeroWidth: boolean }>();

  constructor(
    /** The document (or just the context) the font objects are written into. */
    private readonly pdf: { context: PDFContext },
    private readonly font: Font,
    private readonly bytes: Uint8Array,
    private readonly baseName: string,
  ) {
    this.ref = pdf.context.nextRef();
  }

  /** The glyph string for `text` as hex, 4 digits per glyph id (one segment in logical order; right-to-left segments come out in visual order). */
  encode(text: string, rtl: boolean, typed?: string): string {
    // Letters the font lacks but draws by their decomposition (ۀ as ە + ٔ), as the layout measured them.
    let decomposed = false;
    if (/[\u0622-\u0626\u06c0\u06c2\u06d3]/.test(text)) {
      const drawn = [...text].map((ch) => (this.font.hasGlyphForCodePoint(ch.codePointAt(0)!) ? ch : (decomposedArabic(ch.codePointAt(0)!) ?? ch))).join("");
      decomposed = drawn !== text;
      text = drawn;
    }
    // A zero-width non-joiner: a blank glyph (the space's) under its own CID, no width, its own text.
    if (text === "\u200c") return hex4(this.aliasCid(this.font.glyphForCodePoint(0x20)?.id ?? 0, text, true));
    if (!rtl && typed !== undefined && typed !== text) return this.encodeTyped(text, typed);
    if (!rtl && SIMPLE_TEXT.test(text)) return this.encodeDirect(text, false);
    // fontkit's shaping costs about 0.5 ms a call even for one word (plan and feature setup): the
    // Persian poi__stress004 spent 10 s in it. Words repeat, so glyph strings are kept per font.
    const key = rtl ? `r${text}` : `l${text}`;
    const hit = this.shaped.get(key);
    if (hit !== undefined) return hit;
    // fontkit hands back one shared .notdef glyph whose code points are the first missing
    // character's: text with missing characters is drawn unshaped so each keeps its own CID.
    const hex = this.lacksAnyOf(text) ? this.encodeDirect(text, rtl) : this.shape(text, rtl, decomposed);
    if (this.shaped.size >= LIMITS.paint.shapedTextCacheEntries) this.shaped.clear();
    this.shaped.set(key, hex);
    return hex;
  }

  private shape(text: string, rtl: boolean, decomposed = false): string {
    // Complex scripts and right-to-left text: fontkit shapes (joining forms) and orders the glyphs.
    let glyphs: Glyph[];
    try {
      glyphs = this.font.layout(text, FEATURES as unknown as string[]).glyphs as Glyph[];
    } catch {
      // fontkit's GPOS code throws on some fonts' mark anchors (null anchor): draw the plain glyphs.
      return this.encodeDirect(text, rtl);
    }
    if (decomposed) return this.shapeDecomposed(glyphs, rtl);
    const texts = glyphTexts(glyphs, text, rtl);
    let hex = "";
    glyphs.forEach((g, i) => {
      const chars = texts[i]!;
      if (g.id === 0 && chars) {
        hex += hex4(this.aliasCid(0, chars));
        return;
      }
      const known = this.used.get(g.id);
      if (!known) this.used.set(g.id, chars);
      else if (chars && known !== chars) {
        // One glyph drawing several characters (Noto Sans Arabic's alef base for آ and ٱ): each
        // other text gets a CID of its own, so copied text reads what was typed.
        hex += hex4(this.aliasCid(g.id, chars));
        return;
      }
      hex += hex4(g.id);
    });
    return hex;
  }

  /**
   * Glyphs of text with letters drawn by their decomposition: the base letter's glyph copies as the
   * letter typed (ە + ٔ → ۀ) and its mark as nothing, as LibreOffice's text reads (the glyphs stay
   * in fontkit's order: a right-to-left mark, with no advance, before its base lands over it).
   */
  private shapeDecomposed(glyphs: Glyph[], rtl: boolean): string {
    const list = [...glyphs];
    const isMark = (g: Glyph | undefined) => !!g && g.codePoints?.length === 1 && g.codePoints[0]! >= 0x653 && g.codePoints[0]! <= 0x655;
    let hex = "";
    for (let i = 0; i < list.length; i++) {
      let g = list[i]!;
      let mark: Glyph | undefined;
      if (rtl && isMark(g) && list[i + 1]) [mark, g] = [g, list[++i]!];
      else if (!rtl && isMark(list[i + 1])) mark = list[++i];
      const chars = String.fromCodePoint(...(g.codePoints ?? []));
      const composed = mark ? (chars + String.fromCodePoint(mark.codePoints![0]!)).normalize("NFC") : chars;
      if (mark && [...composed].length === 1) {
        const base = hex4(this.aliasCid(g.id, composed));
        const over = hex4(this.aliasCid(mark.id, ""));
        hex += rtl ? over + base : base + over;
        continue;
      }
      for (const one of mark ? (rtl ? [mark, g] : [g, mark]) : [g]) {
        const text = String.fromCodePoint(...(one.codePoints ?? []));
        if (!this.used.get(one.id)) this.used.set(one.id, text);
        hex += hex4(one.id);
      }
    }
    return hex;
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

  private lacksAnyOf(text: string): boolean {
    for (const ch of text) if (!this.font.hasGlyphForCodePoint(ch.codePointAt(0)!)) return true;
    return false;
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
    const gids = [...new Set([...this.used.keys(), ...[...this.aliases.values()].map((a) => a.gid)])].sort((a, b) => a - b);

    const subset = subsetTrueType(this.bytes, gids);
    const fontFile = ctx.register(ctx.stream(zlibSync(subset, { level: 1 }), { Filter: "FlateDecode", Length1: subset.length }));
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
    if (aliases.length) widths.push(aliases[0]!.cid, aliases.map((a) => (a.zeroWidth ? 0 : scale(glyphAdvance(font, a.gid)))));

    const cidFont = ctx.register(
      ctx.obj({
        Type: "Font",
        Subtype: "CIDFontType2",
        BaseFont: this.baseName,
        CIDSystemInfo: { Registry: PDFString.of("Adobe"), Ordering: PDFString.of("Identity"), Supplement: 0 },
        FontDescriptor: descriptor,
        W: widths,
        CIDToGIDMap: aliases.length
          ? ctx.register(ctx.stream(cidToGidMap(font.numGlyphs, aliases.map((a) => a.gid)), { Filter: "FlateDecode" }))
          : "Identity",
      }),
    );
    // Glyphs that stand for no character of their own (marks split off by shaping) get no entry.
    const mapped = [...gids.filter((g) => this.used.get(g)).map((g) => [g, this.used.get(g)!] as const), ...aliases.filter((a) => a.text).map((a) => [a.cid, a.text] as const)];
    const toUnicode = ctx.register(ctx.stream(zlibSync(strToU8(toUnicodeCMap(mapped)), { level: 6 }), { Filter: "FlateDecode" }));
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
 * The text each shaped glyph stands for. fontkit keeps one glyph object per glyph id with the code
 * points it was first made for, so a glyph shared by several characters (an alef base that a font's
 * ccmp makes for آ, أ and ٱ alike) reports the first one. Such a glyph takes the characters at its
 * place in the text instead (glyph order, from the end for right-to-left, each glyph consuming as
 * many as it reports); where the counts do not add up, the reported code points are kept.
 */
function glyphTexts(glyphs: Glyph[], text: string, rtl: boolean): string[] {
  const reported = glyphs.map((g) => String.fromCodePoint(...(g.codePoints ?? [])));
  // Only a glyph reporting characters the text does not have is stale (a ligature across a mark
  // comes out of order, so positions are trusted only there).
  const has = (t: string) => [...t].every((c) => text.includes(c));
  if (reported.every(has)) return reported;
  const chars = [...text];
  if (reported.reduce((n, t) => n + [...t].length, 0) !== chars.length) return reported;
  let at = rtl ? chars.length : 0;
  return reported.map((t) => {
    const n = [...t].length;
    const from = rtl ? at - n : at;
    at = rtl ? at - n : at + n;
    return has(t) ? t : chars.slice(from, from + n).join("");
  });
}
