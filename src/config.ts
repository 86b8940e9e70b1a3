import type { AwsKmsSettings } from "./cms/signers/aws-kms";
import { ConfigurationError } from "./errors";
import { LIMITS } from "./limits";

/** The Worker's bindings and secrets (see interface.md "Configuration"). */
export interface Env {
  DB: D1Database;
  REPLAYS: R2Bucket;
  SIGNING_KEY?: string;
  SIGNING_CERT?: string;
  /** `aws`: the signing key is in AWS KMS (AWS_KMS_KEY_ID, AWS_REGION, credentials), not in SIGNING_KEY. */
  SIGNING_KMS?: string;
  AWS_KMS_KEY_ID?: string;
  AWS_REGION?: string;
  AWS_KMS_ENDPOINT?: string;
  AWS_KMS_SIGNING_ALGORITHM?: string;
  AWS_KMS_TIMEOUT_MS?: string;
  AWS_ACCESS_KEY_ID?: string;
  AWS_SECRET_ACCESS_KEY?: string;
  AWS_SESSION_TOKEN?: string;
  TRUSTED_ROOTS?: string;
  API_KEY_HASHES?: string;
  TSA_URL?: string;
  TSA_OPTIONAL?: string;
  SIGNATURE_LEVEL?: string;
  REVOCATION_OPTIONAL?: string;
  VERIFY_ONLINE_REVOCATION?: string;
  ALLOW_PRIVATE_URLS?: string;
  VERIFY_REQUIRES_AUTH?: string;
  MAX_BODY_BYTES?: string;
  MAX_DOCUMENT_BYTES?: string;
  MAX_FETCH_MS?: string;
  MAX_IMAGE_BYTES?: string;
  MAX_AUDIT_TRAIL_ENTRIES?: string;
  PUBLIC_BASE_URL?: string;
  /** Static assets (wrangler.toml [assets]): the DOCX renderer's fonts under /fonts/. */
  ASSETS?: Fetcher;
  /** `off` switches every rate limit off (benchmarks, load tests). */
  RATE_LIMITS?: string;
  /** Workers rate-limit bindings (wrangler.toml `[[ratelimits]]`); absent → per-isolate fallback. */
  RATE_LIMIT_API_KEY?: RateLimit;
  RATE_LIMIT_ANONYMOUS?: RateLimit;
  RATE_LIMIT_AUTH_FAILURES?: RateLimit;
}

/** Typed, validated view of `Env`, computed once per env object (i.e. per isolate). */
export interface Config {
  apiKeyHashes: Uint8Array[];
  tsaUrl: string | null;
  tsaOptional: boolean;
  /** SIGNATURE_LEVEL: the deployment's PAdES level (default B-T with a TSA, else B-B); null when the value is not a level. */
  signatureLevel: SignatureLevel | null;
  /** REVOCATION_OPTIONAL: missing validation data lowers B-LT/B-LTA to B-T with a warning instead of a 502. */
  revocationOptional: boolean;
  /** VERIFY_ONLINE_REVOCATION: /v1/verify also asks OCSP responders and CRL addresses (off: only the file's data). */
  verifyOnlineRevocation: boolean;
  allowPrivateUrls: boolean;
  verifyRequiresAuth: boolean;
  maxBodyBytes: number;
  maxDocumentBytes: number;
  /** Time budget of one URL fetch (document or image), env MAX_FETCH_MS. */
  fetchTimeoutMs: number;
  /** Bytes of one image value in /v1/annotate, env MAX_IMAGE_BYTES. */
  maxImageBytes: number;
  /** Audit-trail entries of a sign request, env MAX_AUDIT_TRAIL_ENTRIES (can only lower the schema's ceiling). */
  maxAuditTrailEntries: number;
  publicBaseUrl: string | null;
  rateLimitsEnabled: boolean;
}

export const SIGNATURE_LEVELS = ["B-B", "B-T", "B-LT", "B-LTA"] as const;
export type SignatureLevel = (typeof SIGNATURE_LEVELS)[number];

function parseLevel(v: string | undefined, fallback: SignatureLevel): SignatureLevel | null {
  const t = (v ?? "").trim().toUpperCase();
  if (!t) return fallback;
  return (SIGNATURE_LEVELS as readonly string[]).includes(t) ? (t as SignatureLevel) : null;
}

const cache = new WeakMap<object, Config>();

export function readConfig(env: Env): Config {
  const hit = cache.get(env);
  if (hit) return hit;
  const config: Config = {
    apiKeyHashes: parseKeyHashes(env.API_KEY_HASHES ?? ""),
    tsaUrl: env.TSA_URL?.trim() || null,
    tsaOptional: isTrue(env.TSA_OPTIONAL),
    signatureLevel: parseLevel(env.SIGNATURE_LEVEL, env.TSA_URL?.trim() ? "B-T" : "B-B"),
    revocationOptional: isTrue(env.REVOCATION_OPTIONAL),
    verifyOnlineRevocation: isTrue(env.VERIFY_ONLINE_REVOCATION),
    allowPrivateUrls: isTrue(env.ALLOW_PRIVATE_URLS),
    verifyRequiresAuth: isTrue(env.VERIFY_REQUIRES_AUTH),
    maxBodyBytes: positiveInt(env.MAX_BODY_BYTES, LIMITS.maxBodyBytes),
    maxDocumentBytes: positiveInt(env.MAX_DOCUMENT_BYTES, LIMITS.maxDocumentBytes),
    fetchTimeoutMs: positiveInt(env.MAX_FETCH_MS, LIMITS.fetchTimeoutMs),
    maxImageBytes: positiveInt(env.MAX_IMAGE_BYTES, LIMITS.docx.maxImageBytes),
    maxAuditTrailEntries: Math.min(
      positiveInt(env.MAX_AUDIT_TRAIL_ENTRIES, LIMITS.maxAuditTrailEntries),
      LIMITS.maxAuditTrailEntries,
    ),
    publicBaseUrl: env.PUBLIC_BASE_URL?.trim().replace(/\/+$/, "") || null,
    rateLimitsEnabled: (env.RATE_LIMITS ?? "").trim().toLowerCase() !== "off",
  };
  cache.set(env, config);
  return config;
}

function isTrue(v: string | undefined): boolean {
  return (v ?? "").trim().toLowerCase() === "true";
}

function positiveInt(v: string | undefined, fallback: number): number {
  const n = Number((v ?? "").trim());
  return Number.isSafeInteger(n) && n > 0 ? n : fallback;
}

/** `API_KEY_HASHES`: comma (or whitespace) separated SHA-256 hex digests; anything else is ignored. */
function parseKeyHashes(text: string): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const item of text.split(/[\s,]+/)) {
    const hex = item.trim().toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(hex)) continue;
    const bytes = new Uint8Array(32);
    for (let i = 0; i < 32; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
    out.push(bytes);
  }
  return out;
}

/** Where the signing key lives: the `SIGNING_KEY` secret, or a key in AWS KMS (`SIGNING_KMS=aws`). */
export type SigningKeySource =
  { kind: "secret"; keyPem: string | undefined } | { kind: "aws-kms"; settings: AwsKmsSettings };

/** Reads the key's settings; a KMS configuration that lacks something is a ConfigurationError (503). */
export function signingKeySource(env: Env): SigningKeySource {
  const kms = env.SIGNING_KMS?.trim().toLowerCase();
  if (!kms) return { kind: "secret", keyPem: env.SIGNING_KEY };
  if (kms !== "aws")
    throw new ConfigurationError(`SIGNING_KMS must be "aws" (or unset for SIGNING_KEY); it is "${kms.slice(0, 32)}".`);
  const value = (name: keyof Env) => {
    const v = env[name];
    return typeof v === "string" && v.trim() ? v.trim() : null;
  };
  const required = ["AWS_KMS_KEY_ID", "AWS_REGION", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"] as const;
  const missing = required.filter((name) => !value(name));
  if (missing.length) throw new ConfigurationError(`SIGNING_KMS=aws needs ${missing.join(", ")}.`);
  const endpoint = value("AWS_KMS_ENDPOINT");
  if (endpoint !== null) {
    let url: URL | null = null;
    try {
      url = new URL(endpoint);
    } catch {
      /* reported below */
    }
    if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password) {
      throw new ConfigurationError("AWS_KMS_ENDPOINT must be an http(s) URL without credentials.");
    }
  }
  const session = value("AWS_SESSION_TOKEN");
  return {
    kind: "aws-kms",
    settings: {
      keyId: value("AWS_KMS_KEY_ID")!,
      region: value("AWS_REGION")!,
      endpoint,
      accessKeyId: value("AWS_ACCESS_KEY_ID")!,
      secretAccessKey: value("AWS_SECRET_ACCESS_KEY")!,
      ...(session ? { sessionToken: session } : {}),
      signingAlgorithm: value("AWS_KMS_SIGNING_ALGORITHM"),
      timeoutMs: positiveInt(env.AWS_KMS_TIMEOUT_MS, LIMITS.kmsTimeoutMs),
    },
  };
}
