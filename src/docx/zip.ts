/**
 * The ZIP layer of the DOCX package: a bounded reader and a deterministic writer on fflate.
 *
 * Reading: the central directory is parsed and every limit on declared sizes (entry count, per
 * entry, total, compression ratio) is checked before one byte is inflated. Entries must not
 * overlap, their local headers must agree with the central directory, and names must be safe and
 * unique (case-insensitively, as OPC part names are). Inflating runs in small steps and stops as
 * soon as the output passes the declared size (a header that lies), then checks size and CRC.
 *
 * Writing: unchanged entries keep their compressed bytes exactly (copied, never re-inflated);
 * only new or changed entries are compressed. Headers are written fresh (no data descriptors, no
 * extra fields) with the original timestamps, or a fixed one for new entries, so the same input
 * gives the same bytes.
 */
import { findEndOfCentralDirectory, readCentralRecord, u16, u32, u64 } from "../util/zip-format";
import { Inflate, deflateSync, inflateSync } from "fflate";
import { LimitExceeded, UnprocessableContent } from "../errors";
import { LIMITS } from "../limits";
import { crc32 } from "../util/crc32";

export interface ZipEntry {
  name: string;
  nameBytes: Uint8Array;
  utf8Name: boolean;
  method: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  dosTime: number;
  dosDate: number;
  /** Offset of the compressed data in the archive. */
  dataStart: number;
  localHeaderOffset: number;
}

const invalid = (msg: string) => new UnprocessableContent("docx_invalid", msg);
const zipLimit = (msg: string) => new LimitExceeded("zip_limit", msg);

const MiB = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MiB`;

function findEocd(b: Uint8Array): number {
  const at = findEndOfCentralDirectory(b);
  if (at === null) throw invalid("The document is not a ZIP package (no end of central directory record).");
  return at;
}

const latin1 = new TextDecoder("latin1");
const utf8Strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** A part name we are willing to carry: relative, no `..`/`.` segments, no backslashes or controls. */
function checkName(name: string): void {
  if (name.length === 0 || name.length > 1024)
    throw invalid("The package has an entry with an empty or overlong name.");
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(name) || name.startsWith("/") || /^[A-Za-z]:/.test(name)) {
    throw invalid(`The package has an entry with an unsafe name: ${JSON.stringify(name.slice(0, 100))}.`);
  }
  const segments = name.split("/");
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    if (s === "." || s === ".." || (s === "" && i !== segments.length - 1)) {
      throw invalid(`The package has an entry with an unsafe name: ${JSON.stringify(name.slice(0, 100))}.`);
    }
  }
}

/** Reads and checks the central directory. Nothing is inflated. */
export function readZipDirectory(b: Uint8Array): ZipEntry[] {
  const L = LIMITS.docx;
  const eocd = findEocd(b);
  let count = u16(b, eocd + 10);
  let cdSize = u32(b, eocd + 12);
  let cdOffset = u32(b, eocd + 16);
  let cdEnd = eocd;
  if (u16(b, eocd + 4) !== 0 || u16(b, eocd + 6) !== 0 || u16(b, eocd + 8) !== count) {
    throw invalid("Multi-disk ZIP archives are not DOCX packages.");
  }
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    const loc = eocd - 20;
    if (loc < 0 || u32(b, loc) !== 0x07064b50) throw invalid("The ZIP64 end of central directory locator is missing.");
    const rec = u64(b, loc + 8);
    if (!(rec + 56 <= loc) || u32(b, rec) !== 0x06064b50)
      throw invalid("The ZIP64 end of central directory record is missing.");
    count = u64(b, rec + 32);
    cdSize = u64(b, rec + 40);
    cdOffset = u64(b, rec + 48);
    cdEnd = rec;
  }
  if (count > L.maxEntries) throw zipLimit(`The package has ${count} entries; the limit is ${L.maxEntries}.`);
  // A prefix before the archive (self-extractors) shifts every offset by the same amount.
  const shift = cdEnd - (cdOffset + cdSize);
  if (!(shift >= 0) || cdOffset + shift + cdSize > b.length)
    throw invalid("The ZIP central directory is out of bounds.");

  const entries: ZipEntry[] = [];
  const seen = new Set<string>();
  let p = cdOffset + shift;
  const end = p + cdSize;
  let declaredTotal = 0;
  for (let i = 0; i < count; i++) {
    const rec = readCentralRecord(b, p, end);
    if (!rec) throw invalid("The ZIP central directory is truncated or corrupt.");
    const { flags, method, dosTime, dosDate, crc32, compressedSize, uncompressedSize, localHeaderOffset, nameBytes } =
      rec;
    const utf8Name = (flags & 0x800) !== 0;
    let name: string;
    try {
      name = utf8Name ? utf8Strict.decode(nameBytes) : latin1.decode(nameBytes);
    } catch {
      throw invalid("The package has an entry whose name is not valid UTF-8.");
    }
    checkName(name);
    const key = name.toLowerCase();
    if (seen.has(key)) throw invalid(`The package has two entries named ${JSON.stringify(name.slice(0, 100))}.`);
    seen.add(key);
    if (flags & 0x1) throw invalid(`The entry ${name} is encrypted.`);
    if (method !== 0 && method !== 8)
      throw invalid(`The entry ${name} uses an unsupported compression method (${method}).`);
    if (method === 0 && compressedSize !== uncompressedSize)
      throw invalid(`The stored entry ${name} has inconsistent sizes.`);
    if (!Number.isFinite(uncompressedSize) || uncompressedSize > L.maxDeclaredEntryBytes) {
      throw zipLimit(
        `The entry ${name} declares ${MiB(uncompressedSize)} uncompressed; the limit is ${MiB(L.maxDeclaredEntryBytes)}.`,
      );
    }
    if (uncompressedSize > L.ratioCheckFloorBytes && uncompressedSize > compressedSize * L.maxCompressionRatio) {
      throw zipLimit(
        `The entry ${name} would inflate ${Math.round(uncompressedSize / Math.max(1, compressedSize))} times (limit ${L.maxCompressionRatio}): a zip bomb.`,
      );
    }
    declaredTotal += uncompressedSize;
    if (declaredTotal > L.maxDeclaredTotalBytes) {
      throw zipLimit(`The package declares more than ${MiB(L.maxDeclaredTotalBytes)} uncompressed in total.`);
    }
    entries.push({
      name,
      nameBytes,
      utf8Name,
      method,
      crc32,
      compressedSize,
      uncompressedSize,
      dosTime,
      dosDate,
      dataStart: -1,
      localHeaderOffset: localHeaderOffset + shift,
    });
    p = rec.next;
  }

  // Local headers: present, consistent, and no two entries sharing or overlapping bytes.
  const byOffset = [...entries].sort((x, y) => x.localHeaderOffset - y.localHeaderOffset);
  const cdStart = cdOffset + shift;
  for (let i = 0; i < byOffset.length; i++) {
    const e = byOffset[i]!;
    const lh = e.localHeaderOffset;
    if (!(lh + 30 <= cdStart) || u32(b, lh) !== 0x04034b50) throw invalid(`The local header of ${e.name} is missing.`);
    const nameLen = u16(b, lh + 26);
    const extraLen = u16(b, lh + 28);
    const local = b.subarray(lh + 30, lh + 30 + nameLen);
    if (nameLen !== e.nameBytes.length || !local.every((v, k) => v === e.nameBytes[k])) {
      throw invalid(`The local header of ${e.name} names another entry.`);
    }
    e.dataStart = lh + 30 + nameLen + extraLen;
    const dataEnd = e.dataStart + e.compressedSize;
    const limit = i + 1 < byOffset.length ? byOffset[i + 1]!.localHeaderOffset : cdStart;
    if (!(dataEnd <= limit)) throw invalid(`The entry ${e.name} overlaps another entry or the central directory.`);
  }
  return entries;
}

/** Counts inflated bytes of one request against LIMITS.docx.maxInflatedBytes. */
export class InflateBudget {
  used = 0;
  /** What parts inflated in one go could still cost at worst (see `inflateEntry`). */
  wholeWorkLeft: number = LIMITS.docx.wholeInflateWorkBytes;
  constructor(readonly max: number = LIMITS.docx.maxInflatedBytes) {}
  reserve(n: number, name: string): void {
    if (this.used + n > this.max) {
      throw zipLimit(`Reading ${name} would inflate more than ${MiB(this.max)} for this request.`);
    }
    this.used += n;
  }
}

/** Deflate's largest expansion (RFC 1951): a 258-byte match coded in about 2 bits, 1032 to 1. */
const MAX_DEFLATE_RATIO = 1032;

/**
 * The uncompressed bytes of an entry, bounded by its declared size, CRC checked. A part whose
 * compressed bytes could at worst inflate to what the request's `wholeWorkLeft` still allows is
 * inflated in one go into a buffer of its declared size (most parts of a document are a few KiB);
 * the others in steps, stopped as soon as they pass their declared size. The streaming inflater
 * allocates and copies a 160 KiB window per part, which cost a small document a third of its parse.
 */
export function inflateEntry(b: Uint8Array, e: ZipEntry, budget: InflateBudget, maxBytes: number): Uint8Array {
  if (e.uncompressedSize > maxBytes) {
    throw zipLimit(`The part ${e.name} is ${MiB(e.uncompressedSize)}; Signet reads parts up to ${MiB(maxBytes)}.`);
  }
  budget.reserve(e.uncompressedSize, e.name);
  const data = b.subarray(e.dataStart, e.dataStart + e.compressedSize);
  let out: Uint8Array;
  const lying = () =>
    zipLimit(`The part ${e.name} inflates past its declared size of ${e.uncompressedSize} bytes (the header lies).`);
  const shorter = () => invalid(`The part ${e.name} is shorter than its declared size.`);
  if (e.method === 0) {
    out = data;
  } else if (data.length * MAX_DEFLATE_RATIO <= budget.wholeWorkLeft) {
    budget.wholeWorkLeft -= data.length * MAX_DEFLATE_RATIO;
    // One byte more than declared: output past it shows as a longer result (fflate drops the rest).
    let whole: Uint8Array;
    try {
      whole = inflateSync(data, { out: new Uint8Array(e.uncompressedSize + 1) });
    } catch {
      throw invalid(`The part ${e.name} is not valid deflate data.`);
    }
    if (whole.length > e.uncompressedSize) throw lying();
    if (whole.length < e.uncompressedSize) throw shorter();
    out = whole;
  } else {
    out = new Uint8Array(e.uncompressedSize);
    let at = 0;
    let done = false;
    const inflater = new Inflate((chunk: Uint8Array, final: boolean) => {
      if (at + chunk.length > out.length) throw lying();
      out.set(chunk, at);
      at += chunk.length;
      if (final) done = true;
    });
    const step = LIMITS.docx.inflateStepBytes;
    try {
      if (data.length === 0) inflater.push(new Uint8Array(0), true);
      for (let off = 0; off < data.length; off += step) {
        inflater.push(data.subarray(off, Math.min(off + step, data.length)), off + step >= data.length);
      }
    } catch (err) {
      if (err instanceof LimitExceeded) throw err;
      throw invalid(`The part ${e.name} is not valid deflate data.`);
    }
    if (!done || at !== out.length) throw shorter();
  }
  if (crc32(out) !== e.crc32) throw invalid(`The part ${e.name} fails its CRC check.`);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Writer

export interface ZipOutputEntry {
  nameBytes: Uint8Array;
  utf8Name: boolean;
  method: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  dosTime: number;
  dosDate: number;
  /** Compressed bytes (stored bytes when method is 0). */
  data: Uint8Array;
}

/** 1980-01-01 00:00:00, the fixed time of entries Signet creates. */
export const FIXED_DOS_TIME = 0;
export const FIXED_DOS_DATE = (0 << 9) | (1 << 5) | 1;

/** An existing entry carried over: its compressed bytes are a view into the input, never re-inflated. */
export function carryEntry(b: Uint8Array, e: ZipEntry): ZipOutputEntry {
  return {
    nameBytes: e.nameBytes,
    utf8Name: e.utf8Name,
    method: e.method,
    crc32: e.crc32,
    compressedSize: e.compressedSize,
    uncompressedSize: e.uncompressedSize,
    dosTime: e.dosTime,
    dosDate: e.dosDate,
    data: b.subarray(e.dataStart, e.dataStart + e.compressedSize),
  };
}

const encoder = new TextEncoder();

/** New content for an entry: deflated (or stored, for already-compressed media). */
export function makeEntry(
  name: string,
  content: Uint8Array,
  opts: { store?: boolean; dosTime?: number; dosDate?: number } = {},
): ZipOutputEntry {
  const data = opts.store ? content : deflateSync(content, { level: 6 });
  // eslint-disable-next-line no-control-regex
  const ascii = /^[\u0000-\u007f]*$/.test(name);
  return {
    nameBytes: encoder.encode(name),
    utf8Name: !ascii,
    method: opts.store ? 0 : 8,
    crc32: crc32(content),
    compressedSize: data.length,
    uncompressedSize: content.length,
    dosTime: opts.dosTime ?? FIXED_DOS_TIME,
    dosDate: opts.dosDate ?? FIXED_DOS_DATE,
    data,
  };
}

/** Writes the archive as segments (headers interleaved with data views), without joining them. */
export function writeZip(entries: ZipOutputEntry[]): { segments: Uint8Array[]; length: number } {
  const segments: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const flags = e.utf8Name ? 0x800 : 0;
    const local = new Uint8Array(30 + e.nameBytes.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(6, flags, true);
    lv.setUint16(8, e.method, true);
    lv.setUint16(10, e.dosTime, true);
    lv.setUint16(12, e.dosDate, true);
    lv.setUint32(14, e.crc32, true);
    lv.setUint32(18, e.compressedSize, true);
    lv.setUint32(22, e.uncompressedSize, true);
    lv.setUint16(26, e.nameBytes.length, true);
    lv.setUint16(28, 0, true);
    local.set(e.nameBytes, 30);

    const cd = new Uint8Array(46 + e.nameBytes.length);
    const cv = new DataView(cd.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(8, flags, true);
    cv.setUint16(10, e.method, true);
    cv.setUint16(12, e.dosTime, true);
    cv.setUint16(14, e.dosDate, true);
    cv.setUint32(16, e.crc32, true);
    cv.setUint32(20, e.compressedSize, true);
    cv.setUint32(24, e.uncompressedSize, true);
    cv.setUint16(28, e.nameBytes.length, true);
    cv.setUint32(42, offset, true);
    cd.set(e.nameBytes, 46);

    segments.push(local);
    if (e.data.length) segments.push(e.data);
    central.push(cd);
    offset += local.length + e.data.length;
  }
  if (offset > 0xffffffff || entries.length > 0xffff) throw zipLimit("The output package would need ZIP64.");
  const cdOffset = offset;
  let cdSize = 0;
  for (const c of central) {
    segments.push(c);
    cdSize += c.length;
  }
  const eocd = new Uint8Array(22);
  const ev = new DataView(eocd.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, entries.length, true);
  ev.setUint16(10, entries.length, true);
  ev.setUint32(12, cdSize, true);
  ev.setUint32(16, cdOffset, true);
  segments.push(eocd);
  return { segments, length: cdOffset + cdSize + 22 };
}
