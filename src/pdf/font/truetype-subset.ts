/**
 * A glyph-id-preserving TrueType subsetter. The embedded font keeps every glyph id of the original
 * (so text is written as the original glyph ids, CIDToGIDMap /Identity), but only the outlines of
 * the glyphs used (plus the components of composite glyphs) stay in `glyf`; the others become empty.
 * Layout tables (GSUB, GPOS, GDEF, kern) and glyph names are dropped: the PDF needs none of them.
 *
 * Glyph ids above the highest one kept are cut off (numGlyphs, loca and hmtx end there): text in
 * Latin scripts uses low glyph ids, so a subset of a 2,500-glyph font no longer carries 20 KB of
 * offsets and metrics for glyphs nobody draws (they were most of the bytes deflated per font).
 *
 * Why our own: @pdf-lib/fontkit's subsetter wrote broken outlines ("invalid outline" in FreeType,
 * blank glyphs in poppler) for the Google Fonts builds of Carlito, Arimo, Tinos, Cousine and Noto Sans.
 */

/** Tables copied unchanged into the subset (hinting tables included: they are small and keep rendering crisp). */
const COPIED = ["OS/2", "cvt ", "fpgm", "name", "prep"];

export class TrueTypeError extends Error {}

interface TableRecord {
  offset: number;
  length: number;
}

export function readTables(font: Uint8Array): Map<string, TableRecord> {
  const v = new DataView(font.buffer, font.byteOffset, font.byteLength);
  if (font.length < 12) throw new TrueTypeError("font too short");
  const count = v.getUint16(4);
  if (12 + count * 16 > font.length) throw new TrueTypeError("table directory out of range");
  const tables = new Map<string, TableRecord>();
  for (let i = 0; i < count; i++) {
    const at = 12 + i * 16;
    const tag = String.fromCharCode(font[at]!, font[at + 1]!, font[at + 2]!, font[at + 3]!);
    const offset = v.getUint32(at + 8);
    const length = v.getUint32(at + 12);
    if (offset + length > font.length) throw new TrueTypeError(`table ${tag} out of range`);
    tables.set(tag, { offset, length });
  }
  return tables;
}

/** Returns a font file holding the outlines of `glyphIds` (and glyph 0, and composite components). */
export function subsetTrueType(font: Uint8Array, glyphIds: Iterable<number>): Uint8Array {
  const tables = readTables(font);
  const v = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const head = need(tables, "head");
  const maxp = need(tables, "maxp");
  const loca = need(tables, "loca");
  const glyf = need(tables, "glyf");
  const numGlyphs = v.getUint16(maxp.offset + 4);
  const longLoca = v.getInt16(head.offset + 50) === 1;
  if (loca.length < (numGlyphs + 1) * (longLoca ? 4 : 2)) throw new TrueTypeError("loca too short");

  const glyphRange = (gid: number): [number, number] => {
    const start = longLoca ? v.getUint32(loca.offset + gid * 4) : v.getUint16(loca.offset + gid * 2) * 2;
    const end = longLoca ? v.getUint32(loca.offset + gid * 4 + 4) : v.getUint16(loca.offset + gid * 2 + 2) * 2;
    if (end < start || end > glyf.length) return [0, 0];
    return [glyf.offset + start, glyf.offset + end];
  };

  // The glyphs to keep: the requested ones, glyph 0 (.notdef) and, transitively, composite components.
  const keep = new Set<number>([0]);
  const queue = [...glyphIds].filter((g) => Number.isInteger(g) && g >= 0 && g < numGlyphs);
  while (queue.length) {
    const gid = queue.pop()!;
    if (keep.has(gid) && gid !== 0) continue;
    keep.add(gid);
    for (const c of components(v, glyphRange(gid))) if (c < numGlyphs && !keep.has(c)) queue.push(c);
  }

  // Glyph ids past the highest kept one are dropped from the font altogether.
  let count = 1;
  for (const gid of keep) count = Math.max(count, gid + 1);

  // New glyf (kept outlines, 4-byte aligned) and a long-format loca.
  let glyfSize = 0;
  for (const gid of keep) {
    const [s, e] = glyphRange(gid);
    glyfSize += align4(e - s);
  }
  const newGlyf = new Uint8Array(glyfSize);
  const newLoca = new Uint8Array((count + 1) * 4);
  const lv = new DataView(newLoca.buffer);
  let at = 0;
  for (let gid = 0; gid < count; gid++) {
    lv.setUint32(gid * 4, at);
    if (!keep.has(gid)) continue;
    const [s, e] = glyphRange(gid);
    newGlyf.set(font.subarray(s, e), at);
    at += align4(e - s);
  }
  lv.setUint32(count * 4, at);

  const newMaxp = font.slice(maxp.offset, maxp.offset + maxp.length);
  new DataView(newMaxp.buffer).setUint16(4, count);
  // hmtx is numberOfHMetrics (advance, lsb) pairs then one lsb per further glyph: the metrics of
  // glyphs 0..count-1 are a prefix of the table either way.
  const hhea = need(tables, "hhea");
  const hmtx = need(tables, "hmtx");
  if (hhea.length < 36) throw new TrueTypeError("hhea too short");
  const longMetrics = Math.min(v.getUint16(hhea.offset + 34), count);
  const newHhea = font.slice(hhea.offset, hhea.offset + hhea.length);
  new DataView(newHhea.buffer).setUint16(34, longMetrics);
  const hmtxLength = longMetrics * 4 + (count - longMetrics) * 2;
  if (hmtx.length < hmtxLength) throw new TrueTypeError("hmtx too short");
  const newHmtx = font.subarray(hmtx.offset, hmtx.offset + hmtxLength);

  const newHead = font.slice(head.offset, head.offset + head.length);
  const hv = new DataView(newHead.buffer);
  hv.setUint32(8, 0); // checkSumAdjustment, set below
  hv.setInt16(50, 1); // indexToLocFormat: long

  // post format 3: no glyph names.
  const post = tables.get("post");
  const newPost = new Uint8Array(32);
  if (post && post.length >= 32) newPost.set(font.subarray(post.offset, post.offset + 32));
  new DataView(newPost.buffer).setUint32(0, 0x00030000);

  const out = new Map<string, Uint8Array>([
    ["head", newHead],
    ["loca", newLoca],
    ["glyf", newGlyf],
    ["post", newPost],
    ["cmap", EMPTY_CMAP],
    ["maxp", newMaxp],
    ["hhea", newHhea],
    ["hmtx", newHmtx],
  ]);
  for (const tag of COPIED) {
    const t = tables.get(tag);
    if (t) out.set(tag, font.subarray(t.offset, t.offset + t.length));
  }
  return writeFont(out);
}

function need(tables: Map<string, TableRecord>, tag: string): TableRecord {
  const t = tables.get(tag);
  if (!t) throw new TrueTypeError(`no ${tag} table`);
  return t;
}

const align4 = (n: number) => (n + 3) & ~3;

/** Glyph ids referenced by a composite glyph (empty for simple glyphs). */
function components(v: DataView, [start, end]: [number, number]): number[] {
  if (end - start < 10 || v.getInt16(start) >= 0) return [];
  const out: number[] = [];
  let p = start + 10;
  for (let guard = 0; guard < 256 && p + 4 <= end; guard++) {
    const flags = v.getUint16(p);
    out.push(v.getUint16(p + 2));
    p += 4 + (flags & 0x0001 ? 4 : 2); // arguments: words or bytes
    if (flags & 0x0008)
      p += 2; // one scale
    else if (flags & 0x0040)
      p += 4; // x and y scale
    else if (flags & 0x0080) p += 8; // 2x2 matrix
    if (!(flags & 0x0020)) break; // no more components
  }
  return out;
}

/** A cmap with one format-4 subtable that maps nothing: text is written as glyph ids. */
const EMPTY_CMAP = (() => {
  const b = new Uint8Array(4 + 8 + 24);
  const v = new DataView(b.buffer);
  v.setUint16(2, 1); // one subtable
  v.setUint16(4, 3); // Windows
  v.setUint16(6, 1); // Unicode BMP
  v.setUint32(8, 12);
  const s = 12;
  v.setUint16(s, 4); // format
  v.setUint16(s + 2, 24); // length
  v.setUint16(s + 6, 2); // segCountX2
  v.setUint16(s + 8, 2); // searchRange
  v.setUint16(s + 10, 0); // entrySelector
  v.setUint16(s + 12, 0); // rangeShift
  v.setUint16(s + 14, 0xffff); // endCode
  v.setUint16(s + 18, 0xffff); // startCode (after reservedPad)
  v.setUint16(s + 20, 1); // idDelta
  return b;
})();

function checksum(b: Uint8Array): number {
  let sum = 0;
  const n = b.length;
  for (let i = 0; i < n; i += 4) {
    sum = (sum + (((b[i]! << 24) | ((b[i + 1] ?? 0) << 16) | ((b[i + 2] ?? 0) << 8) | (b[i + 3] ?? 0)) >>> 0)) >>> 0;
  }
  return sum;
}

function writeFont(tables: Map<string, Uint8Array>): Uint8Array {
  const tags = [...tables.keys()].sort();
  const count = tags.length;
  let size = 12 + count * 16;
  for (const t of tags) size += align4(tables.get(t)!.length);
  const out = new Uint8Array(size);
  const v = new DataView(out.buffer);
  const entrySelector = Math.floor(Math.log2(count));
  const searchRange = 2 ** entrySelector * 16;
  v.setUint32(0, 0x00010000);
  v.setUint16(4, count);
  v.setUint16(6, searchRange);
  v.setUint16(8, entrySelector);
  v.setUint16(10, count * 16 - searchRange);
  let at = 12 + count * 16;
  let headAt = -1;
  tags.forEach((tag, i) => {
    const data = tables.get(tag)!;
    const rec = 12 + i * 16;
    for (let k = 0; k < 4; k++) out[rec + k] = tag.charCodeAt(k);
    v.setUint32(rec + 4, checksum(data));
    v.setUint32(rec + 8, at);
    v.setUint32(rec + 12, data.length);
    out.set(data, at);
    if (tag === "head") headAt = at;
    at += align4(data.length);
  });
  if (headAt >= 0) v.setUint32(headAt + 8, (0xb1b0afba - checksum(out)) >>> 0);
  return out;
}
