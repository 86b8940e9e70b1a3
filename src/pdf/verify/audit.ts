import { PdfUnparseable } from "../../errors";
import { PdfDict, PdfRef, type PdfValue } from "../model";
import { PdfBudgetExceeded, type PdfReader } from "../reader";
import { appearanceFiles, fileSpecName } from "../sign/inspect";
import { embeddedFileBytes, embeddedFiles } from "./embedded";

/**
 * The evidence Signet embeds before signing (`signet-audit.json`, `signet-audit-2.json`, ...),
 * found where the signed revision put it:
 * - an associated file of the signature widget's appearance (how Signet signs now: the file
 *   belongs to this signature, and a countersignature changes nothing else);
 * - else the file added to the EmbeddedFiles tree in the signed revision (documents signed
 *   before evidence moved into the widget).
 * Either way the file's stream must be new in the signed revision, so the signature covers it
 * and it is not an earlier signer's. Files of other names or another shape are not Signet's.
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

/** `field` is the signature's field as the current document has it (its object number finds the signed one). */
export function signetEvidence(
  reader: PdfReader,
  revision: number,
  field: { ref: PdfRef | null; dict: PdfDict },
): SignetEvidence | null {
  return fromAppearance(reader, revision, field) ?? fromNameTree(reader, revision);
}

function fromAppearance(
  reader: PdfReader,
  revision: number,
  field: { ref: PdfRef | null; dict: PdfDict },
): SignetEvidence | null {
  let specs: PdfValue[];
  try {
    const signed = field.ref ? reader.resolve(field.ref, revision) : field.dict;
    specs = signed instanceof PdfDict ? appearanceFiles(reader, signed, revision) : [];
  } catch (e) {
    if (!(e instanceof PdfUnparseable) || e instanceof PdfBudgetExceeded) throw e;
    return null;
  }
  for (const spec of specs) {
    let name: string | null = null;
    try {
      name = fileSpecName(reader, spec, revision);
    } catch (e) {
      if (!(e instanceof PdfUnparseable) || e instanceof PdfBudgetExceeded) throw e;
    }
    if (name === null || !AUDIT_NAME.test(name)) continue;
    const evidence = parseEvidence(reader, spec, revision);
    if (evidence) return evidence;
  }
  return null;
}

function fromNameTree(reader: PdfReader, revision: number): SignetEvidence | null {
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
  return best ? parseEvidence(reader, now.get(best.name)!, revision) : null;
}

function parseEvidence(reader: PdfReader, spec: PdfValue, revision: number): SignetEvidence | null {
  const bytes = embeddedFileBytes(reader, spec, revision, MAX_AUDIT_BYTES, { newInRevision: true });
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
      ? {
          name: typeof signer.name === "string" ? signer.name : null,
          email: typeof signer.email === "string" ? signer.email : null,
        }
      : null,
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
