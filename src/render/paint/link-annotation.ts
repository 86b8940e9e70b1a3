/**
 * Hyperlinks as /Link annotations with a /URI action and no border.
 */
import { PDFHexString, PDFName, type PDFDocument, type PDFPage } from "pdf-lib";

/** Schemes a viewer may open from our PDFs; others (javascript:, file:, data:, ...) are dropped. */
const ALLOWED_SCHEMES = /^(https?|mailto|tel|ftp):/i;

/** The URI as the 7-bit ASCII a PDF /URI must be, or null when it is not a link we keep. */
export function linkTarget(uri: string): string | null {
  const trimmed = uri.trim();
  if (!ALLOWED_SCHEMES.test(trimmed)) return null;
  let ascii: string;
  try {
    // Percent-encodes what is not ASCII; keeps %xx escapes and reserved characters as they are.
    ascii = encodeURI(decodeURIComponentSafe(trimmed));
  } catch {
    return null;
  }
  return /^[\x21-\x7e]+$/.test(ascii) ? ascii : null;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURI(s);
  } catch {
    return s;
  }
}

/** Adds a link over the rectangle (PDF coordinates, y up). */
export function addLink(pdf: PDFDocument, page: PDFPage, rect: [number, number, number, number], uri: string): void {
  const annot = pdf.context.obj({
    Type: "Annot",
    Subtype: "Link",
    Rect: rect,
    Border: [0, 0, 0],
    // A hex string: pdf-lib writes literal strings unescaped, and a URI may hold parentheses.
    A: { Type: "Action", S: "URI", URI: PDFHexString.of(asciiHex(uri)) },
  });
  // Print flag set: the link area is part of the page when printed (it draws nothing).
  annot.set(PDFName.of("F"), pdf.context.obj(4));
  page.node.addAnnot(pdf.context.register(annot));
}

function asciiHex(s: string): string {
  let hex = "";
  for (let i = 0; i < s.length; i++) hex += (s.charCodeAt(i) & 0x7f).toString(16).padStart(2, "0");
  return hex;
}
