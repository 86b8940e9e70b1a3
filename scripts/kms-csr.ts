/**
 * `npm run kms:csr -- --subject "CN=Acme Document Signing,O=Acme Ltd,C=DE"`: a PKCS#10 certificate
 * request for the AWS KMS key Signet signs with, signed by that key in KMS (GetPublicKey for the
 * public key, Sign with MessageType DIGEST for the request's signature, the same client the
 * worker uses). Give the PEM it prints to your CA; the certificate it returns, followed by the
 * CA's chain, becomes SIGNING_CERT. The private key never leaves KMS.
 *
 * Reads the worker's settings from the environment: AWS_KMS_KEY_ID, AWS_REGION,
 * AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, optional AWS_SESSION_TOKEN, AWS_KMS_ENDPOINT and
 * AWS_KMS_SIGNING_ALGORITHM. `--subject` takes CN, O, OU, L, ST, C and E (emailAddress),
 * comma-separated; a comma inside a value is written `\,`.
 */
import { signingKeySource, type Env } from "../src/config";
import { connectAwsKmsKey } from "../src/cms/signers/aws-kms";
import { oid, sequence, setOf, smallInteger, tlv, utf8String } from "../src/cms/der";
import { toPem } from "../src/cms/pem";
import { SignetError } from "../src/errors";

const ATTRIBUTES: Record<string, { oid: string; tag: number }> = {
  CN: { oid: "2.5.4.3", tag: 0x0c },
  O: { oid: "2.5.4.10", tag: 0x0c },
  OU: { oid: "2.5.4.11", tag: 0x0c },
  L: { oid: "2.5.4.7", tag: 0x0c },
  ST: { oid: "2.5.4.8", tag: 0x0c },
  C: { oid: "2.5.4.6", tag: 0x13 }, // PrintableString
  E: { oid: "1.2.840.113549.1.9.1", tag: 0x16 }, // IA5String
};

/** A DER Name from `CN=...,O=...`: one attribute per RDN, in the order given. */
export function encodeSubject(subject: string): Uint8Array {
  const rdns = subject
    .split(/(?<!\\),/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const eq = part.indexOf("=");
      const key = part.slice(0, eq).trim().toUpperCase();
      const value = part
        .slice(eq + 1)
        .trim()
        .replace(/\\,/g, ",");
      const attribute = ATTRIBUTES[key];
      if (eq < 1 || !attribute || !value)
        throw new Error(`--subject: cannot read "${part}" (use CN, O, OU, L, ST, C, E)`);
      if (key === "C" && !/^[A-Z]{2}$/.test(value)) throw new Error("--subject: C must be a two-letter country code");
      const encoded = attribute.tag === 0x0c ? utf8String(value) : tlv(attribute.tag, new TextEncoder().encode(value));
      return setOf(sequence(oid(attribute.oid), encoded));
    });
  if (!rdns.length) throw new Error('--subject is required, e.g. --subject "CN=Acme Document Signing,O=Acme Ltd,C=DE"');
  return sequence(...rdns);
}

export async function kmsCertificateRequest(env: Env, subject: string): Promise<string> {
  const source = signingKeySource({ ...env, SIGNING_KMS: "aws" });
  if (source.kind !== "aws-kms") throw new Error("unreachable");
  const key = await connectAwsKmsKey(source.settings);
  const info = sequence(smallInteger(0), encodeSubject(subject), key.publicKeyInfo, tlv(0xa0, new Uint8Array(0))); // attributes [0]: none
  const digest = new Uint8Array(await crypto.subtle.digest(key.signer.digestAlgorithm, info));
  const signature = await key.signer.sign(info, digest); // verified against the KMS public key inside
  const request = sequence(info, key.signer.signatureAlgorithm, tlv(0x03, new Uint8Array([0, ...signature])));
  return toPem("CERTIFICATE REQUEST", request);
}

async function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf("--subject");
  const subject = at >= 0 ? args[at + 1] : undefined;
  if (!subject) {
    console.error('usage: npm run kms:csr -- --subject "CN=Acme Document Signing,O=Acme Ltd,C=DE" > signet.csr');
    process.exit(2);
  }
  try {
    process.stdout.write(await kmsCertificateRequest(process.env as unknown as Env, subject));
  } catch (e) {
    console.error(`kms:csr: ${e instanceof SignetError || e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
