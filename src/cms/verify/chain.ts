/**
 * Certification path building: from a leaf through the certificates a CMS carries to a
 * trust anchor. Issuers are matched by name (and key identifiers when both sides have
 * them) and proven by verifying the child's signature. Depth ≤ 10, cycle-safe, with a
 * work budget. Every certificate except the anchor must be valid at the given time;
 * issuers must be CAs (basicConstraints cA, keyCertSign when keyUsage is present,
 * pathLenConstraint respected). Revocation is not checked.
 */
import { type ParsedCertificate, isSelfIssued, namesEqual, validAt } from "./certificate";
import { type SignatureCheck, verifyCertificateSignature } from "./signature";
import { bytesEqual } from "../../util/bytes";

export const MAX_CHAIN_DEPTH = 10;
const MAX_EXPANSIONS = 200;
/** Signature checks per path search (hostile CMS: many certificates with the same name). */
const MAX_SIGNATURE_CHECKS = 64;

export interface ChainResult {
  /** A path to an anchor was found whose certificates satisfy the CA constraints. */
  anchored: boolean;
  /** leaf … anchor when anchored; the longest partial path otherwise. */
  path: ParsedCertificate[];
  /** Certificates of the path (anchor excluded) not valid at the judged time. */
  invalidAtTime: ParsedCertificate[];
  /** Certificates of the path (anchor excluded) valid at the judged time but expired at `now`. */
  expiredNow: ParsedCertificate[];
  /** Why the best path that reached an anchor breaks a CA rule, if it does. */
  constraintProblem: string | null;
  /** Hash algorithms of the signatures on the path (for weak-algorithm reporting). */
  weakSignatures: string[];
  trusted: boolean;
}

function sameKeyAndName(a: ParsedCertificate, b: ParsedCertificate): boolean {
  return a.sha256 === b.sha256 || (namesEqual(a.subjectDer, b.subjectDer) && bytesEqual(a.spki.bytes, b.spki.bytes));
}

function isCa(cert: ParsedCertificate): string | null {
  if (cert.version < 3 || !cert.basicConstraints?.ca) return "is not a CA certificate (basicConstraints)";
  if (cert.keyUsage && !cert.keyUsage[5]) return "may not sign certificates (keyUsage)";
  return null;
}

export async function buildChain(
  leaf: ParsedCertificate,
  pool: readonly ParsedCertificate[],
  anchors: readonly ParsedCertificate[],
  at: Date,
  now: Date,
): Promise<ChainResult> {
  const candidates = [...anchors, ...pool.filter((c) => !anchors.some((a) => a.sha256 === c.sha256))];
  const sigCache = new Map<string, Promise<SignatureCheck>>();
  const issuedBy = (child: ParsedCertificate, parent: ParsedCertificate): Promise<SignatureCheck> => {
    const key = child.sha256 + ">" + parent.sha256;
    let p = sigCache.get(key);
    if (!p && sigCache.size >= MAX_SIGNATURE_CHECKS) {
      return Promise.resolve({ valid: false, algorithm: null, hash: null, detail: "too many candidate issuers" });
    }
    if (!p) {
      p = verifyCertificateSignature(child.tbs, child.signatureAlgorithm, child.signatureValue, parent.spki);
      sigCache.set(key, p);
    }
    return p;
  };
  const isAnchor = (c: ParsedCertificate) => anchors.some((a) => sameKeyAndName(a, c));

  const complete: ParsedCertificate[][] = [];
  let longest: ParsedCertificate[] = [leaf];
  let expansions = 0;
  const hashes = new Map<string, string | null>();

  async function extend(path: ParsedCertificate[]): Promise<void> {
    const cert = path[path.length - 1]!;
    if (isAnchor(cert)) {
      complete.push(path);
      return;
    }
    if (path.length > MAX_CHAIN_DEPTH || ++expansions > MAX_EXPANSIONS) return;
    for (const cand of candidates) {
      if (!namesEqual(cand.subjectDer, cert.issuerDer)) continue;
      if (cert.authorityKeyId && cand.subjectKeyId && !bytesEqual(cert.authorityKeyId, cand.subjectKeyId)) continue;
      if (path.some((p) => p.sha256 === cand.sha256)) continue;
      const check = await issuedBy(cert, cand);
      if (check.valid !== true) continue;
      hashes.set(cert.sha256, check.hash);
      const next = [...path, cand];
      if (next.length > longest.length) longest = next;
      await extend(next);
      if (complete.some((p) => judge(p).ok)) return;
    }
  }

  function judge(path: ParsedCertificate[]): { ok: boolean; problem: string | null; invalid: ParsedCertificate[] } {
    // The anchor is trusted as configured; a leaf that is itself the anchor is still judged.
    const body = path.length > 1 && isAnchor(path[path.length - 1]!) ? path.slice(0, -1) : path;
    const invalid = body.filter((c) => !validAt(c, at));
    let problem: string | null = null;
    // Issuers below the anchor must be CAs and respect path length limits (RFC 5280 4.2.1.9:
    // pathLen counts the non-self-issued intermediates between the issuer and the leaf).
    const below = (i: number) => body.slice(1, i).filter((c) => !isSelfIssued(c)).length;
    for (let i = 1; i < body.length && !problem; i++) {
      const issuer = body[i]!;
      const why = isCa(issuer);
      if (why) problem = `an intermediate certificate ${why}`;
      const pathLen = issuer.basicConstraints?.pathLen ?? null;
      if (!problem && pathLen !== null && below(i) > pathLen) {
        problem = "the path is longer than an issuer's pathLenConstraint allows";
      }
    }
    const anchor = path[path.length - 1]!;
    const anchorPathLen = anchor.basicConstraints?.pathLen ?? null;
    if (
      !problem &&
      path.length > 1 &&
      isAnchor(anchor) &&
      anchorPathLen !== null &&
      below(body.length) > anchorPathLen
    ) {
      problem = "the path is longer than the root's pathLenConstraint allows";
    }
    if (!problem) {
      const critical = body.find((c) => c.unknownCritical.length > 0);
      if (critical)
        problem = `a certificate has an unsupported critical extension (${critical.unknownCritical.join(", ")})`;
    }
    return { ok: !problem && invalid.length === 0, problem, invalid };
  }

  await extend([leaf]);

  const best = complete.find((p) => judge(p).ok) ?? complete.find((p) => !judge(p).problem) ?? complete[0] ?? null;
  const path = best ?? longest;
  const verdict = judge(path);
  const body = best && path.length > 1 && isAnchor(path[path.length - 1]!) ? path.slice(0, -1) : path;
  const expiredNow = body.filter((c) => validAt(c, at) && now.getTime() > c.notAfter.getTime());
  const weakSignatures: string[] = [];
  for (const c of body) {
    const h = hashes.get(c.sha256);
    if (h === "MD5" || h === "SHA-1") weakSignatures.push(h);
  }
  const anchored = best !== null && !verdict.problem;
  return {
    anchored,
    path,
    invalidAtTime: verdict.invalid,
    expiredNow,
    constraintProblem: best ? verdict.problem : null,
    weakSignatures,
    trusted: anchored && verdict.invalid.length === 0,
  };
}
