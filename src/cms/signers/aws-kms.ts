/**
 * The signer whose key stays in AWS KMS: `Sign` with `MessageType: DIGEST` over the signed
 * attributes' digest, requests signed with SigV4 by aws4fetch, the AWS JSON 1.1 protocol
 * (`X-Amz-Target: TrentService.<Action>`). `GetPublicKey`, once per isolate, tells the key's spec
 * and signing algorithms and gives the public key the certificate must hold.
 *
 * Key specs: RSA_2048/3072/4096 (RSASSA_PKCS1_V1_5_SHA_256, or RSASSA_PSS_SHA_256 with
 * `AWS_KMS_SIGNING_ALGORITHM`), ECC_NIST_P256 (ECDSA_SHA_256) and ECC_NIST_P384 (ECDSA_SHA_384:
 * KMS signs a P-384 key's digests with SHA-384 only, so such signatures hash with SHA-384).
 * Every signature KMS returns is verified with the public key before it goes into a document.
 */
import { AwsClient } from "aws4fetch";
import { ConfigurationError, SignerFailed } from "../../errors";
import { readCappedBody, untilAborted } from "../../util/capped-body";
import { toArrayBuffer } from "../der";
import {
  ecdsaDerToRaw,
  maxEcdsaDerLength,
  signatureAlgorithmIdentifier,
  type DigestAlgorithm,
  type DocumentSigner,
  type SignatureScheme,
} from "./signer";

export interface AwsKmsSettings {
  /** Key id, key ARN, alias name (`alias/...`) or alias ARN. */
  keyId: string;
  region: string;
  /** Another endpoint (a FIPS or VPC endpoint, a test server); default `https://kms.<region>.amazonaws.com/`. */
  endpoint: string | null;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** For RSA keys: `RSASSA_PKCS1_V1_5_SHA_256` (default) or `RSASSA_PSS_SHA_256`. */
  signingAlgorithm: string | null;
  timeoutMs: number;
}

export interface AwsKmsKey {
  signer: DocumentSigner;
  /** DER SubjectPublicKeyInfo as KMS gives it. */
  publicKeyInfo: Uint8Array;
  keySpec: string;
  /** The key's ARN as KMS names it. */
  keyArn: string;
}

interface SpecChoice {
  algorithm: string;
  scheme: SignatureScheme;
  digest: DigestAlgorithm;
  maxSignatureLength: number;
  verify: SubtleCryptoSignAlgorithm;
  importParams: SubtleCryptoImportKeyAlgorithm;
  ecdsaHalf?: number;
}

const RSA_ALGORITHMS: Record<string, { scheme: SignatureScheme; verify: SubtleCryptoSignAlgorithm; name: string }> = {
  RSASSA_PKCS1_V1_5_SHA_256: {
    scheme: "RSASSA-PKCS1-v1_5",
    verify: { name: "RSASSA-PKCS1-v1_5" },
    name: "RSASSA-PKCS1-v1_5",
  },
  RSASSA_PSS_SHA_256: { scheme: "RSASSA-PSS", verify: { name: "RSA-PSS", saltLength: 32 }, name: "RSA-PSS" },
};

/** What Signet signs with for a key spec (and, for RSA, the configured algorithm). */
function chooseAlgorithm(keySpec: string, configured: string | null): SpecChoice {
  const rsa = /^RSA_(2048|3072|4096)$/.exec(keySpec);
  if (rsa) {
    const algorithm = configured ?? "RSASSA_PKCS1_V1_5_SHA_256";
    const known = RSA_ALGORITHMS[algorithm];
    if (!known) {
      throw new ConfigurationError(
        `AWS_KMS_SIGNING_ALGORITHM must be RSASSA_PKCS1_V1_5_SHA_256 or RSASSA_PSS_SHA_256 for an RSA key (was ${algorithm.slice(0, 64)}).`,
      );
    }
    return {
      algorithm,
      scheme: known.scheme,
      digest: "SHA-256",
      maxSignatureLength: Number(rsa[1]) / 8,
      verify: known.verify,
      importParams: { name: known.name, hash: "SHA-256" },
    };
  }
  if (keySpec === "ECC_NIST_P256" || keySpec === "ECC_NIST_P384") {
    const p256 = keySpec === "ECC_NIST_P256";
    const algorithm = p256 ? "ECDSA_SHA_256" : "ECDSA_SHA_384";
    if (configured && configured !== algorithm) {
      throw new ConfigurationError(
        `AWS_KMS_SIGNING_ALGORITHM ${configured.slice(0, 64)} does not fit the KMS key (${keySpec} signs with ${algorithm}); leave it unset.`,
      );
    }
    const digest: DigestAlgorithm = p256 ? "SHA-256" : "SHA-384";
    return {
      algorithm,
      scheme: "ECDSA",
      digest,
      maxSignatureLength: maxEcdsaDerLength(p256 ? 32 : 48),
      verify: { name: "ECDSA", hash: digest },
      importParams: { name: "ECDSA", namedCurve: p256 ? "P-256" : "P-384" },
      ecdsaHalf: p256 ? 32 : 48,
    };
  }
  throw new ConfigurationError(
    `The AWS KMS key's spec is ${keySpec.slice(0, 64)}; Signet signs with RSA_2048/3072/4096, ECC_NIST_P256 or ECC_NIST_P384 keys (key usage SIGN_VERIFY).`,
  );
}

const MAX_RESPONSE_BYTES = 64 * 1024;

/** One AWS JSON 1.1 call to KMS; KMS errors, transport failures and time-outs are SignerFailed. */
async function callKms(
  settings: AwsKmsSettings,
  client: AwsClient,
  action: "Sign" | "GetPublicKey",
  body: object,
): Promise<Record<string, unknown>> {
  const endpoint = settings.endpoint ?? `https://kms.${settings.region}.amazonaws.com/`;
  const signal = AbortSignal.timeout(settings.timeoutMs);
  const what = `AWS KMS ${action}`;
  const timedOut = () => new SignerFailed(`${what} did not answer within ${settings.timeoutMs / 1000} s.`);
  let response: Response;
  try {
    response = await untilAborted(
      client.fetch(endpoint, {
        method: "POST",
        headers: { "Content-Type": "application/x-amz-json-1.1", "X-Amz-Target": `TrentService.${action}` },
        body: JSON.stringify(body),
        signal,
        redirect: "manual",
      }),
      signal,
    );
  } catch (e) {
    if (signal.aborted) throw timedOut();
    throw new SignerFailed(`${what} could not be reached (${printable(e instanceof Error ? e.message : String(e))}).`);
  }
  let text: string;
  try {
    text = new TextDecoder().decode(
      await readCappedBody(
        response,
        MAX_RESPONSE_BYTES,
        signal,
        () => new SignerFailed(`${what} answered with more than ${MAX_RESPONSE_BYTES} bytes.`),
      ),
    );
  } catch (e) {
    if (e instanceof SignerFailed) throw e;
    if (signal.aborted) throw timedOut();
    throw new SignerFailed(`Reading the answer of ${what} failed.`);
  }
  let json: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) json = parsed as Record<string, unknown>;
  } catch {
    /* reported below */
  }
  if (response.status !== 200) {
    // AWS JSON errors: {"__type": "[namespace#]AccessDeniedException", "message": "..."}.
    const type = String(json?.__type ?? response.headers.get("x-amzn-errortype") ?? "")
      .split("#")
      .pop()!
      .split(":")[0]!;
    const message = String(json?.message ?? json?.Message ?? "");
    throw new SignerFailed(
      `${what} refused: HTTP ${response.status}${type ? ` ${printable(type)}` : ""}${message ? `: ${printable(message)}` : ""}.`,
    );
  }
  if (!json) throw new SignerFailed(`${what} answered with something that is not a JSON object.`);
  return json;
}

/** Operator-visible text from a remote answer: printable ASCII, at most 300 characters. */
function printable(s: string): string {
  return s.replace(/[^\x20-\x7e]/g, "?").slice(0, 300);
}

function base64Bytes(value: unknown, what: string): Uint8Array {
  if (typeof value !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length === 0) {
    throw new SignerFailed(`AWS KMS answered without a base64 ${what}.`);
  }
  const binary = atob(value);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/**
 * Asks KMS for the key's public key and spec (GetPublicKey) and returns a signer for it.
 * A key KMS cannot reach or refuses: SignerFailed (502); a key Signet cannot sign with:
 * ConfigurationError (503).
 */
export async function connectAwsKmsKey(settings: AwsKmsSettings): Promise<AwsKmsKey> {
  const client = new AwsClient({
    accessKeyId: settings.accessKeyId,
    secretAccessKey: settings.secretAccessKey,
    ...(settings.sessionToken ? { sessionToken: settings.sessionToken } : {}),
    service: "kms",
    region: settings.region,
    retries: 0, // a failed signature is a 502; the caller retries with the same eventId
  });
  const info = await callKms(settings, client, "GetPublicKey", { KeyId: settings.keyId });
  const keySpec = String(info.KeySpec ?? info.CustomerMasterKeySpec ?? "");
  if (info.KeyUsage !== undefined && info.KeyUsage !== "SIGN_VERIFY") {
    throw new ConfigurationError(
      `The AWS KMS key's usage is ${printable(String(info.KeyUsage))}; a signing key needs SIGN_VERIFY.`,
    );
  }
  const choice = chooseAlgorithm(keySpec, settings.signingAlgorithm);
  const offered = Array.isArray(info.SigningAlgorithms) ? info.SigningAlgorithms.map(String) : [];
  if (!offered.includes(choice.algorithm)) {
    throw new ConfigurationError(
      `The AWS KMS key does not offer ${choice.algorithm} (it offers ${printable(offered.join(", ")) || "none"}).`,
    );
  }
  const publicKeyInfo = base64Bytes(info.PublicKey, "PublicKey");
  let publicKey: CryptoKey;
  try {
    publicKey = await crypto.subtle.importKey("spki", toArrayBuffer(publicKeyInfo), choice.importParams, false, [
      "verify",
    ]);
  } catch {
    throw new SignerFailed("AWS KMS answered GetPublicKey with a public key that cannot be read.");
  }
  const keyArn = printable(String(info.KeyId ?? settings.keyId));

  const signer: DocumentSigner = {
    digestAlgorithm: choice.digest,
    scheme: choice.scheme,
    signatureAlgorithm: signatureAlgorithmIdentifier(choice.scheme, choice.digest),
    maxSignatureLength: choice.maxSignatureLength,
    async sign(signedAttributes, digest) {
      const answer = await callKms(settings, client, "Sign", {
        KeyId: settings.keyId,
        Message: base64(digest),
        MessageType: "DIGEST",
        SigningAlgorithm: choice.algorithm,
      });
      const signature = base64Bytes(answer.Signature, "Signature");
      if (signature.length > choice.maxSignatureLength)
        throw new SignerFailed("AWS KMS returned a signature longer than its key allows.");
      // Checked before it goes into a document: a wrong key or a corrupted answer fails here, not in a validator.
      let raw: Uint8Array;
      try {
        raw = choice.ecdsaHalf ? ecdsaDerToRaw(signature, choice.ecdsaHalf) : signature;
      } catch {
        throw new SignerFailed("AWS KMS returned an ECDSA signature that is not DER.");
      }
      const valid = await crypto.subtle
        .verify(choice.verify, publicKey, toArrayBuffer(raw), toArrayBuffer(signedAttributes))
        .catch(() => false);
      if (!valid)
        throw new SignerFailed("AWS KMS returned a signature that does not verify with the key's public key.");
      return signature;
    },
  };
  return { signer, publicKeyInfo, keySpec, keyArn };
}
