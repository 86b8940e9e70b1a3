import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  certificateDer,
  createRootCa,
  createSigningCertificate,
  exportPrivateKeyPem,
  generateKeyPair,
} from "../../test/support/signing-identities";
import { ConfigurationError } from "../errors";
import { TAG, children, explicit, oid, readDer, sequence } from "./der";
import { OID } from "./oids";
import { parseCertificatesPem, parsePrivateKeyPem, toPem } from "./pem";
import { loadSigningIdentity } from "./signing-identity";
import { sha256, testIdentity } from "../../test/support/signing-identities";
import { toHex } from "../util/bytes";

async function configError(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigurationError);
    return (e as Error).message;
  }
  throw new Error("expected a ConfigurationError");
}

/** The key octets inside a PKCS#8 PrivateKeyInfo (PKCS#1 RSAPrivateKey or SEC1 ECPrivateKey). */
function innerKey(pkcs8: Uint8Array): Uint8Array {
  const [, , octets] = children(readDer(pkcs8, 0, true));
  expect(octets!.tag).toBe(TAG.OCTET_STRING);
  return octets!.content;
}

describe("loadSigningIdentity", () => {
  it("loads the development identity from .dev.vars (env SIGNING_KEY / SIGNING_CERT)", async () => {
    const id = await loadSigningIdentity(env.SIGNING_KEY as string, env.SIGNING_CERT as string);
    expect(id.keyAlgorithm).toBe("RSA");
    expect(id.modulusLength).toBeGreaterThanOrEqual(2048);
    expect(id.signerSubject).toBe("CN=Signet Development Signer, O=Signet (development)");
    expect(id.signerIssuer).toBe("CN=Signet Development Root CA, O=Signet (development)");
    expect(id.certificates).toHaveLength(2);
  });

  it("loads an RSA identity: fingerprint, subject, chain and root", async () => {
    const { keyPem, certPem } = await testIdentity("RSA");
    const id = await loadSigningIdentity(keyPem, certPem);
    const der = parseCertificatesPem(certPem);
    expect(id.keyAlgorithm).toBe("RSA");
    expect(id.namedCurve).toBeUndefined();
    expect(id.modulusLength).toBe(2048);
    expect(id.keySource).toBe("SIGNING_KEY");
    expect([id.signer.scheme, id.signer.digestAlgorithm, id.signer.maxSignatureLength]).toEqual([
      "RSASSA-PKCS1-v1_5",
      "SHA-256",
      256,
    ]);
    expect(id.certificatesDer).toEqual(der);
    expect(id.signerCertSha256).toBe(toHex(await sha256(der[0]!)));
    expect(id.signerCertSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(id.rootCertificate).toBe(id.certificates[1]);
    expect(id.rootCertificate.subject.isEqual(id.rootCertificate.issuer)).toBe(true);
  });

  it.each(["P-256", "P-384"] as const)("loads an ECDSA %s identity", async (curve) => {
    const { keyPem, certPem } = await testIdentity(curve);
    const id = await loadSigningIdentity(keyPem, certPem);
    expect(id.keyAlgorithm).toBe("ECDSA");
    expect(id.namedCurve).toBe(curve);
    expect(id.modulusLength).toBeUndefined();
  });

  it("accepts escaped PEM values as they come from .dev.vars or a dashboard", async () => {
    const { keyPem, certPem } = await testIdentity("P-256");
    const id = await loadSigningIdentity(`"${keyPem.replace(/\n/g, "\\n")}"`, certPem.replace(/\n/g, "\r\n"));
    expect(id.namedCurve).toBe("P-256");
  });

  it("uses the signer as root when the chain has one certificate", async () => {
    const { keyPem, certPem } = await testIdentity("RSA");
    const signerOnly = toPem("CERTIFICATE", parseCertificatesPem(certPem)[0]!);
    const id = await loadSigningIdentity(keyPem, signerOnly);
    expect(id.certificates).toHaveLength(1);
    expect(id.rootCertificate).toBe(id.certificates[0]);
  });

  it("also takes legacy PKCS#1 (RSA) and SEC1 (EC) keys", async () => {
    const rsa = await testIdentity("RSA");
    const pkcs1 = toPem("RSA PRIVATE KEY", innerKey(parsePrivateKeyPem(rsa.keyPem).der));
    expect((await loadSigningIdentity(pkcs1, rsa.certPem)).keyAlgorithm).toBe("RSA");
    const ec = await testIdentity("P-384");
    const inner = innerKey(parsePrivateKeyPem(ec.keyPem).der);
    const fields = children(readDer(inner, 0, true)).filter((f) => f.tag !== 0xa0);
    // SEC1 with the curve named in [0] parameters, as `openssl ecparam -genkey` writes it.
    const withCurve = sequence(
      fields[0]!.bytes,
      fields[1]!.bytes,
      explicit(0, oid(OID.secp384r1)),
      ...fields.slice(2).map((f) => f.bytes),
    );
    expect((await loadSigningIdentity(toPem("EC PRIVATE KEY", withCurve), ec.certPem)).namedCurve).toBe("P-384");
    // Without parameters the curve is unknown: a clear error rather than a guess.
    const withoutCurve = sequence(...fields.map((f) => f.bytes));
    expect(await configError(loadSigningIdentity(toPem("EC PRIVATE KEY", withoutCurve), ec.certPem))).toMatch(
      /does not name its curve/,
    );
  });

  it("refuses a key that does not match the first certificate", async () => {
    const a = await testIdentity("RSA");
    const b = await createDevPkiRsa();
    expect(await configError(loadSigningIdentity(a.keyPem, b.certPem))).toMatch(/does not match the first certificate/);
  });

  it("refuses an ECDSA key with an RSA certificate, and a curve mismatch", async () => {
    const rsa = await testIdentity("RSA");
    const p256 = await testIdentity("P-256");
    const p384 = await testIdentity("P-384");
    expect(await configError(loadSigningIdentity(p256.keyPem, rsa.certPem))).toMatch(
      /SIGNING_KEY is an ECDSA P-256 key but the first certificate of SIGNING_CERT holds an RSA public key/,
    );
    expect(await configError(loadSigningIdentity(p256.keyPem, p384.certPem))).toMatch(
      /holds an EC public key \(P-384\)/,
    );
    expect(await configError(loadSigningIdentity(rsa.keyPem, p256.certPem))).toMatch(/SIGNING_KEY is an RSA key/);
  });

  it("refuses a chain whose certificates are not in issuer order", async () => {
    const { keyPem, certPem } = await testIdentity("RSA");
    const other = await testIdentity("P-256");
    const [signer] = parseCertificatesPem(certPem);
    const wrongRoot = parseCertificatesPem(other.certPem)[1]!;
    const chain = toPem("CERTIFICATE", signer!) + toPem("CERTIFICATE", wrongRoot);
    expect(await configError(loadSigningIdentity(keyPem, chain))).toMatch(
      /certificate #2 is not the issuer of certificate #1/,
    );
    const reversed = parseCertificatesPem(certPem)
      .reverse()
      .map((d) => toPem("CERTIFICATE", d))
      .join("");
    expect(await configError(loadSigningIdentity(keyPem, reversed))).toMatch(/does not match the first certificate/);
  });

  it("refuses RSA keys under 2048 bits", async () => {
    const ca = await createRootCa({ keyType: "ECDSA" });
    const small = await generateKeyPair({ type: "RSA", modulusLength: 1024 });
    const keyPem = await exportPrivateKeyPem(small.privateKey);
    expect(await configError(loadSigningIdentity(keyPem, ca.certificatePem))).toMatch(
      /1024-bit RSA key; at least 2048 bits/,
    );
  });

  it("refuses unsupported curves and malformed material", async () => {
    const { certPem } = await testIdentity("RSA");
    const p521 = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-521" }, true, ["sign", "verify"]);
    const p521Pem = await exportPrivateKeyPem((p521 as CryptoKeyPair).privateKey);
    expect(await configError(loadSigningIdentity(p521Pem, certPem))).toMatch(/unsupported EC curve .*P-521/);
    expect(await configError(loadSigningIdentity("", certPem))).toMatch(/SIGNING_KEY is not set/);
    const { keyPem } = await testIdentity("RSA");
    expect(await configError(loadSigningIdentity(keyPem, ""))).toMatch(/SIGNING_CERT is not set/);
    const garbageCert = toPem("CERTIFICATE", Uint8Array.of(0x30, 0x03, 0x02, 0x01, 0x01));
    expect(await configError(loadSigningIdentity(keyPem, garbageCert))).toMatch(
      /certificate #1 is not a readable X.509 certificate/,
    );
    const garbageKey = toPem("PRIVATE KEY", Uint8Array.of(0x30, 0x03, 0x02, 0x01, 0x00));
    expect(await configError(loadSigningIdentity(garbageKey, certPem))).toMatch(
      /SIGNING_KEY is not a readable private key/,
    );
  });

  it("formats subjects with escaping, RFC 4514 order", async () => {
    const ca = await createRootCa({ keyType: "ECDSA", CN: "Root, Inc.", O: "A+B" });
    const leaf = await createSigningCertificate(ca, { keyType: "ECDSA", CN: "Jane Doe", O: "Example; Ltd" });
    const id = await loadSigningIdentity(leaf.privateKeyPem, leaf.certificatePem + ca.certificatePem);
    expect(id.signerSubject).toBe("CN=Jane Doe, O=Example\\; Ltd");
    expect(id.signerIssuer).toBe("CN=Root\\, Inc., O=A\\+B");
    expect(certificateDer(id.certificates[0]!)).toEqual(id.certificatesDer[0]);
  });
});

async function createDevPkiRsa() {
  const ca = await createRootCa({ keyType: "ECDSA" });
  const leaf = await createSigningCertificate(ca, { keyType: "RSA" });
  return { keyPem: leaf.privateKeyPem, certPem: leaf.certificatePem + ca.certificatePem };
}
