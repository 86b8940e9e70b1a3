/**
 * Document type sniffing, purely from bytes (never from names or headers).
 *
 * Order:
 * 1. PNG, JPEG, GIF signatures at offset 0; a ZIP signature at offset 0 (local file header or an
 *    empty archive's end record): a file that starts as an image or archive is one, even when
 *    `%PDF-` happens to appear in its first kilobyte (e.g. a PDF stored inside a ZIP).
 * 2. `%PDF-` within the first 1024 bytes: PDF.
 * 3. A ZIP end-of-central-directory record near the end (archives with a prefix).
 *
 * A ZIP is DOCX when its `_rels/.rels` has an officeDocument relationship (transitional or strict
 * namespace) whose internal target part exists in the archive, and `[Content_Types].xml` does not
 * declare that part as something other than a WordprocessingML document (XLSX/PPTX are "zip").
 * Only the central directory is read and only those two small parts are inflated, each with a hard cap
 * on compressed and inflated size, so a hostile archive costs at most a few hundred kilobytes of work.
 */
import { findEndOfCentralDirectory, readCentralRecord, u16, u32, u64 } from "../util/zip-format";
import { Inflate } from "fflate";
import { LIMITS } from "../limits";
import { concatBytes } from "../util/bytes";

export type SniffedType = "pdf" | "docx" | "png" | "jpeg" | "gif" | "zip" | "unknown";

/** `%PDF-` must start within this many bytes (interface.md). */
const PDF_HEADER_WINDOW = 1024;

const PNG_SIG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, sig: readonly number[], at = 0): boolean {
  if (bytes.length < at + sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (bytes[at + i] !== sig[i]) return false;
  return true;
}

function findPdfHeader(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, PDF_HEADER_WINDOW) - 5;
  for (let i = 0; i <= end; i++) {
    if (
      bytes[i] === 0x25 &&
      bytes[i + 1] === 0x50 &&
      bytes[i + 2] === 0x44 &&
      bytes[i + 3] === 0x46 &&
      bytes[i + 4] === 0x2d
    ) {
      return true;
    }
  }
  return false;
}

export function sniffDocumentType(bytes: Uint8Array): SniffedType {
  if (startsWith(bytes, PNG_SIG)) return "png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (
    startsWith(bytes, [0x47, 0x49, 0x46, 0x38, 0x37, 0x61]) ||
    startsWith(bytes, [0x47, 0x49, 0x46, 0x38, 0x39, 0x61])
  ) {
    return "gif";
  }
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) {
    return isDocx(bytes) ? "docx" : "zip";
  }
  if (findPdfHeader(bytes)) return "pdf";
  if (findEndOfCentralDirectory(bytes) !== null) return isDocx(bytes) ? "docx" : "zip";
  return "unknown";
}

// ---------------------------------------------------------------------------------------------
// Minimal bounded ZIP reader

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

interface CentralDirectory {
  entries: Map<string, ZipEntry>;
}

const latin1 = new TextDecoder("latin1");
const utf8 = new TextDecoder("utf-8");

function readCentralDirectory(b: Uint8Array): CentralDirectory | null {
  const eocd = findEndOfCentralDirectory(b);
  if (eocd === null) return null;
  let count = u16(b, eocd + 10);
  let cdSize = u32(b, eocd + 12);
  let cdOffset = u32(b, eocd + 16);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    // ZIP64: locator right before the EOCD points at the ZIP64 end record.
    const loc = eocd - 20;
    if (loc < 0 || u32(b, loc) !== 0x07064b50) return null;
    const rec = u64(b, loc + 8);
    if (!(rec + 56 <= b.length) || u32(b, rec) !== 0x06064b50) return null;
    count = u64(b, rec + 32);
    cdSize = u64(b, rec + 40);
    cdOffset = u64(b, rec + 48);
  }
  if (!(cdOffset + cdSize <= b.length)) return null;
  // Archives with a prefix (self-extractors) shift every offset; account for the difference.
  const shift = eocd - (cdOffset + cdSize) > 0 && u32(b, cdOffset) !== 0x02014b50 ? eocd - (cdOffset + cdSize) : 0;
  const entries = new Map<string, ZipEntry>();
  let p = cdOffset + shift;
  const end = Math.min(b.length, p + cdSize);
  const limit = Math.min(count, LIMITS.sniff.maxZipEntries);
  for (let i = 0; i < limit; i++) {
    const rec = readCentralRecord(b, p, end);
    if (!rec) break;
    const { method, compressedSize, uncompressedSize, localHeaderOffset } = rec;
    const name = (rec.flags & 0x800 ? utf8 : latin1).decode(rec.nameBytes);
    const key = name.toLowerCase();
    if (!entries.has(key)) {
      entries.set(key, {
        name,
        method,
        compressedSize,
        uncompressedSize,
        localHeaderOffset: localHeaderOffset + shift,
      });
    }
    p = rec.next;
  }
  return { entries };
}

class PartTooLarge extends Error {}

/** Inflates (or copies) one entry with hard caps; null when unreadable or over the caps. */
function readPart(b: Uint8Array, entry: ZipEntry): Uint8Array | null {
  if (entry.compressedSize > LIMITS.sniff.maxPartCompressedBytes) return null;
  const lh = entry.localHeaderOffset;
  if (!(lh + 30 <= b.length) || u32(b, lh) !== 0x04034b50) return null;
  const start = lh + 30 + u16(b, lh + 26) + u16(b, lh + 28);
  const end = start + entry.compressedSize;
  if (end > b.length) return null;
  const data = b.subarray(start, end);
  if (entry.method === 0) {
    return data.length <= LIMITS.sniff.maxPartInflatedBytes ? data : null;
  }
  if (entry.method !== 8) return null;
  const chunks: Uint8Array[] = [];
  let total = 0;
  let done = false;
  const inflater = new Inflate((chunk: Uint8Array, final: boolean) => {
    total += chunk.length;
    if (total > LIMITS.sniff.maxPartInflatedBytes) throw new PartTooLarge();
    chunks.push(chunk);
    if (final) done = true;
  });
  try {
    // Small input slices bound the output of any single step (deflate expands at most ~1032x).
    const STEP = 256;
    for (let off = 0; off < data.length; off += STEP) {
      const last = off + STEP >= data.length;
      inflater.push(data.subarray(off, Math.min(off + STEP, data.length)), last);
    }
    if (data.length === 0) inflater.push(new Uint8Array(0), true);
  } catch {
    return null;
  }
  if (!done) return null;
  return concatBytes(chunks);
}

const OFFICE_DOCUMENT_TYPES = [
  "http://schemas.openxmlformats.org/officedocument/2006/relationships/officedocument",
  "http://purl.oclc.org/ooxml/officedocument/relationships/officedocument",
];

function decodeXmlAttr(v: string): string {
  return v
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&#x([0-9a-fA-F]+);/g, (_, h: string) => String.fromCodePoint(Math.min(parseInt(h, 16), 0x10ffff)))
    .replace(/&#([0-9]+);/g, (_, d: string) => String.fromCodePoint(Math.min(parseInt(d, 10), 0x10ffff)))
    .replace(/&amp;/g, "&");
}

/** Attributes of every `<Tag .../>` (any namespace prefix) in a small XML text. */
function elements(xml: string, localName: string): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  const re = new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${localName}\\b([^>]*)>`, "g");
  let m: RegExpExecArray | null;
  while ((m = re.exec(xml)) !== null && out.length < 10_000) {
    const attrs: Record<string, string> = {};
    const attrRe = /([A-Za-z_][\w.:-]*)\s*=\s*("([^"]*)"|'([^']*)')/g;
    let a: RegExpExecArray | null;
    while ((a = attrRe.exec(m[1] ?? "")) !== null) {
      attrs[a[1]!] = decodeXmlAttr(a[3] ?? a[4] ?? "");
    }
    out.push(attrs);
  }
  return out;
}

/** Resolves a relationship target of the package root to a ZIP entry name (no leading slash). */
function resolveRootTarget(target: string): string | null {
  let t = target.trim();
  try {
    t = decodeURIComponent(t);
  } catch {
    // keep undecoded
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(t)) return null; // absolute URI: external
  const segs: string[] = [];
  for (const s of t.split("/")) {
    if (s === "" || s === ".") continue;
    if (s === "..") {
      segs.pop();
      continue;
    }
    segs.push(s);
  }
  return segs.length ? segs.join("/") : null;
}

function isDocx(b: Uint8Array): boolean {
  const cd = readCentralDirectory(b);
  if (!cd) return false;
  const relsEntry = cd.entries.get("_rels/.rels");
  if (!relsEntry) return false;
  const rels = readPart(b, relsEntry);
  if (!rels) return false;
  const relsXml = utf8.decode(rels);
  let mainPart: string | null = null;
  for (const rel of elements(relsXml, "Relationship")) {
    const type = (rel.Type ?? "").trim().toLowerCase();
    if (!OFFICE_DOCUMENT_TYPES.includes(type)) continue;
    if ((rel.TargetMode ?? "").toLowerCase() === "external") continue;
    const target = resolveRootTarget(rel.Target ?? "");
    if (target && cd.entries.has(target.toLowerCase())) {
      mainPart = target;
      break;
    }
  }
  if (!mainPart) return false;
  // XLSX and PPTX also have an officeDocument relationship: when [Content_Types].xml gives the main
  // part an Office main-part type, it must be a WordprocessingML (or macro-enabled Word) one.
  const typesEntry = cd.entries.get("[content_types].xml");
  const types = typesEntry ? readPart(b, typesEntry) : null;
  if (!types) return true;
  const typesXml = utf8.decode(types);
  const partName = `/${mainPart}`.toLowerCase();
  let contentType: string | null = null;
  for (const o of elements(typesXml, "Override")) {
    if ((o.PartName ?? "").trim().toLowerCase() === partName) {
      contentType = o.ContentType ?? null;
      break;
    }
  }
  if (contentType === null) {
    const ext = partName.includes(".") ? partName.slice(partName.lastIndexOf(".") + 1) : "";
    for (const d of elements(typesXml, "Default")) {
      if ((d.Extension ?? "").trim().toLowerCase() === ext) {
        contentType = d.ContentType ?? null;
        break;
      }
    }
  }
  if (contentType === null) return true;
  // Only a clearly different main-part type (spreadsheet, presentation, drawing...) disqualifies;
  // a generic type such as application/xml leaves the decision to the relationship.
  const ct = contentType.trim().toLowerCase();
  if (!ct.endsWith(".main+xml")) return true;
  return ct.includes("wordprocessingml") || ct.startsWith("application/vnd.ms-word");
}
