/**
 * The certificate page's fonts as PDF objects: a Type0 font (Identity-H) over a CIDFontType2 whose CIDs
 * are the font's own glyph ids, the font file subset to the glyphs the page draws (glyph ids kept:
 * pdf/font/truetype-subset.ts), its widths and a ToUnicode CMap so the page's text can be copied.
 *
 * What does not depend on the request is done once per isolate: each font is parsed once (font-metrics.ts)
 * and its embedded objects are kept per glyph set, so a page drawing the same glyphs as an earlier one
 * costs no subsetting and no compression. A different name or trail adds a glyph set (at most
 * SUBSETS_PER_FONT kept per font, least recently used dropped; a new one takes about a millisecond).
 */
import { strToU8, zlibSync } from "fflate";
import { cidWidths } from "../pdf/font/cid-widths";
import { toUnicodeCMap } from "../pdf/font/to-unicode";
import { subsetTrueType } from "../pdf/font/truetype-subset";
import { streamBody } from "../pdf/writer/appendable-pages";
import { latin1Bytes } from "../util/bytes";
import { parseFontMetrics, type FontMetrics } from "./font-metrics";

const SUBSETS_PER_FONT = 32;

interface EmbeddedSubset {
  /** Six capital letters naming the subset (ISO 32000-2 §9.9.2), from its glyph set. */
  tag: string;
  fontFile: Uint8Array;
  widths: string;
  toUnicode: Uint8Array;
}

/** One font of the page, parsed once per isolate (per font file). */
export class PageFont {
  readonly metrics: FontMetrics;
  private readonly subsets = new Map<string, EmbeddedSubset>();

  private constructor(
    private readonly bytes: Uint8Array,
    /** PostScript-style name written as /BaseFont (after the subset tag). */
    readonly baseName: string,
  ) {
    this.metrics = parseFontMetrics(bytes);
  }

  private static readonly loaded = new WeakMap<ArrayBufferLike, Map<string, PageFont>>();

  /** The font for these bytes, parsed on first use in this isolate. */
  static of(bytes: Uint8Array, baseName: string): PageFont {
    let byName = PageFont.loaded.get(bytes.buffer);
    if (!byName) PageFont.loaded.set(bytes.buffer, (byName = new Map()));
    const key = `${bytes.byteOffset}:${bytes.byteLength}:${baseName}`;
    let font = byName.get(key);
    if (!font) byName.set(key, (font = new PageFont(bytes, baseName)));
    return font;
  }

  /** The embedded subset for these glyphs (glyph id → the text it draws), made once per glyph set. */
  subset(used: ReadonlyMap<number, string>): EmbeddedSubset {
    const gids = [...used.keys()].sort((a, b) => a - b);
    const key = gids.map((g) => `${g}:${used.get(g)}`).join(",");
    const hit = this.subsets.get(key);
    if (hit) {
      // Most recently used last.
      this.subsets.delete(key);
      this.subsets.set(key, hit);
      return hit;
    }
    const m = this.metrics;
    const scale = (n: number) => Math.round((n * 1000) / m.unitsPerEm);
    const file = subsetTrueType(this.bytes, gids);
    const made: EmbeddedSubset = {
      tag: subsetTag(key),
      // Level 6 is slower than 1, but done once per glyph set and the smaller file is sent every time.
      fontFile: streamBody(` /Filter /FlateDecode /Length1 ${file.length}`, zlibSync(file, { level: 6 })),
      widths: serializeWidths(cidWidths(gids, (gid) => scale(m.glyphAdvance(gid)))),
      toUnicode: streamBody(
        " /Filter /FlateDecode",
        zlibSync(strToU8(toUnicodeCMap(gids.map((g) => [g, used.get(g)!] as const))), { level: 6 }),
      ),
    };
    if (this.subsets.size >= SUBSETS_PER_FONT) this.subsets.delete(this.subsets.keys().next().value!);
    this.subsets.set(key, made);
    return made;
  }

  /**
   * The five objects of this font drawing `used`, appended to `objects`; returns the local index of
   * the Type0 font (what a page's /Font resource points at).
   */
  write(used: ReadonlyMap<number, string>, objects: ((ref: (local: number) => string) => Uint8Array)[]): number {
    const s = this.subset(used);
    const m = this.metrics;
    const scale = (n: number) => Math.round((n * 1000) / m.unitsPerEm);
    const name = `${s.tag}+${this.baseName}`;
    const at = objects.length;
    const [cid, descriptor, file, toUnicode] = [at + 1, at + 2, at + 3, at + 4];
    objects.push(
      (ref) =>
        latin1Bytes(
          `<</Type /Font /Subtype /Type0 /BaseFont /${name} /Encoding /Identity-H /DescendantFonts [${ref(cid)}] /ToUnicode ${ref(toUnicode)}>>`,
        ),
      (ref) =>
        latin1Bytes(
          `<</Type /Font /Subtype /CIDFontType2 /BaseFont /${name} /CIDSystemInfo <</Registry (Adobe) /Ordering (Identity) /Supplement 0>> /FontDescriptor ${ref(descriptor)} /W ${s.widths} /CIDToGIDMap /Identity>>`,
        ),
      (ref) =>
        latin1Bytes(
          `<</Type /FontDescriptor /FontName /${name} /Flags ${4 | (m.fixedPitch ? 1 : 0) | (m.italicAngle !== 0 ? 64 : 0)} /FontBBox [${m.bbox.map(scale).join(" ")}]` +
            ` /ItalicAngle ${m.italicAngle} /Ascent ${scale(m.ascender)} /Descent ${scale(m.descender)} /CapHeight ${scale(m.capHeight)} /StemV 80 /FontFile2 ${ref(file)}>>`,
        ),
      () => s.fontFile,
      () => s.toUnicode,
    );
    return at;
  }
}

/** Glyph ids written the way the fonts expect them: 4 hex digits each (Identity-H, CID = glyph id). */
export function encodeGlyphs(font: PageFont, text: string, used: Map<number, string>): string {
  let hex = "";
  for (const ch of text) {
    const gid = font.metrics.glyphId(ch.codePointAt(0)!);
    if (!used.has(gid)) used.set(gid, ch);
    hex += HEX4[gid] ?? gid.toString(16).padStart(4, "0");
  }
  return hex;
}

const HEX4 = Array.from({ length: 4096 }, (_, i) => i.toString(16).padStart(4, "0"));

function serializeWidths(widths: (number | number[])[]): string {
  return `[${widths.map((w) => (Array.isArray(w) ? `[${w.join(" ")}]` : String(w))).join(" ")}]`;
}

/** Six capital letters from a string (FNV-1a): a stable subset tag per glyph set. */
function subsetTag(key: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193) >>> 0;
  let tag = "";
  for (let i = 0; i < 6; i++) {
    tag += String.fromCharCode(65 + (h % 26));
    h = Math.floor(h / 26) + (i + 1) * 7919;
  }
  return tag;
}
