import type { PdfReader } from "../reader";
import { embeddedFileBytes, embeddedFiles } from "./embedded";

/**
 * The evidence Signet embeds before signing (`signet-audit.json`,
 * `signet-audit-2.json`, ...): the file added to the EmbeddedFiles tree in the
 * signed revision itself, so the signature covers it. Files of other revisions,
 * other names or another shape are not Signet's and are ignored.
 */

export interface SignetEvidence {
  eventId: string | null;
  metadata: unknown;
  auditTrail: unknown;
  signer: { name: string | null; email: string | null } | null;
}

const AUDIT_NAME = /^signet-audit(?:-(\d+))?\.json$/;
/** Decoded audit files larger than this are not read (the request cap bounds the trail far below). */
const MAX_AUDIT_BYTES = 16 * 1024 * 1024;

export function signetEvidence(reader: PdfReader, revision: number): SignetEvidence | null {
  const now = embeddedFiles(reader, revision);
  const before = revision > 1 ? embeddedFiles(reader, revision - 1) : new Map();
  // The newest Signet file added in this revision.
  let best: { name: string; index: number } | null = null;
  for (const name of now.keys()) {
    const m = AUDIT_NAME.exec(name);
    if (!m || before.has(name)) continue;
    const index = m[1] ? Number(m[1]) : 1;
    if (!best || index > best.index) best = { name, index };
  }
  if (!best) return null;
  const bytes = embeddedFileBytes(reader, now.get(best.name)!, revision, MAX_AUDIT_BYTES);
  if (!bytes) return null;
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch {
    return null;
  }
  if (!isObject(json)) return null;
  const marker = json.signet;
  if (!isObject(marker) || marker.kind !== "signing-event") return null;
  const signer = isObject(json.signer) ? json.signer : null;
  return {
    eventId: typeof json.eventId === "string" ? json.eventId : null,
    metadata: json.metadata ?? null,
    auditTrail: json.auditTrail ?? null,
    signer: signer
      ? { name: typeof signer.name === "string" ? signer.name : null, email: typeof signer.email === "string" ? signer.email : null }
      : null,
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
