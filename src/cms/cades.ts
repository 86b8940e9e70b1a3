/**
 * The CMS signature that goes into a PDF's `/Contents` for `/SubFilter /ETSI.CAdES.detached`:
 * PAdES baseline B-B, or B-T when a signature time-stamp is added.
 *
 * - SignedData v1, digestAlgorithms { the signer's: SHA-256, or SHA-384 for a KMS P-384 key },
 *   encapContentInfo id-data without content
 * - every certificate of the chain (signer first)
 * - one SignerInfo (issuerAndSerialNumber) whose signed attributes are exactly
 *   content-type (id-data), message-digest and signing-certificate-v2; no signing-time
 *   (the claimed time lives in the signature dictionary's `/M`)
 * - B-T: unsigned attribute id-aa-signatureTimeStampToken over the signature value
 */
import { TsaFailed } from "../errors";
import { attribute, buildSignedData, signingCertificateV2Attribute } from "./signed-data";
import { OID } from "./oids";
import type { SigningIdentity } from "./signing-identity";
import * as asn1js from "asn1js";
import { toArrayBuffer } from "./der";

export interface CadesOptions {
  identity: SigningIdentity;
  /** Digest of the PDF byte ranges under the signer's digest algorithm (`identity.signer.digestAlgorithm`). */
  contentDigest: Uint8Array;
  /**
   * Obtains a time-stamp token (DER ContentInfo) for the signature value; its message
   * imprint must be the SHA-256 of `signatureValue`. Adds PAdES B-T when given.
   */
  timestamp?: (signatureValue: Uint8Array) => Promise<Uint8Array>;
}

export async function buildCadesDetachedSignature(opts: CadesOptions): Promise<Uint8Array> {
  const { identity } = opts;
  const signerCert = identity.certificatesDer[0];
  if (!signerCert) throw new Error("signing identity has no certificate");
  const timestamp = opts.timestamp;
  return buildSignedData({
    contentType: OID.data,
    contentDigest: opts.contentDigest,
    certificates: identity.certificatesDer,
    signer: identity.signer,
    extraSignedAttributes: [await signingCertificateV2Attribute(signerCert)],
    unsignedAttributes: timestamp
      ? async (signatureValue) => {
          const token = await timestamp(signatureValue);
          // Embedded as received (a TSA may use BER); it must be exactly one ASN.1 element.
          const parsed = asn1js.fromBER(toArrayBuffer(token));
          if (parsed.offset === -1 || parsed.offset !== token.length) {
            throw new TsaFailed("The time-stamp token is not a single well-formed ASN.1 element.");
          }
          return [attribute(OID.signatureTimeStampToken, token)];
        }
      : undefined,
  });
}
