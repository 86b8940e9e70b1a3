import { PDF_PROBLEM, type Change, type Problem, type SignerReport } from "./status";

/**
 * The one sentence that says why a document is (not) valid, naming the first
 * thing that failed in words a person understands:
 * "Signature 1 by Ada Lovelace is intact, but page 1 was changed after signing."
 */

/** What a signature failed on, for the reason; null when it passes. */
export interface Failure {
  sentence: string;
}

export function signatureLabel(s: SignerReport, index: number): string {
  const base = s.kind === "timestamp" ? `Document time-stamp ${index + 1}` : `Signature ${index + 1}`;
  return s.name ? `${base} by ${s.name}` : base;
}

const STRUCTURE_SENTENCES: Record<string, (label: string, p: Problem) => string> = {
  [PDF_PROBLEM.contentsMissing]: (l) => `${l} has no signature value: its /Contents is missing.`,
  [PDF_PROBLEM.contentsEmpty]: (l) => `${l} is empty: its /Contents holds no signature.`,
  [PDF_PROBLEM.contentsNotHex]: (l) => `${l} is malformed: its /Contents is not a hexadecimal string.`,
  [PDF_PROBLEM.byteRangeInvalid]: (l, p) => `${l} is malformed: ${lower(p.message)}`,
  [PDF_PROBLEM.byteRangeGap]: (l) =>
    `${l} leaves bytes other than its own signature value unsigned: content was hidden in the unsigned gap (signature wrapping).`,
  [PDF_PROBLEM.signatureDictionaryRewritten]: (l) =>
    `${l} was tampered with: its signature dictionary was rewritten after signing, so the signature shown is not the one that was made.`,
  [PDF_PROBLEM.coveragePartial]: (l) => `${l} covers only part of the file, not a complete revision of this document.`,
  [PDF_PROBLEM.signatureDictionaryInvalid]: (l, p) => `${l} is malformed: ${lower(p.message)}`,
};

export function structureFailure(label: string, problems: Problem[]): string | null {
  for (const p of problems) {
    const f = STRUCTURE_SENTENCES[p.code];
    if (f && p.severity === "error") return f(label, p);
  }
  return null;
}

export function modificationSentence(
  label: string,
  change: Change,
  rule: string | null,
  afterLastSignature: boolean,
): string {
  if (afterLastSignature) return `${label} is intact, but ${change.what} after the last signature.`;
  return `${label} is intact, but ${change.what} after signing${rule ? `, which ${rule} does not allow` : ""}.`;
}

export function allValidSentence(count: number): string {
  return `All ${count} signature(s) are intact, cover the document and chain to a trusted root.`;
}

export function lower(s: string): string {
  return s.length ? s[0]!.toLowerCase() + s.slice(1) : s;
}

export function sentence(s: string): string {
  const t = s.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}
