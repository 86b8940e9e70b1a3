/**
 * Raw views into an X.509 certificate's DER, for the fields CMS copies byte for byte
 * (issuer, serial number) and for key checks. Full parsing is pkijs' job.
 */
import { DerError, TAG, children, decodeOid, expectTag, readDer } from "./der";
import { OID } from "./oids";
import { toHex } from "../util/bytes";

export interface CertificateParts {
  /** The TBSCertificate TLV. */
  tbs: Uint8Array;
  /** The serialNumber INTEGER TLV. */
  serialNumber: Uint8Array;
  /** The issuer Name TLV. */
  issuer: Uint8Array;
  /** The subject Name TLV. */
  subject: Uint8Array;
  /** The SubjectPublicKeyInfo TLV. */
  subjectPublicKeyInfo: Uint8Array;
  /** OID of the public key algorithm. */
  publicKeyAlgorithm: string;
  /** For EC keys, the named curve OID (null when absent or not an OID). */
  publicKeyCurve: string | null;
}

export function certificateParts(der: Uint8Array): CertificateParts {
  const cert = expectTag(readDer(der, 0, true), TAG.SEQUENCE, "Certificate SEQUENCE");
  const [tbsNode] = children(cert);
  const tbs = expectTag(tbsNode, TAG.SEQUENCE, "TBSCertificate");
  const fields = children(tbs);
  let i = 0;
  if (fields[0]?.tag === 0xa0) i++; // [0] EXPLICIT version
  const serial = expectTag(fields[i], TAG.INTEGER, "serialNumber");
  expectTag(fields[i + 1], TAG.SEQUENCE, "signature AlgorithmIdentifier");
  const issuer = expectTag(fields[i + 2], TAG.SEQUENCE, "issuer Name");
  expectTag(fields[i + 3], TAG.SEQUENCE, "validity");
  const subject = expectTag(fields[i + 4], TAG.SEQUENCE, "subject Name");
  const spki = expectTag(fields[i + 5], TAG.SEQUENCE, "SubjectPublicKeyInfo");
  const [algId] = children(spki);
  const algParts = children(expectTag(algId, TAG.SEQUENCE, "AlgorithmIdentifier"));
  const algOid = decodeOid(expectTag(algParts[0], TAG.OID, "algorithm OID").content);
  const params = algParts[1];
  return {
    tbs: tbs.bytes,
    serialNumber: serial.bytes,
    issuer: issuer.bytes,
    subject: subject.bytes,
    subjectPublicKeyInfo: spki.bytes,
    publicKeyAlgorithm: algOid,
    publicKeyCurve: algOid === OID.ecPublicKey && params?.tag === TAG.OID ? decodeOid(params.content) : null,
  };
}

/** Hex of the serial number as written (two's complement magnitude, no leading zero octet). */
export function serialNumberHex(parts: CertificateParts): string {
  const node = readDer(parts.serialNumber);
  let start = 0;
  while (start < node.content.length - 1 && node.content[start] === 0) start++;
  return toHex(node.content.subarray(start));
}

export { DerError };
