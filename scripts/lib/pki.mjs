/**
 * Development PKI built with pkijs over WebCrypto (no openssl): a development root CA,
 * a document-signing certificate issued by it, and time-stamping certificates for the
 * test TSA. Uses only `globalThis.crypto`, so it runs in Node and in workerd alike.
 *
 * Nothing here is fit for production trust: the keys are generated on the developer's
 * machine and the CA is a local one.
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";

const YEAR_MS = 365.25 * 24 * 3600 * 1000;

export const OIDS = {
  commonName: "2.5.4.3",
  organizationName: "2.5.4.10",
  organizationalUnitName: "2.5.4.11",
  countryName: "2.5.4.6",
  basicConstraints: "2.5.29.19",
  keyUsage: "2.5.29.15",
  extKeyUsage: "2.5.29.37",
  subjectKeyIdentifier: "2.5.29.14",
  authorityKeyIdentifier: "2.5.29.35",
  kpEmailProtection: "1.3.6.1.5.5.7.3.4",
  kpTimeStamping: "1.3.6.1.5.5.7.3.8",
  kpDocumentSigning: "1.3.6.1.5.5.7.3.36",
};

/** keyUsage bit positions (RFC 5280 4.2.1.3). */
const KEY_USAGE_BITS = {
  digitalSignature: 0,
  nonRepudiation: 1,
  keyEncipherment: 2,
  dataEncipherment: 3,
  keyAgreement: 4,
  keyCertSign: 5,
  cRLSign: 6,
};

/**
 * @param {{ type?: "RSA" | "ECDSA", modulusLength?: number, namedCurve?: "P-256" | "P-384" }} [spec]
 * @returns {Promise<CryptoKeyPair>}
 */
export async function generateKeyPair(spec = {}) {
  const type = spec.type ?? "RSA";
  if (type === "RSA") {
    return crypto.subtle.generateKey(
      {
        name: "RSASSA-PKCS1-v1_5",
        modulusLength: spec.modulusLength ?? 2048,
        publicExponent: new Uint8Array([1, 0, 1]),
        hash: "SHA-256",
      },
      true,
      ["sign", "verify"],
    );
  }
  if (type === "ECDSA") {
    return crypto.subtle.generateKey({ name: "ECDSA", namedCurve: spec.namedCurve ?? "P-256" }, true, [
      "sign",
      "verify",
    ]);
  }
  throw new Error(`unknown key type ${type}`);
}

function base64(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** PEM text (64-column lines, trailing newline). */
export function toPem(label, der) {
  const b64 = base64(der instanceof Uint8Array ? der : new Uint8Array(der));
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

/** PKCS#8 PEM of an extractable private key. */
export async function exportPrivateKeyPem(privateKey) {
  return toPem("PRIVATE KEY", new Uint8Array(await crypto.subtle.exportKey("pkcs8", privateKey)));
}

function randomSerial() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] & 0x7f) | 0x40; // positive, 16 significant octets
  return new asn1js.Integer({ valueHex: bytes.buffer });
}

/** A Name with one attribute per RDN (C, O, OU, CN order), as DER-backed pkijs object. */
function buildName(name) {
  const atvs = [];
  const push = (type, value, printable = false) => {
    if (value === undefined || value === null) return;
    atvs.push(
      new pkijs.AttributeTypeAndValue({
        type,
        value: printable ? new asn1js.PrintableString({ value }) : new asn1js.Utf8String({ value }),
      }),
    );
  };
  push(OIDS.countryName, name.C, true);
  push(OIDS.organizationName, name.O);
  push(OIDS.organizationalUnitName, name.OU);
  push(OIDS.commonName, name.CN);
  // pkijs would put every attribute into one multi-valued RDN; encode the usual form ourselves.
  const der = new asn1js.Sequence({ value: atvs.map((atv) => new asn1js.Set({ value: [atv.toSchema()] })) }).toBER(
    false,
  );
  return pkijs.RelativeDistinguishedNames.fromBER(der);
}

function keyUsageExtension(usages) {
  let bits = 0;
  let highest = 0;
  for (const u of usages) {
    const bit = KEY_USAGE_BITS[u];
    if (bit === undefined) throw new Error(`unknown key usage ${u}`);
    bits |= 1 << (15 - bit);
    highest = Math.max(highest, bit);
  }
  const byteCount = highest < 8 ? 1 : 2;
  const bytes = byteCount === 1 ? new Uint8Array([bits >> 8]) : new Uint8Array([bits >> 8, bits & 0xff]);
  const unusedBits = byteCount * 8 - 1 - highest;
  const value = new asn1js.BitString({ unusedBits, valueHex: bytes.buffer });
  return new pkijs.Extension({ extnID: OIDS.keyUsage, critical: true, extnValue: value.toBER(false) });
}

async function subjectKeyIdentifier(publicKeyInfo) {
  const spk = publicKeyInfo.subjectPublicKey.valueBlock.valueHexView;
  return new Uint8Array(await crypto.subtle.digest("SHA-1", spk));
}

function hashFor(key) {
  if (key.algorithm.name === "ECDSA" && key.algorithm.namedCurve === "P-384") return "SHA-384";
  return "SHA-256";
}

/**
 * Issues a certificate.
 * @param {object} opts
 * @param {{CN: string, O?: string, OU?: string, C?: string}} opts.subject
 * @param {CryptoKey} opts.publicKey subject's public key
 * @param {{ certificate: pkijs.Certificate, privateKey: CryptoKey } | null} [opts.issuer] null: self-signed with opts.privateKey
 * @param {CryptoKey} [opts.privateKey] for self-signed certificates
 * @param {boolean} [opts.ca]
 * @param {number | undefined} [opts.pathLength]
 * @param {string[]} opts.keyUsage
 * @param {string[]} [opts.extKeyUsage]
 * @param {boolean} [opts.extKeyUsageCritical]
 * @param {Date} [opts.notBefore]
 * @param {number} [opts.years]
 * @returns {Promise<pkijs.Certificate>}
 */
export async function issueCertificate(opts) {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  cert.serialNumber = randomSerial();
  const subject = buildName(opts.subject);
  cert.subject = subject;
  cert.issuer = opts.issuer ? opts.issuer.certificate.subject : buildName(opts.subject);
  const notBefore = opts.notBefore ?? new Date(Date.now() - 5 * 60 * 1000);
  notBefore.setUTCMilliseconds(0);
  cert.notBefore.value = notBefore;
  cert.notAfter.value = new Date(notBefore.getTime() + (opts.years ?? 2) * YEAR_MS);
  await cert.subjectPublicKeyInfo.importKey(opts.publicKey);

  const ski = await subjectKeyIdentifier(cert.subjectPublicKeyInfo);
  const extensions = [];
  if (opts.ca) {
    const bc = new pkijs.BasicConstraints({
      cA: true,
      ...(opts.pathLength !== undefined ? { pathLenConstraint: opts.pathLength } : {}),
    });
    extensions.push(
      new pkijs.Extension({
        extnID: OIDS.basicConstraints,
        critical: true,
        extnValue: bc.toSchema().toBER(false),
        parsedValue: bc,
      }),
    );
  } else {
    const bc = new pkijs.BasicConstraints({ cA: false });
    extensions.push(
      new pkijs.Extension({
        extnID: OIDS.basicConstraints,
        critical: true,
        extnValue: bc.toSchema().toBER(false),
        parsedValue: bc,
      }),
    );
  }
  extensions.push(keyUsageExtension(opts.keyUsage));
  if (opts.extKeyUsage?.length) {
    const eku = new pkijs.ExtKeyUsage({ keyPurposes: opts.extKeyUsage });
    extensions.push(
      new pkijs.Extension({
        extnID: OIDS.extKeyUsage,
        critical: !!opts.extKeyUsageCritical,
        extnValue: eku.toSchema().toBER(false),
        parsedValue: eku,
      }),
    );
  }
  extensions.push(
    new pkijs.Extension({
      extnID: OIDS.subjectKeyIdentifier,
      critical: false,
      extnValue: new asn1js.OctetString({ valueHex: ski.buffer }).toBER(false),
    }),
  );
  const issuerSki = opts.issuer ? await subjectKeyIdentifier(opts.issuer.certificate.subjectPublicKeyInfo) : ski;
  if (opts.issuer) {
    const aki = new pkijs.AuthorityKeyIdentifier({
      keyIdentifier: new asn1js.OctetString({ valueHex: issuerSki.buffer }),
    });
    extensions.push(
      new pkijs.Extension({
        extnID: OIDS.authorityKeyIdentifier,
        critical: false,
        extnValue: aki.toSchema().toBER(false),
      }),
    );
  }
  cert.extensions = extensions;

  const signingKey = opts.issuer ? opts.issuer.privateKey : opts.privateKey;
  if (!signingKey) throw new Error("issueCertificate: a self-signed certificate needs opts.privateKey");
  await cert.sign(signingKey, hashFor(signingKey));
  return cert;
}

/** DER bytes of a pkijs certificate. */
export function certificateDer(cert) {
  return new Uint8Array(cert.toSchema(true).toBER(false));
}

export function certificatePem(cert) {
  return toPem("CERTIFICATE", certificateDer(cert));
}

/**
 * A development root CA: RSA 3072 (default) or ECDSA P-384, 10 years.
 * @param {{ keyType?: "RSA" | "ECDSA", CN?: string, O?: string }} [opts]
 */
export async function createRootCa(opts = {}) {
  const keyType = opts.keyType ?? "RSA";
  const keys = await generateKeyPair(
    keyType === "RSA" ? { type: "RSA", modulusLength: 3072 } : { type: "ECDSA", namedCurve: "P-384" },
  );
  const certificate = await issueCertificate({
    subject: { CN: opts.CN ?? "Signet Development Root CA", O: opts.O ?? "Signet (development)" },
    publicKey: keys.publicKey,
    privateKey: keys.privateKey,
    issuer: null,
    ca: true,
    keyUsage: ["keyCertSign", "cRLSign"],
    years: 10,
  });
  return {
    certificate,
    privateKey: keys.privateKey,
    publicKey: keys.publicKey,
    certificatePem: certificatePem(certificate),
  };
}

/**
 * A document-signing certificate issued by `ca`: RSA 2048 (default) or ECDSA P-256/P-384, 2 years.
 * @param {{ certificate: pkijs.Certificate, privateKey: CryptoKey }} ca
 * @param {{ keyType?: "RSA" | "ECDSA", namedCurve?: "P-256" | "P-384", modulusLength?: number, CN?: string, O?: string, years?: number, notBefore?: Date }} [opts]
 */
export async function createSigningCertificate(ca, opts = {}) {
  const keyType = opts.keyType ?? "RSA";
  const keys = await generateKeyPair(
    keyType === "RSA"
      ? { type: "RSA", modulusLength: opts.modulusLength ?? 2048 }
      : { type: "ECDSA", namedCurve: opts.namedCurve ?? "P-256" },
  );
  const certificate = await issueCertificate({
    subject: { CN: opts.CN ?? "Signet Development Signer", O: opts.O ?? "Signet (development)" },
    publicKey: keys.publicKey,
    issuer: ca,
    keyUsage: ["digitalSignature", "nonRepudiation"],
    extKeyUsage: [OIDS.kpEmailProtection, OIDS.kpDocumentSigning],
    years: opts.years ?? 2,
    notBefore: opts.notBefore,
  });
  return {
    certificate,
    privateKey: keys.privateKey,
    publicKey: keys.publicKey,
    certificatePem: certificatePem(certificate),
    privateKeyPem: await exportPrivateKeyPem(keys.privateKey),
  };
}

/**
 * A time-stamping certificate (extendedKeyUsage timeStamping, critical) issued by `ca`.
 * @param {{ certificate: pkijs.Certificate, privateKey: CryptoKey }} ca
 * @param {{ keyType?: "RSA" | "ECDSA", namedCurve?: "P-256" | "P-384", CN?: string, O?: string }} [opts]
 */
export async function createTsaCertificate(ca, opts = {}) {
  const keyType = opts.keyType ?? "ECDSA";
  const keys = await generateKeyPair(
    keyType === "RSA"
      ? { type: "RSA", modulusLength: 2048 }
      : { type: "ECDSA", namedCurve: opts.namedCurve ?? "P-256" },
  );
  const certificate = await issueCertificate({
    subject: { CN: opts.CN ?? "Signet Test TSA", O: opts.O ?? "Signet (development)" },
    publicKey: keys.publicKey,
    issuer: ca,
    keyUsage: ["digitalSignature", "nonRepudiation"],
    extKeyUsage: [OIDS.kpTimeStamping],
    extKeyUsageCritical: true,
    years: 2,
  });
  return {
    certificate,
    privateKey: keys.privateKey,
    publicKey: keys.publicKey,
    certificatePem: certificatePem(certificate),
    privateKeyPem: await exportPrivateKeyPem(keys.privateKey),
  };
}

/**
 * Everything `.dev.vars` needs: a root CA, a signing key and the chain (signer first).
 * @param {{ signerKeyType?: "RSA" | "ECDSA", namedCurve?: "P-256" | "P-384", caKeyType?: "RSA" | "ECDSA" }} [opts]
 */
export async function createDevPki(opts = {}) {
  const ca = await createRootCa({ keyType: opts.caKeyType ?? "RSA" });
  const signer = await createSigningCertificate(ca, {
    keyType: opts.signerKeyType ?? "RSA",
    namedCurve: opts.namedCurve,
  });
  return {
    ca,
    signer,
    caCertificatePem: ca.certificatePem,
    signingKeyPem: signer.privateKeyPem,
    signingCertPem: signer.certificatePem + ca.certificatePem,
  };
}
