/**
 * A signature field's seed value dictionary (`/SV`, ISO 32000-2 §12.7.5.5, Table 239): what the
 * document's author requires of the signature that goes into it. Signet honours what it can
 * (the sub-filter, the reason, a time-stamp) and refuses, with 422 `seed_value_unsatisfied`, a
 * required constraint it cannot meet, as pyHanko and iText do:
 *
 * - /Filter (Ff bit 1): Signet's handler is Adobe.PPKLite.
 * - /SubFilter (bit 2): ETSI.CAdES.detached, or adbe.pkcs7.detached when only that one is allowed
 *   (the same CMS; not required: the first of the list Signet can write).
 * - /V (bit 3): seed value dictionaries up to version 2 are understood.
 * - /Reasons (bit 4): the request's `signature.reason` must be one of them; `[()]` means no reason.
 * - /LegalAttestation (bit 5), /AddRevInfo true (bit 6), /LockDocument true (bit 8),
 *   /AppearanceFilter (bit 9): not what Signet makes (approval signatures, CAdES, its own
 *   appearance): refused when required.
 * - /DigestMethod (bit 7): the signer's digest (SHA256, or SHA384 for a KMS P-384 key).
 * - /MDP with /P 1-3 asks for a certification signature: refused (Signet signs approvals).
 * - /TimeStamp with /Ff 1: needs the deployment's time-stamp authority (TSA_URL), and then a
 *   failed time-stamp is an error even with TSA_OPTIONAL. Signet never fetches the URL the
 *   document names.
 * - /Cert (Table 240) with required /Subject or /Issuer: the signer's certificate must be one of
 *   /Subject, or be issued by one of /Issuer (a certificate of the chain); other required
 *   certificate constraints (OID, SubjectDN, KeyUsage, URL) are refused as not checked.
 */
import { UnprocessableContent } from "../../errors";
import { PdfName, PdfStream, PdfString, isDict, type PdfDict } from "../model";
import type { PdfReader } from "../reader";
import { arrayOf, textOf } from "./inspect";

export type SubFilter = "ETSI.CAdES.detached" | "adbe.pkcs7.detached";

export interface SignatureFacts {
  fieldName: string;
  /** The signer's digest: SHA-256 or SHA-384. */
  digestAlgorithm: "SHA-256" | "SHA-384";
  /** `signature.reason` from the request, if any. */
  requestedReason: string | undefined;
  /** The signature will carry a time-stamp (a level above B-B and a time-stamp authority). */
  timestampAvailable: boolean;
  /** The signing chain, signer first (DER). */
  certificates: Uint8Array[];
}

export interface SeedValueOutcome {
  subFilter: SubFilter;
  /** The reason to write: the request's, none (null) when the field asks for none, or undefined for Signet's default. */
  reason: string | null | undefined;
  /** A time-stamp is required: a failed time-stamp must fail the request. */
  timestampRequired: boolean;
}

const FLAG = {
  filter: 1,
  subFilter: 2,
  version: 4,
  reasons: 8,
  legalAttestation: 16,
  addRevInfo: 32,
  digestMethod: 64,
  lockDocument: 128,
  appearanceFilter: 256,
};
const CERT_FLAG = { subject: 1, issuer: 2, oid: 4, subjectDN: 8, keyUsage: 32, url: 64 };
const SUPPORTED_SUBFILTERS: SubFilter[] = ["ETSI.CAdES.detached", "adbe.pkcs7.detached"];

export function applySeedValue(reader: PdfReader, sv: PdfDict | null, facts: SignatureFacts): SeedValueOutcome {
  const outcome: SeedValueOutcome = {
    subFilter: "ETSI.CAdES.detached",
    reason: facts.requestedReason,
    timestampRequired: false,
  };
  if (!sv) return outcome;
  const get = (key: string) => reader.resolve(sv.get(key));
  const flagsValue = get("Ff");
  const flags = typeof flagsValue === "number" ? flagsValue : 0;
  const required = (bit: number) => (flags & bit) !== 0;
  const refuse = (why: string): never => {
    throw new UnprocessableContent(
      "seed_value_unsatisfied",
      `The signature field "${facts.fieldName}" requires ${why}.`,
    );
  };
  const names = (key: string) =>
    arrayOf(reader, sv.get(key))
      .map((v) => reader.resolve(v))
      .filter((v): v is PdfName => v instanceof PdfName)
      .map((n) => n.name);

  const filter = get("Filter");
  if (required(FLAG.filter) && filter instanceof PdfName && filter.name !== "Adobe.PPKLite") {
    refuse(`the signature handler ${filter.name}; Signet signs with Adobe.PPKLite`);
  }

  const subFilters = names("SubFilter");
  if (subFilters.length) {
    const usable = subFilters.find((n): n is SubFilter => (SUPPORTED_SUBFILTERS as string[]).includes(n));
    if (usable) outcome.subFilter = usable;
    else if (required(FLAG.subFilter))
      refuse(`the sub-filter ${subFilters.join(" or ")}; Signet writes ETSI.CAdES.detached or adbe.pkcs7.detached`);
  }

  const version = get("V");
  if (required(FLAG.version) && typeof version === "number" && version > 2)
    refuse(`a seed value parser of version ${version}; Signet reads versions 1 and 2`);

  if (required(FLAG.reasons)) {
    const reasons = arrayOf(reader, sv.get("Reasons"))
      .map((v) => textOf(reader.resolve(v)))
      .filter((v): v is string => v !== null);
    if (reasons.length === 1 && reasons[0] === "") {
      if (facts.requestedReason) refuse("that no reason be given; leave signature.reason out");
      outcome.reason = null;
    } else if (reasons.length) {
      const quoted = reasons
        .slice(0, 10)
        .map((r) => JSON.stringify(r))
        .join(", ");
      if (facts.requestedReason === undefined) refuse(`one of these reasons in signature.reason: ${quoted}`);
      if (!reasons.includes(facts.requestedReason!))
        refuse(`one of these reasons, not ${JSON.stringify(facts.requestedReason)}: ${quoted}`);
    }
  }

  if (required(FLAG.legalAttestation) && arrayOf(reader, sv.get("LegalAttestation")).length)
    refuse("legal attestations, which only a certification signature carries");
  if (required(FLAG.addRevInfo) && get("AddRevInfo") === true)
    refuse("revocation information inside the CMS (adbe-revocationInfoArchival); Signet does not embed it");

  const digests = names("DigestMethod");
  const ours = facts.digestAlgorithm.replace("-", "");
  if (required(FLAG.digestMethod) && digests.length && !digests.includes(ours))
    refuse(`the digest ${digests.join(" or ")}; this deployment's key signs with ${ours}`);

  const lockDocument = get("LockDocument");
  if (
    required(FLAG.lockDocument) &&
    (lockDocument === true || (lockDocument instanceof PdfName && lockDocument.name === "true"))
  ) {
    refuse("that the signature lock the document; Signet signs without locking it");
  }
  if (required(FLAG.appearanceFilter) && get("AppearanceFilter") !== undefined)
    refuse("a named appearance (AppearanceFilter); Signet draws its own");

  const mdp = get("MDP");
  if (isDict(mdp)) {
    const p = reader.resolve(mdp.get("P"));
    if (typeof p === "number" && p >= 1 && p <= 3)
      refuse(`a certification signature (MDP P${p}); Signet makes approval signatures`);
  }

  const timestamp = get("TimeStamp");
  if (isDict(timestamp)) {
    const tsFlags = reader.resolve(timestamp.get("Ff"));
    if (tsFlags === 1) {
      if (!facts.timestampAvailable)
        refuse(
          "a time-stamp: ask for signature.level B-T or above, on a deployment with a time-stamp authority (TSA_URL)",
        );
      outcome.timestampRequired = true;
    }
  }

  const cert = get("Cert");
  if (isDict(cert)) checkCertificateSeed(reader, cert, facts, refuse);
  return outcome;
}

function checkCertificateSeed(reader: PdfReader, cert: PdfDict, facts: SignatureFacts, refuse: (why: string) => never) {
  const flagsValue = reader.resolve(cert.get("Ff"));
  const flags = typeof flagsValue === "number" ? flagsValue : 0;
  const ders = (key: string) =>
    arrayOf(reader, cert.get(key))
      .map((v) => reader.resolve(v))
      .map((v) => (v instanceof PdfString ? v.bytes : v instanceof PdfStream ? reader.decodeStream(v) : null))
      .filter((v): v is Uint8Array => v !== null);
  const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
  const [signer, ...issuers] = facts.certificates;
  if (flags & CERT_FLAG.subject) {
    const allowed = ders("Subject");
    if (allowed.length && !(signer && allowed.some((c) => same(c, signer))))
      refuse("a signing certificate this deployment does not have (seed value /Cert /Subject)");
  }
  if (flags & CERT_FLAG.issuer) {
    const allowed = ders("Issuer");
    if (allowed.length && !issuers.some((i) => allowed.some((c) => same(c, i))))
      refuse("a certificate issued by a CA this deployment's chain does not include (seed value /Cert /Issuer)");
  }
  const unchecked = (
    [
      [CERT_FLAG.oid, "certificate policy OIDs"],
      [CERT_FLAG.subjectDN, "subject names"],
      [CERT_FLAG.keyUsage, "key usages"],
      [CERT_FLAG.url, "a certificate enrolment URL"],
    ] as [number, string][]
  ).filter(([bit]) => flags & bit);
  if (unchecked.length)
    refuse(`certificate ${unchecked.map(([, what]) => what).join(", ")} that Signet does not check`);
}
