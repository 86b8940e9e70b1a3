import { PdfDict, PdfName, PdfString, type PdfValue } from "../model";
import { hexValue, isWhite } from "../reader/lexer";
import type { PdfReader } from "../reader";
import { PDF_PROBLEM, type Coverage, type Problem } from "./status";

/**
 * Structural checks of one signature dictionary and the evaluation of what its
 * byte range covers. The defences against the published attacks live here:
 * - universal signature forgery: `/Contents` and `/ByteRange` must exist and be
 *   well-formed (a null, empty or zeroed signature never reaches "valid");
 * - signature wrapping: the gap between the two ranges must be exactly this
 *   dictionary's `/Contents` hex string, delimiters included (MuPDF's hole check),
 *   so nothing else can hide in the unsigned gap;
 * - incremental saving: the signed bytes must end exactly at the end of a revision
 *   that the current cross-reference chain builds on (else `partial`).
 */

export type Ranges = readonly [number, number, number, number];

export interface ByteRangeEvaluation {
  /** The four numbers, when they are well-formed and inside the file. */
  ranges: Ranges | null;
  /** The CMS bytes of `/Contents` (zero padding after a definite-length DER element removed). */
  contents: Uint8Array | null;
  coverage: Coverage;
  /** The revision (1-based) whose end the signed bytes reach, when they reach one. */
  signedRevision: number | null;
  /** End of the signed bytes (second range's end), or 0. */
  signedEnd: number;
  problems: Problem[];
}

const EOF_MARKER = [0x25, 0x25, 0x45, 0x4f, 0x46]; // %%EOF
const STARTXREF = "startxref";

export function evaluateByteRange(reader: PdfReader, sig: PdfDict): ByteRangeEvaluation {
  const bytes = reader.bytes;
  const problems: Problem[] = [];
  const problem = (code: string, message: string) => problems.push({ code, message, severity: "error" });
  const result: ByteRangeEvaluation = {
    ranges: null,
    contents: null,
    coverage: "unclear",
    signedRevision: null,
    signedEnd: 0,
    problems,
  };

  const type = sig.get("Type");
  if (type !== undefined && !(type instanceof PdfName && (type.name === "Sig" || type.name === "DocTimeStamp"))) {
    problem(
      PDF_PROBLEM.signatureDictionaryInvalid,
      "The signature dictionary's /Type is neither /Sig nor /DocTimeStamp.",
    );
  }

  // /Contents: a hex string read straight from the file (never decrypted, never taken from an object stream).
  const rawContents = sig.get("Contents");
  let contentsToken: PdfString | null = null;
  if (rawContents === undefined || rawContents === null) {
    problem(PDF_PROBLEM.contentsMissing, "The signature dictionary has no /Contents: there is no signature.");
  } else if (!(rawContents instanceof PdfString)) {
    problem(PDF_PROBLEM.contentsNotHex, "/Contents is not a string written in the signature dictionary.");
  } else if (!rawContents.hex) {
    contentsToken = rawContents;
    problem(PDF_PROBLEM.contentsNotHex, "/Contents is a literal string, not a hexadecimal string.");
  } else {
    contentsToken = rawContents;
    const cms = trimDer(contentsBytes(bytes, rawContents));
    if (cms.length === 0 || cms.every((b) => b === 0)) {
      problem(PDF_PROBLEM.contentsEmpty, "/Contents holds no signature (it is empty or all zeros).");
    } else {
      result.contents = cms;
    }
  }

  // /ByteRange: exactly [0 a b c] with 0 <= a < b, b + c <= file length.
  const ranges = readRanges(sig.get("ByteRange"));
  if (!ranges) {
    problem(PDF_PROBLEM.byteRangeInvalid, "/ByteRange is missing or is not four non-negative integers.");
    return result;
  }
  const [s1, l1, s2, l2] = ranges;
  if (s1 !== 0) {
    problem(PDF_PROBLEM.byteRangeInvalid, "/ByteRange does not start at the beginning of the file.");
    return result;
  }
  if (s2 < l1) {
    problem(PDF_PROBLEM.byteRangeInvalid, "The two ranges of /ByteRange overlap.");
    return result;
  }
  if (s2 + l2 > bytes.length) {
    problem(
      PDF_PROBLEM.byteRangeInvalid,
      `/ByteRange reaches past the end of the file (byte ${s2 + l2} of ${bytes.length}).`,
    );
    return result;
  }
  result.ranges = ranges;
  result.signedEnd = s2 + l2;

  // The hole: exactly this dictionary's /Contents token, from "<" to ">".
  if (contentsToken && (contentsToken.start !== l1 || contentsToken.end !== s2)) {
    const atRevisionEnd = reader.revisions.some((r) => endsRevision(bytes, s2 + l2, r.endOffset));
    if (contentsToken.start >= s2 + l2 && atRevisionEnd) {
      problem(
        PDF_PROBLEM.signatureDictionaryRewritten,
        "The signature dictionary was rewritten after signing: its /Contents is not the string its byte range leaves out.",
      );
    } else {
      problem(
        PDF_PROBLEM.byteRangeGap,
        "The unsigned gap in /ByteRange is not exactly this signature's /Contents string: other bytes are left unsigned (signature wrapping).",
      );
    }
  }
  // Coverage is unclear when the ranges or the hole cannot be trusted; an empty signature still has a coverage.
  if (problems.some((p) => p.code !== PDF_PROBLEM.contentsEmpty && p.code !== PDF_PROBLEM.signatureDictionaryInvalid))
    return result;

  // Coverage: the whole file, or one revision the current chain builds on.
  const signedEnd = result.signedEnd;
  if (onlyWhitespace(bytes, signedEnd, bytes.length)) {
    result.coverage = "entire_file";
    result.signedRevision = reader.revisions.length;
    return result;
  }
  const revisions = reader.revisions;
  for (let k = 0; k < revisions.length; k++) {
    if (!endsRevision(bytes, signedEnd, revisions[k]!.endOffset)) continue;
    // What a reader of the signed bytes alone would open: their last startxref must lead to this revision.
    const sx = lastStartxref(bytes, signedEnd);
    if (sx !== null && skipWhitespace(bytes, sx + reader.offsetBase) === revisions[k]!.xrefOffset) {
      result.coverage = "entire_revision";
      result.signedRevision = k + 1;
      return result;
    }
  }
  result.coverage = "partial";
  problems.push({
    code: PDF_PROBLEM.coveragePartial,
    message:
      "The signature covers the file only up to a point that is not the end of a revision of the current document.",
    severity: "error",
  });
  return result;
}

function readRanges(v: PdfValue | undefined): Ranges | null {
  if (!Array.isArray(v) || v.length !== 4) return null;
  if (!v.every((x) => typeof x === "number" && Number.isSafeInteger(x) && x >= 0)) return null;
  return v as unknown as Ranges;
}

/** The bytes of a hex string token, decoded from the file (white-space skipped, odd digit padded). */
function contentsBytes(file: Uint8Array, token: PdfString): Uint8Array {
  if (token.start < 0 || token.end > file.length || token.end - token.start < 2) return token.bytes;
  const out = new Uint8Array((token.end - token.start) >> 1);
  let n = 0;
  let hi = -1;
  for (let p = token.start + 1; p < token.end - 1; p++) {
    const v = hexValue(file[p]);
    if (v < 0) continue;
    if (hi < 0) hi = v;
    else {
      out[n++] = (hi << 4) | v;
      hi = -1;
    }
  }
  if (hi >= 0) out[n++] = hi << 4;
  return out.subarray(0, n);
}

/** Cuts the zero padding after a definite-length DER element; anything else is kept as it is. */
export function trimDer(b: Uint8Array): Uint8Array {
  if (b.length < 2 || b[0] !== 0x30) return b;
  const first = b[1]!;
  let len: number;
  let header: number;
  if (first < 0x80) {
    len = first;
    header = 2;
  } else if (first === 0x80) {
    return b; // indefinite length (BER): the reader finds the end
  } else {
    const n = first & 0x7f;
    if (n > 4 || b.length < 2 + n) return b;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + b[2 + i]!;
    header = 2 + n;
  }
  const total = header + len;
  return total <= b.length ? b.subarray(0, total) : b;
}

function skipWhitespace(b: Uint8Array, p: number): number {
  while (p < b.length && isWhite(b[p])) p++;
  return p;
}

function onlyWhitespace(b: Uint8Array, from: number, to: number): boolean {
  for (let p = from; p < to; p++) if (!isWhite(b[p])) return false;
  return true;
}

/**
 * Whether signed bytes ending at `end` end the revision whose bytes end at `revisionEnd`
 * (just past `%%EOF` and its end-of-line): anywhere from right after the marker to the
 * revision's end, with nothing but white-space between.
 */
function endsRevision(b: Uint8Array, end: number, revisionEnd: number): boolean {
  if (end === revisionEnd) return true;
  let marker = revisionEnd;
  while (marker > 0 && revisionEnd - marker < 2 && (b[marker - 1] === 0x0a || b[marker - 1] === 0x0d)) marker--;
  for (let i = 0; i < 5; i++) if (b[marker - 5 + i] !== EOF_MARKER[i]) return false;
  const lo = Math.min(end, revisionEnd);
  const hi = Math.max(end, revisionEnd);
  return end >= marker && onlyWhitespace(b, lo, hi);
}

/** The number after the last `startxref` before `end`, as written. */
function lastStartxref(b: Uint8Array, end: number): number | null {
  const from = Math.max(0, end - 1024);
  let at = -1;
  for (let p = end - STARTXREF.length; p >= from; p--) {
    let ok = true;
    for (let i = 0; i < STARTXREF.length; i++) {
      if (b[p + i] !== STARTXREF.charCodeAt(i)) {
        ok = false;
        break;
      }
    }
    if (ok) {
      at = p;
      break;
    }
  }
  if (at < 0) return null;
  let p = at + STARTXREF.length;
  while (p < end && isWhite(b[p])) p++;
  let n = 0;
  let digits = 0;
  while (p < end && b[p]! >= 0x30 && b[p]! <= 0x39 && digits < 15) {
    n = n * 10 + (b[p]! - 0x30);
    p++;
    digits++;
  }
  return digits ? n : null;
}
