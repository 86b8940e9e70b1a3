/**
 * X.509 certificates as the verifier needs them: exact signed bytes (TBSCertificate),
 * names, validity, key, and the extensions that path building looks at.
 */
import { formatName, nameAttribute } from "../names";
import { hashBytes } from "./algorithms";
import {
  BerError,
  CLASS,
  type BerNode,
  U,
  expectUniversal,
  parseBer,
  readBitString,
  readOctets,
  readOid,
  readTime,
  readUnsigned,
} from "./ber";
import { bytesEqual, latin1Text, toHex } from "../../util/bytes";

export interface ParsedCertificate {
  /** The certificate as received. */
  der: Uint8Array;
  /** SHA-256 of `der`, lowercase hex. */
  sha256: string;
  version: number;
  tbs: Uint8Array;
  /** The outer signatureAlgorithm AlgorithmIdentifier. */
  signatureAlgorithm: BerNode;
  signatureValue: Uint8Array;
  serialNumber: Uint8Array;
  serialHex: string;
  issuerDer: Uint8Array;
  subjectDer: Uint8Array;
  notBefore: Date;
  notAfter: Date;
  /** SubjectPublicKeyInfo node. */
  spki: BerNode;
  keyAlgorithm: string;
  basicConstraints: { ca: boolean; pathLen: number | null } | null;
  /** KeyUsage bits (bit 0 = digitalSignature ... bit 5 = keyCertSign), null when absent. */
  keyUsage: boolean[] | null;
  extKeyUsage: string[] | null;
  extKeyUsageCritical: boolean;
  subjectKeyId: Uint8Array | null;
  authorityKeyId: Uint8Array | null;
  /** rfc822Name entries of subjectAltName. */
  emails: string[];
  /** Critical extensions this reader does not understand. */
  unknownCritical: string[];
}

const EXT = {
  basicConstraints: "2.5.29.19",
  keyUsage: "2.5.29.15",
  extKeyUsage: "2.5.29.37",
  subjectKeyId: "2.5.29.14",
  authorityKeyId: "2.5.29.35",
  subjectAltName: "2.5.29.17",
} as const;

/** Critical extensions that do not change signature-time validation here. */
const KNOWN_CRITICAL = new Set<string>([
  ...Object.values(EXT),
  "2.5.29.32", // certificatePolicies
  "2.5.29.30", // nameConstraints (not enforced; listed so such CAs are not rejected outright)
  "2.5.29.36", // policyConstraints
  "2.5.29.54", // inhibitAnyPolicy
  "2.5.29.31", // cRLDistributionPoints
  "1.3.6.1.5.5.7.1.1", // authorityInfoAccess
  "1.3.6.1.5.5.7.1.3", // qcStatements
  "2.5.29.9", // subjectDirectoryAttributes
  "2.5.29.18", // issuerAltName
  "2.5.29.16", // privateKeyUsagePeriod
]);

function readExtensions(node: BerNode, cert: ParsedCertificate): void {
  const list = expectUniversal(node.child(0), U.SEQUENCE, "Extensions");
  for (const ext of list.children) {
    const parts = ext.children;
    const id = readOid(parts[0], "extension id");
    let critical = false;
    let valueNode = parts[1];
    if (valueNode?.isUniversal(U.BOOLEAN)) {
      critical = valueNode.content[0] !== 0;
      valueNode = parts[2];
    }
    const value = readOctets(valueNode, "extension value");
    try {
      const inner = parseBer(value);
      switch (id) {
        case EXT.basicConstraints: {
          let ca = false;
          let pathLen: number | null = null;
          for (const c of inner.children) {
            if (c.isUniversal(U.BOOLEAN)) ca = c.content[0] !== 0;
            else if (c.isUniversal(U.INTEGER)) {
              const m = readUnsigned(c);
              pathLen = m.length > 4 ? 2 ** 31 : m.reduce((v, b) => v * 256 + b, 0);
            }
          }
          cert.basicConstraints = { ca, pathLen };
          break;
        }
        case EXT.keyUsage: {
          const { bytes } = readBitString(inner);
          const bits: boolean[] = [];
          for (let i = 0; i < bytes.length * 8; i++) bits.push((bytes[i >> 3]! & (0x80 >> (i & 7))) !== 0);
          cert.keyUsage = bits;
          break;
        }
        case EXT.extKeyUsage:
          cert.extKeyUsage = inner.children.map((c) => readOid(c));
          cert.extKeyUsageCritical = critical;
          break;
        case EXT.subjectKeyId:
          cert.subjectKeyId = readOctets(inner);
          break;
        case EXT.authorityKeyId:
          for (const c of inner.children) if (c.isContext(0)) cert.authorityKeyId = c.stringValue();
          break;
        case EXT.subjectAltName:
          for (const c of inner.children) if (c.isContext(1) && !c.constructed) cert.emails.push(latin1Text(c.content));
          break;
        default:
          if (critical && !KNOWN_CRITICAL.has(id)) cert.unknownCritical.push(id);
      }
    } catch (e) {
      // A malformed critical extension makes the certificate unusable; others are ignored.
      if (critical) throw e;
    }
  }
}

/** Parses a DER certificate; throws BerError when it is not one. */
export async function parseCertificate(der: Uint8Array): Promise<ParsedCertificate> {
  const root = expectUniversal(parseBer(der), U.SEQUENCE, "Certificate");
  const [tbsNode, sigAlg, sigValue] = root.children;
  const tbs = expectUniversal(tbsNode, U.SEQUENCE, "TBSCertificate");
  expectUniversal(sigAlg, U.SEQUENCE, "signatureAlgorithm");
  const fields = tbs.children;
  let i = 0;
  let version = 1;
  if (fields[0]?.isContext(0)) {
    const v = readUnsigned(fields[0].child(0), "version");
    version = (v[0] ?? 0) + 1;
    i++;
  }
  const serial = readUnsigned(fields[i], "serialNumber");
  const issuer = expectUniversal(fields[i + 2], U.SEQUENCE, "issuer");
  const validity = expectUniversal(fields[i + 3], U.SEQUENCE, "validity");
  const subject = expectUniversal(fields[i + 4], U.SEQUENCE, "subject");
  const spki = expectUniversal(fields[i + 5], U.SEQUENCE, "subjectPublicKeyInfo");
  const keyAlgorithm = readOid(expectUniversal(spki.child(0), U.SEQUENCE, "key AlgorithmIdentifier").child(0));
  const cert: ParsedCertificate = {
    der,
    sha256: toHex(await hashBytes("SHA-256", der)),
    version,
    tbs: tbs.bytes,
    signatureAlgorithm: sigAlg!,
    signatureValue: readBitString(sigValue, "signatureValue").bytes,
    serialNumber: serial,
    serialHex: toHex(serial),
    issuerDer: issuer.bytes,
    subjectDer: subject.bytes,
    notBefore: readTime(validity.child(0), "notBefore"),
    notAfter: readTime(validity.child(1), "notAfter"),
    spki,
    keyAlgorithm,
    basicConstraints: null,
    keyUsage: null,
    extKeyUsage: null,
    extKeyUsageCritical: false,
    subjectKeyId: null,
    authorityKeyId: null,
    emails: [],
    unknownCritical: [],
  };
  for (const f of fields.slice(i + 6)) {
    if (f.is(CLASS.CONTEXT, 3)) readExtensions(f, cert);
  }
  return cert;
}

export async function tryParseCertificate(der: Uint8Array): Promise<ParsedCertificate | null> {
  try {
    return await parseCertificate(der);
  } catch (e) {
    if (e instanceof BerError || e instanceof RangeError || e instanceof TypeError) return null;
    throw e;
  }
}

function safeName(der: Uint8Array): string {
  try {
    return formatName(der);
  } catch {
    return "(unreadable name)";
  }
}

const nameKeys = new WeakMap<Uint8Array, string>();

/** Canonical-ish key for comparing names that differ only in string types or case. */
export function nameKey(der: Uint8Array): string {
  let key = nameKeys.get(der);
  if (key === undefined) {
    key = safeName(der).toLowerCase().replace(/\s+/g, " ");
    nameKeys.set(der, key);
  }
  return key;
}

export function namesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return bytesEqual(a, b) || nameKey(a) === nameKey(b);
}

export function isSelfIssued(cert: ParsedCertificate): boolean {
  return namesEqual(cert.subjectDer, cert.issuerDer);
}

export interface CertificateSummary {
  subject: string;
  issuer: string;
  serialNumber: string;
  notBefore: string;
  notAfter: string;
  sha256: string;
  commonName: string | null;
  email: string | null;
}

export function summarizeCertificate(cert: ParsedCertificate): CertificateSummary {
  let commonName: string | null = null;
  let email: string | null = null;
  try {
    commonName = nameAttribute(cert.subjectDer, "2.5.4.3");
    email = nameAttribute(cert.subjectDer, "1.2.840.113549.1.9.1");
  } catch {
    /* unreadable subject: leave null */
  }
  return {
    subject: safeName(cert.subjectDer),
    issuer: safeName(cert.issuerDer),
    serialNumber: cert.serialHex,
    notBefore: cert.notBefore.toISOString(),
    notAfter: cert.notAfter.toISOString(),
    sha256: cert.sha256,
    commonName,
    email: email ?? cert.emails[0] ?? null,
  };
}

export function validAt(cert: ParsedCertificate, at: Date): boolean {
  const t = at.getTime();
  return t >= cert.notBefore.getTime() && t <= cert.notAfter.getTime();
}
