/**
 * Just enough TrueType/OpenType parsing to measure text for layout: the
 * character map (cmap formats 4 and 12), advance widths (hmtx) and vertical
 * metrics (hhea), plus what a PDF font descriptor states (bounding box, italic
 * angle, cap height, fixed pitch). Pure and fast; the certificate page lays out
 * every line itself so that pdfme never has to wrap, clip or overflow anything.
 *
 * Widths are the sum of glyph advances (no kerning, no ligatures); the layout
 * keeps a safety margin (see FIT_SLACK in text-fit.ts) over what pdfme's own
 * fontkit measurement may report.
 */

export interface FontMetrics {
  unitsPerEm: number;
  /** hhea ascender / descender in font units (descender negative). */
  ascender: number;
  descender: number;
  /** Glyph id for a code point, 0 (.notdef) when the font lacks it. */
  glyphId(codePoint: number): number;
  /** Advance width in font units for a code point (the .notdef advance when missing). */
  advance(codePoint: number): number;
  /** Advance width in font units of a glyph id. */
  glyphAdvance(glyphId: number): number;
  /** Width of `text` in points at `size`. */
  widthOf(text: string, size: number): number;
  /** For the PDF font descriptor, in font units: head's bounding box, OS/2's cap height (or the ascender). */
  bbox: readonly [number, number, number, number];
  capHeight: number;
  /** post's italic angle (degrees) and fixed-pitch flag. */
  italicAngle: number;
  fixedPitch: boolean;
}

function tag(view: DataView, offset: number): string {
  return String.fromCharCode(
    view.getUint8(offset),
    view.getUint8(offset + 1),
    view.getUint8(offset + 2),
    view.getUint8(offset + 3),
  );
}

export function parseFontMetrics(bytes: Uint8Array): FontMetrics {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const numTables = view.getUint16(4);
  const tables = new Map<string, { offset: number; length: number }>();
  for (let i = 0; i < numTables; i++) {
    const rec = 12 + i * 16;
    tables.set(tag(view, rec), { offset: view.getUint32(rec + 8), length: view.getUint32(rec + 12) });
  }
  const table = (name: string) => {
    const t = tables.get(name);
    if (!t) throw new Error(`font has no '${name}' table`);
    return t.offset;
  };

  const head = table("head");
  const unitsPerEm = view.getUint16(head + 18);
  const bbox = [
    view.getInt16(head + 36),
    view.getInt16(head + 38),
    view.getInt16(head + 40),
    view.getInt16(head + 42),
  ] as const;
  const os2 = tables.get("OS/2");
  const capHeight = os2 && os2.length >= 90 && view.getUint16(os2.offset) >= 2 ? view.getInt16(os2.offset + 88) : null;
  const post = tables.get("post");
  const italicAngle = post && post.length >= 16 ? view.getInt32(post.offset + 4) / 65536 : 0;
  const fixedPitch = post && post.length >= 16 ? view.getUint32(post.offset + 12) !== 0 : false;
  const hhea = table("hhea");
  const ascender = view.getInt16(hhea + 4);
  const descender = view.getInt16(hhea + 6);
  const numberOfHMetrics = view.getUint16(hhea + 34);
  const hmtx = table("hmtx");
  const advanceOfGlyph = (gid: number) => view.getUint16(hmtx + 4 * Math.min(gid, numberOfHMetrics - 1));

  // Pick the best Unicode subtable: format 12 (full Unicode) over format 4 (BMP).
  const cmap = table("cmap");
  const numSubtables = view.getUint16(cmap + 2);
  let format4 = -1;
  let format12 = -1;
  for (let i = 0; i < numSubtables; i++) {
    const rec = cmap + 4 + i * 8;
    const platform = view.getUint16(rec);
    const encoding = view.getUint16(rec + 2);
    const offset = cmap + view.getUint32(rec + 4);
    const format = view.getUint16(offset);
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    if (!unicode) continue;
    if (format === 12 && format12 < 0) format12 = offset;
    if (format === 4 && format4 < 0) format4 = offset;
  }

  let lookup: (cp: number) => number;
  if (format12 >= 0) {
    const nGroups = view.getUint32(format12 + 12);
    lookup = (cp) => {
      let lo = 0;
      let hi = nGroups - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const g = format12 + 16 + mid * 12;
        const start = view.getUint32(g);
        const end = view.getUint32(g + 4);
        if (cp < start) hi = mid - 1;
        else if (cp > end) lo = mid + 1;
        else return view.getUint32(g + 8) + (cp - start);
      }
      return 0;
    };
  } else if (format4 >= 0) {
    const segX2 = view.getUint16(format4 + 6);
    const ends = format4 + 14;
    const starts = ends + segX2 + 2;
    const deltas = starts + segX2;
    const rangeOffsets = deltas + segX2;
    lookup = (cp) => {
      if (cp > 0xffff) return 0;
      let lo = 0;
      let hi = segX2 / 2 - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const end = view.getUint16(ends + mid * 2);
        const start = view.getUint16(starts + mid * 2);
        if (cp > end) lo = mid + 1;
        else if (cp < start) hi = mid - 1;
        else {
          const delta = view.getInt16(deltas + mid * 2);
          const ro = view.getUint16(rangeOffsets + mid * 2);
          if (ro === 0) return (cp + delta) & 0xffff;
          const at = rangeOffsets + mid * 2 + ro + (cp - start) * 2;
          const gid = view.getUint16(at);
          return gid === 0 ? 0 : (gid + delta) & 0xffff;
        }
      }
      return 0;
    };
  } else {
    throw new Error("font has no Unicode cmap");
  }

  const cache = new Map<number, number>();
  const glyphId = (cp: number) => {
    let gid = cache.get(cp);
    if (gid === undefined) {
      gid = lookup(cp);
      cache.set(cp, gid);
    }
    return gid;
  };
  const advance = (cp: number) => advanceOfGlyph(glyphId(cp));

  return {
    unitsPerEm,
    ascender,
    descender,
    bbox,
    capHeight: capHeight ?? ascender,
    italicAngle,
    fixedPitch,
    glyphId,
    advance,
    glyphAdvance: advanceOfGlyph,
    widthOf(text, size) {
      let units = 0;
      for (const ch of text) units += advance(ch.codePointAt(0)!);
      return (units * size) / unitsPerEm;
    },
  };
}
