import type { Config, SignatureLevel } from "../config";
import { createRevocationFetcher } from "../cms/revocation/fetch";
import { requestTimestamp } from "../cms/tsa";
import { ConfigurationError, RevocationUnavailable, TsaFailed } from "../errors";
import { appendArchiveTimestamp, appendValidationData, gatherLongTermData } from "../pdf/sign/long-term";
import { type ParsedCertificate, summarizeCertificate } from "../cms/verify/certificate";
import { concatBytes } from "../util/bytes";

/**
 * Raising a fresh B-T signature to B-LT or B-LTA (the signing operation's last step): the
 * validation data of every signature in the document, then for B-LTA a document time-stamp.
 * What cannot be had is a 502 (`revocation_unavailable`, `tsa_failed`) unless
 * REVOCATION_OPTIONAL / TSA_OPTIONAL allow a lower level, said in `warnings`.
 */

export interface LongTermSigningInput {
  segments: Uint8Array[];
  fieldName: string;
  level: "B-LT" | "B-LTA";
  tsaUrl: string;
  config: Config;
  selfHost?: string;
  /** Room for the document time-stamp token (the signature time-stamp's size plus a margin). */
  timestampCapacity: number;
}

export interface LongTermSigningResult {
  segments: Uint8Array[];
  level: SignatureLevel;
  warnings: string[];
  documentTimestamp: null | { time: string; tsa: string | null; serialNumber: string };
}

export async function extendToLongTerm(input: LongTermSigningInput): Promise<LongTermSigningResult> {
  const { config } = input;
  const warnings: string[] = [];
  const fetcher = createRevocationFetcher({
    allowPrivateUrls: config.allowPrivateUrls,
    timeoutMs: config.fetchTimeoutMs,
    selfHost: input.selfHost,
  });
  const bytes = input.segments.length === 1 ? input.segments[0]! : concatBytes(input.segments);
  const gathered = await gatherLongTermData(bytes, input.fieldName, fetcher);
  const target = gathered.target;
  if (!target) throw new Error("the new signature cannot be read back");

  const revoked = target.data.statuses.filter((s) => s.finding.status === "revoked");
  if (revoked.length) {
    const list = revoked.map(
      (s) => `${subjectOf(s.certificate)} (revoked ${s.finding.revocationTime?.toISOString() ?? "at an unknown time"})`,
    );
    throw new ConfigurationError(
      `A certificate of the signing or time-stamping chain is revoked: ${list.join("; ")}. Replace it before signing.`,
    );
  }
  if (target.data.missing.length) {
    const detail = target.data.missing.map((m) => `${m.subject}: ${m.why}`).join("; ");
    if (!config.revocationOptional)
      throw new RevocationUnavailable(`Validation data for ${input.level} could not be obtained (${detail}).`);
    warnings.push(`Validation data could not be obtained (${detail}); the signature is PAdES B-T without it.`);
    return { segments: input.segments, level: "B-T", warnings, documentTimestamp: null };
  }
  for (const other of gathered.others) {
    if (other.data.missing.length) {
      warnings.push(
        `Validation data for the earlier signature "${other.fieldName}" is incomplete (${other.data.missing.map((m) => m.subject).join("; ")}).`,
      );
    }
  }

  let segments = await appendValidationData(input.segments, [target, ...gathered.others]);
  if (input.level === "B-LT") return { segments, level: "B-LT", warnings, documentTimestamp: null };

  let documentTimestamp: LongTermSigningResult["documentTimestamp"] = null;
  try {
    const archived = await appendArchiveTimestamp(
      segments,
      {
        capacity: input.timestampCapacity,
        timestamp: async (digest) => {
          const stamp = await requestTimestamp({ url: input.tsaUrl, messageImprint: digest });
          documentTimestamp = {
            time: stamp.genTime.toISOString(),
            tsa: stamp.tsaName,
            serialNumber: stamp.serialNumber,
          };
          return stamp.token;
        },
      },
      fetcher,
    );
    segments = archived.segments;
    if (archived.missing.length) {
      warnings.push(
        `Validation data for the document time-stamp's authority is incomplete (${archived.missing.map((m) => `${m.subject}: ${m.why}`).join("; ")}).`,
      );
    }
  } catch (err) {
    if (!(err instanceof TsaFailed) || !config.tsaOptional) throw err;
    warnings.push(
      `The time-stamp authority failed for the document time-stamp (${err.message}); the signature is PAdES B-LT.`,
    );
    return { segments, level: "B-LT", warnings, documentTimestamp: null };
  }
  return { segments, level: "B-LTA", warnings, documentTimestamp };
}

function subjectOf(cert: ParsedCertificate): string {
  return summarizeCertificate(cert).subject;
}
