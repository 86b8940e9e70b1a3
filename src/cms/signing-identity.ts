/**
 * The service's signing identity: who holds the private key (a Worker secret, or a key in AWS
 * KMS) and the certificate chain from `SIGNING_CERT`, checked to belong together, read once per
 * isolate (the caller caches the result).
 */
import * as pkijs from "pkijs";
import { ConfigurationError } from "../errors";
import { DerError, toArrayBuffer } from "./der";
import { formatName } from "./names";
import { parseCertificatesPem } from "./pem";
import { connectAwsKmsKey, type AwsKmsSettings } from "./signers/aws-kms";
import { loadLocalKey, type KeyAlgorithm, type NamedCurve } from "./signers/local-key";
import type { DocumentSigner } from "./signers/signer";
import { certificateParts, type CertificateParts } from "./x509";
import { bytesEqual, toHex } from "../util/bytes";

export type { KeyAlgorithm, NamedCurve } from "./signers/local-key";

export interface SigningIdentity {
  /** Signs digests: the Worker-secret key or the KMS key. */
  signer: DocumentSigner;
  /** Where the key lives, for operators: `SIGNING_KEY` or the KMS key's ARN. */
  keySource: string;
  /** For local keys (`SIGNING_KEY`): what the key is. */
  keyAlgorithm?: KeyAlgorithm;
  namedCurve?: NamedCurve;
  /** For RSA keys: modulus size in bits. */
  modulusLength?: number;
  /** Parsed chain, signer first. */
  certificates: pkijs.Certificate[];
  /** DER of each certificate, same order. */
  certificatesDer: Uint8Array[];
  /** SHA-256 of the signer certificate's DER, lowercase hex. */
  signerCertSha256: string;
  /** Readable subject of the signer certificate, e.g. `CN=Signet Development Signer, O=Signet (development)`. */
  signerSubject: string;
  /** Readable issuer of the signer certificate, same format. */
  signerIssuer: string;
  /** Last certificate of the chain (the signer itself when the chain has one certificate). */
  rootCertificate: pkijs.Certificate;
}

function parseChain(certPem: string): { der: Uint8Array[]; parts: CertificateParts[]; parsed: pkijs.Certificate[] } {
  const der = parseCertificatesPem(certPem, "SIGNING_CERT");
  const parts: CertificateParts[] = [];
  const parsed: pkijs.Certificate[] = [];
  der.forEach((d, i) => {
    try {
      parts.push(certificateParts(d));
      parsed.push(pkijs.Certificate.fromBER(toArrayBuffer(d)));
    } catch (e) {
      const why = e instanceof DerError ? `: ${e.message}` : "";
      throw new ConfigurationError(`SIGNING_CERT: certificate #${i + 1} is not a readable X.509 certificate${why}.`);
    }
  });
  return { der, parts, parsed };
}

/**
 * Imports `SIGNING_KEY` (PKCS#8 PEM; PKCS#1 / SEC1 PEM also accepted) and `SIGNING_CERT`
 * (PEM chain, signer first) and checks that they belong together.
 * Throws ConfigurationError with an operator-readable message otherwise.
 */
export async function loadSigningIdentity(keyPem: string, certPem: string): Promise<SigningIdentity> {
  const key = await loadLocalKey(keyPem);
  const chain = parseChain(certPem);
  await key.checkCertificate(chain.parts[0]!);
  const { signer, keyAlgorithm, namedCurve, modulusLength } = key;
  return assembleIdentity({ signer, keySource: "SIGNING_KEY", keyAlgorithm, namedCurve, modulusLength }, chain);
}

/**
 * A key in AWS KMS with the chain of `SIGNING_CERT`: the public key KMS gives (GetPublicKey)
 * must be the first certificate's. KMS unreachable or refusing: SignerFailed (502).
 */
export async function loadKmsSigningIdentity(settings: AwsKmsSettings, certPem: string): Promise<SigningIdentity> {
  const chain = parseChain(certPem);
  const key = await connectAwsKmsKey(settings);
  if (!bytesEqual(key.publicKeyInfo, chain.parts[0]!.subjectPublicKeyInfo)) {
    throw new ConfigurationError(
      `The public key of the AWS KMS key ${key.keyArn} (${key.keySpec}) is not the one in the first certificate of SIGNING_CERT; ` +
        "SIGNING_CERT must start with the certificate issued for this KMS key.",
    );
  }
  return assembleIdentity({ signer: key.signer, keySource: key.keyArn }, chain);
}

type Chain = ReturnType<typeof parseChain>;

async function assembleIdentity(
  key: Pick<SigningIdentity, "signer" | "keySource" | "keyAlgorithm" | "namedCurve" | "modulusLength">,
  chain: Chain,
): Promise<SigningIdentity> {
  const signerParts = chain.parts[0]!;
  // The rest of the chain must follow issuer order, so relying parties can build the path.
  for (let i = 0; i + 1 < chain.parsed.length; i++) {
    const child = chain.parsed[i]!;
    const parent = chain.parsed[i + 1]!;
    let issued = child.issuer.isEqual(parent.subject);
    if (issued) {
      try {
        issued = await child.verify(parent);
      } catch {
        issued = false;
      }
    }
    if (!issued) {
      throw new ConfigurationError(
        `SIGNING_CERT: certificate #${i + 2} is not the issuer of certificate #${i + 1}; ` +
          `list the signer certificate first, then each issuer in order up to the root.`,
      );
    }
  }

  const fingerprint = new Uint8Array(await crypto.subtle.digest("SHA-256", toArrayBuffer(chain.der[0]!)));
  const readable = (nameDer: Uint8Array) => {
    try {
      return formatName(nameDer);
    } catch {
      return "(unreadable name)";
    }
  };

  return {
    signer: key.signer,
    keySource: key.keySource,
    ...(key.keyAlgorithm ? { keyAlgorithm: key.keyAlgorithm } : {}),
    ...(key.namedCurve ? { namedCurve: key.namedCurve } : {}),
    ...(key.modulusLength ? { modulusLength: key.modulusLength } : {}),
    certificates: chain.parsed,
    certificatesDer: chain.der,
    signerCertSha256: toHex(fingerprint),
    signerSubject: readable(signerParts.subject),
    signerIssuer: readable(signerParts.issuer),
    rootCertificate: chain.parsed[chain.parsed.length - 1]!,
  };
}
