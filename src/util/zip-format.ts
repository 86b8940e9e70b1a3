/**
 * The ZIP record layouts shared by the DOCX package layer (strict: every flaw is
 * an error) and the type sniffer (lenient: a flaw just means "not DOCX"). Each
 * reader keeps its own policy; this module only decodes bytes.
 */

export const u16 = (b: Uint8Array, o: number): number => b[o]! | (b[o + 1]! << 8);
export const u32 = (b: Uint8Array, o: number): number =>
  (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)) >>> 0;
/** Little-endian 64-bit as a JS number; values above 2^53 become Infinity (treated as out of range). */
export const u64 = (b: Uint8Array, o: number): number => {
  const hi = u32(b, o + 4);
  return hi >= 0x200000 ? Number.POSITIVE_INFINITY : hi * 0x100000000 + u32(b, o);
};

/** Offset of the end-of-central-directory record whose comment fits the file, or null. */
export function findEndOfCentralDirectory(b: Uint8Array): number | null {
  const min = Math.max(0, b.length - 22 - 0xffff);
  for (let i = b.length - 22; i >= min; i--) {
    if (
      b[i] === 0x50 &&
      b[i + 1] === 0x4b &&
      b[i + 2] === 0x05 &&
      b[i + 3] === 0x06 &&
      i + 22 + u16(b, i + 20) <= b.length
    ) {
      return i;
    }
  }
  return null;
}

/** One central-directory file header, sizes and offset already taken from the ZIP64 extra field when saturated. */
export interface CentralRecord {
  flags: number;
  method: number;
  dosTime: number;
  dosDate: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
  nameBytes: Uint8Array;
  /** Offset of the next record. */
  next: number;
}

/** Decodes the central-directory header at `p`; null when it is not one or runs past `end`. */
export function readCentralRecord(b: Uint8Array, p: number, end: number): CentralRecord | null {
  if (p + 46 > end || u32(b, p) !== 0x02014b50) return null;
  const nameLen = u16(b, p + 28);
  const extraLen = u16(b, p + 30);
  const commentLen = u16(b, p + 32);
  if (p + 46 + nameLen + extraLen + commentLen > end) return null;
  let compressedSize = u32(b, p + 20);
  let uncompressedSize = u32(b, p + 24);
  let localHeaderOffset = u32(b, p + 42);
  if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff || localHeaderOffset === 0xffffffff) {
    // ZIP64 extra field (id 1) holds whichever 32-bit values are saturated, in this order.
    let e = p + 46 + nameLen;
    const eEnd = e + extraLen;
    while (e + 4 <= eEnd) {
      const id = u16(b, e);
      const size = u16(b, e + 2);
      if (id === 1) {
        let q = e + 4;
        const qEnd = q + size;
        if (uncompressedSize === 0xffffffff && q + 8 <= qEnd) ((uncompressedSize = u64(b, q)), (q += 8));
        if (compressedSize === 0xffffffff && q + 8 <= qEnd) ((compressedSize = u64(b, q)), (q += 8));
        if (localHeaderOffset === 0xffffffff && q + 8 <= qEnd) localHeaderOffset = u64(b, q);
        break;
      }
      e += 4 + size;
    }
  }
  return {
    flags: u16(b, p + 8),
    method: u16(b, p + 10),
    dosTime: u16(b, p + 12),
    dosDate: u16(b, p + 14),
    crc32: u32(b, p + 16),
    compressedSize,
    uncompressedSize,
    localHeaderOffset,
    nameBytes: b.subarray(p + 46, p + 46 + nameLen),
    next: p + 46 + nameLen + extraLen + commentLen,
  };
}
