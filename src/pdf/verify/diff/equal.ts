import { PdfDict, PdfName, PdfRef, PdfStream, PdfString, type PdfValue } from "../../model";
import { bytesEqual } from "../../../util/bytes";

/**
 * Structural equality of two parsed values (possibly from different revisions of
 * one file). References compare by number and generation (what they point to is
 * judged on its own); streams by dictionary and raw (encoded) bytes.
 */
export function deepEqual(a: PdfValue | undefined, b: PdfValue | undefined, file: Uint8Array, depth = 0): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (depth > 100) return false;
  if (typeof a !== "object" || typeof b !== "object") return a === b;
  if (a instanceof PdfName) return b instanceof PdfName && a.name === b.name;
  if (a instanceof PdfRef) return b instanceof PdfRef && a.num === b.num && a.gen === b.gen;
  if (a instanceof PdfString) return b instanceof PdfString && bytesEqual(a.bytes, b.bytes);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i], file, depth + 1)) return false;
    return true;
  }
  if (a instanceof PdfStream) {
    if (!(b instanceof PdfStream)) return false;
    if (!deepEqual(a.dict, b.dict, file, depth + 1)) return false;
    if (a.dataStart === b.dataStart && a.dataEnd === b.dataEnd) return true;
    return bytesEqual(file.subarray(a.dataStart, a.dataEnd), file.subarray(b.dataStart, b.dataEnd));
  }
  if (a instanceof PdfDict) {
    if (!(b instanceof PdfDict) || a.map.size !== b.map.size) return false;
    for (const [k, v] of a.map) {
      if (!b.map.has(k)) return false;
      if (!deepEqual(v, b.map.get(k), file, depth + 1)) return false;
    }
    return true;
  }
  return false;
}
