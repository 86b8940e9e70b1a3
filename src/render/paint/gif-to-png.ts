/**
 * GIF → PNG, so pdf-lib (PNG and JPEG only) can embed the GIF pictures older Word documents carry:
 * logos, picture bullets. The first frame is decoded (LZW, global or local colour table,
 * interlacing, the transparent index of its graphic control extension) onto the logical screen and
 * written as an RGBA PNG. Hostile files are bounded: at most `maxPixels` pixels, codes of at most
 * 12 bits, no output past the frame; anything malformed gives null (the picture's box stays empty).
 */
import { zlibSync } from "fflate";
import { concatBytes } from "../../util/bytes";
import { crc32 } from "../../util/crc32";

export function gifToPng(gif: Uint8Array, maxPixels: number): Uint8Array | null {
  try {
    const image = decodeFirstFrame(gif, maxPixels);
    return image ? encodePng(image.width, image.height, image.rgba) : null;
  } catch {
    return null;
  }
}

interface Rgba {
  width: number;
  height: number;
  rgba: Uint8Array;
}

function decodeFirstFrame(b: Uint8Array, maxPixels: number): Rgba | null {
  const sig = String.fromCharCode(...b.subarray(0, 6));
  if (sig !== "GIF87a" && sig !== "GIF89a") return null;
  const u16 = (at: number) => {
    if (at + 1 >= b.length) throw new RangeError("truncated");
    return b[at]! | (b[at + 1]! << 8);
  };
  const width = u16(6);
  const height = u16(8);
  if (width === 0 || height === 0 || width * height > maxPixels) return null;
  const packed = b[10]!;
  let at = 13;
  let global: Uint8Array | null = null;
  if (packed & 0x80) {
    const size = 3 << ((packed & 7) + 1);
    global = b.subarray(at, at + size);
    at += size;
  }
  let transparent = -1;
  while (at < b.length) {
    const block = b[at++]!;
    if (block === 0x3b) return null; // trailer before any image
    if (block === 0x21) {
      const label = b[at++]!;
      if (label === 0xf9 && b[at] === 4) transparent = b[at + 1]! & 1 ? b[at + 4]! : -1;
      at = skipSubBlocks(b, at);
      continue;
    }
    if (block !== 0x2c) return null;
    const left = u16(at);
    const top = u16(at + 2);
    const w = u16(at + 4);
    const h = u16(at + 6);
    const flags = b[at + 8]!;
    at += 9;
    let table = global;
    if (flags & 0x80) {
      const size = 3 << ((flags & 7) + 1);
      table = b.subarray(at, at + size);
      at += size;
    }
    if (!table || w === 0 || h === 0 || w * h > maxPixels) return null;
    const minCodeSize = b[at++]!;
    if (minCodeSize < 1 || minCodeSize > 11) return null;
    const data = joinSubBlocks(b, at);
    const indices = lzwDecode(data, minCodeSize, w * h);
    const rgba = new Uint8Array(width * height * 4); // transparent background
    const rowOrder = flags & 0x40 ? interlacedRows(h) : null;
    for (let r = 0; r < h; r++) {
      const y = top + (rowOrder ? rowOrder[r]! : r);
      if (y >= height) continue;
      for (let c = 0; c < w; c++) {
        const x = left + c;
        const k = r * w + c;
        if (x >= width || k >= indices.length) continue;
        const index = indices[k]!;
        if (index === transparent || index * 3 + 2 >= table.length) continue;
        const o = (y * width + x) * 4;
        rgba[o] = table[index * 3]!;
        rgba[o + 1] = table[index * 3 + 1]!;
        rgba[o + 2] = table[index * 3 + 2]!;
        rgba[o + 3] = 255;
      }
    }
    return { width, height, rgba };
  }
  return null;
}

function skipSubBlocks(b: Uint8Array, at: number): number {
  while (at < b.length) {
    const len = b[at++]!;
    if (len === 0) return at;
    at += len;
  }
  return at;
}

function joinSubBlocks(b: Uint8Array, at: number): Uint8Array {
  let total = 0;
  for (let p = at; p < b.length && b[p]! > 0; p += b[p]! + 1) total += b[p]!;
  const out = new Uint8Array(total);
  let o = 0;
  for (let p = at; p < b.length && b[p]! > 0; p += b[p]! + 1) {
    const chunk = b.subarray(p + 1, Math.min(b.length, p + 1 + b[p]!));
    out.set(chunk, o);
    o += chunk.length;
  }
  return out.subarray(0, o);
}

/** Row r of the stored (interlaced) order → its y in the image: passes 0/8, 4/8, 2/4, 1/2. */
function interlacedRows(h: number): number[] {
  const rows: number[] = [];
  for (const [start, step] of [
    [0, 8],
    [4, 8],
    [2, 4],
    [1, 2],
  ] as const)
    for (let y = start; y < h; y += step) rows.push(y);
  return rows;
}

/** Variable-width LZW as GIF uses it (least significant bit first), up to `limit` indices. */
function lzwDecode(data: Uint8Array, minCodeSize: number, limit: number): Uint8Array {
  const out = new Uint8Array(limit);
  const clear = 1 << minCodeSize;
  const end = clear + 1;
  const prefix = new Int16Array(4096);
  const suffix = new Uint8Array(4096);
  const stack = new Uint8Array(4097);
  let size = minCodeSize + 1;
  let next = end + 1;
  let prev = -1;
  let first = 0;
  let bits = 0;
  let acc = 0;
  let n = 0;
  let i = 0;
  while (n < limit) {
    while (bits < size && i < data.length) {
      acc |= data[i++]! << bits;
      bits += 8;
    }
    if (bits < size) break;
    const code = acc & ((1 << size) - 1);
    acc >>>= size;
    bits -= size;
    if (code === clear) {
      size = minCodeSize + 1;
      next = end + 1;
      prev = -1;
      continue;
    }
    if (code === end) break;
    if (prev === -1) {
      if (code >= clear) break; // a first code must be a literal
      out[n++] = code;
      prev = code;
      first = code;
      continue;
    }
    let cur = code;
    let sp = 0;
    if (code >= next) {
      if (code > next) break; // corrupt
      stack[sp++] = first;
      cur = prev;
    }
    while (cur >= clear) {
      if (sp >= 4096) return out.subarray(0, n);
      stack[sp++] = suffix[cur]!;
      cur = prefix[cur]!;
    }
    stack[sp++] = cur;
    first = cur;
    while (sp > 0 && n < limit) out[n++] = stack[--sp]!;
    if (next < 4096) {
      prefix[next] = prev;
      suffix[next] = first;
      next++;
      if (next === 1 << size && size < 12) size++;
    }
    prev = code;
  }
  return out.subarray(0, n);
}

/** One PNG chunk: length, type, data and the CRC over type and data. */
export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(
    [...type].map((ch) => ch.charCodeAt(0)),
    4,
  );
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length))); // over type and data
  return out;
}

function encodePng(width: number, height: number, rgba: Uint8Array): Uint8Array {
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  const raw = new Uint8Array(height * (width * 4 + 1));
  for (let y = 0; y < height; y++) raw.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * (width * 4 + 1) + 1);
  return concatBytes([
    PNG_SIGNATURE,
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", zlibSync(raw, { level: 6 })),
    pngChunk("IEND", new Uint8Array(0)),
  ]);
}

export const PNG_SIGNATURE = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
