import { PdfDict, PdfName, PdfRef, PdfStream, PdfString, type PdfValue } from "./model";
import { toHex } from "../util/bytes";

/**
 * Serializes a value of our object model as PDF syntax (Latin-1 text). Streams
 * cannot be serialized here because their data lives in the source file; the
 * incremental writer never rewrites an existing stream.
 */
export function serializePdfValue(value: PdfValue): string {
  if (value === null) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return formatNumber(value);
  if (value instanceof PdfName) return "/" + escapeName(value.name);
  if (value instanceof PdfRef) return `${value.num} ${value.gen} R`;
  if (value instanceof PdfString) return serializeString(value);
  if (value instanceof PdfDict) {
    const parts: string[] = [];
    for (const [k, v] of value.map) parts.push(`/${escapeName(k)} ${serializePdfValue(v)}`);
    return `<<${parts.join(" ")}>>`;
  }
  if (value instanceof PdfStream) throw new Error("streams are never re-serialized");
  if (Array.isArray(value)) return `[${value.map(serializePdfValue).join(" ")}]`;
  throw new Error("unknown PDF value");
}

function formatNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  // PDF reals have no exponent form.
  return n.toFixed(6).replace(/0+$/, "").replace(/\.$/, "");
}

function escapeName(n: string): string {
  let out = "";
  for (const ch of n) {
    const c = ch.charCodeAt(0);
    if (c < 0x21 || c > 0x7e || "#()<>[]{}/%".includes(ch)) {
      // Names hold bytes as Latin-1 characters (the reader decodes them that way).
      out += "#" + (c & 0xff).toString(16).padStart(2, "0");
    } else out += ch;
  }
  return out;
}

function serializeString(s: PdfString): string {
  return `<${toHex(s.bytes)}>`;
}
