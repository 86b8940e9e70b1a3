import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { describe, expect, it } from "vitest";
import { buildCadesDetachedSignature } from "./cades";
import { TAG, children, decodeOid, readDer, toArrayBuffer } from "./der";
import { OID } from "./oids";
import { parseCertificatesPem } from "./pem";
import { ecdsaRawToDer } from "./signed-data";
import { type IdentityKind, sha256, testIdentity } from "../../test/support/signing-identities";
import { certificateParts } from "./x509";
import { bytesEqual, compareBytes } from "../util/bytes";

const document = new TextEncoder().encode("%PDF-1.7\n% bytes standing in for the PDF byte ranges\n".repeat(20));

function parseSignedData(cms: Uint8Array): pkijs.SignedData {
  const info = pkijs.ContentInfo.fromBER(toArrayBuffer(cms));
  expect(info.contentType).toBe(OID.signedData);
  return new pkijs.SignedData({ schema: info.content });
}

/** Raw DER walk of the SignerInfo: [version, sid, digestAlg, [0] signedAttrs, sigAlg, signature, [1]?]. */
function signerInfoNodes(cms: Uint8Array) {
  const [, content] = children(readDer(cms, 0, true));
  const signedData = readDer(content!.content, 0, true);
  const fields = children(signedData);
  const signerInfos = fields[fields.length - 1]!;
  expect(signerInfos.tag).toBe(TAG.SET);
  const infos = children(signerInfos);
  expect(infos).toHaveLength(1);
  return { signedDataFields: fields, signerInfo: children(infos[0]!) };
}

describe.each(["RSA", "P-256", "P-384"] as IdentityKind[])("buildCadesDetachedSignature (%s)", (kind) => {
  it("produces the PAdES B-B structure", async () => {
    const { identity } = await testIdentity(kind);
    const digest = await sha256(document);
    const cms = await buildCadesDetachedSignature({ identity, contentDigest: digest });
    readDer(cms, 0, true); // one definite-length DER element

    const sd = parseSignedData(cms);
    expect(sd.version).toBe(1);
    expect(sd.digestAlgorithms.map((a) => a.algorithmId)).toEqual([OID.sha256]);
    expect(sd.digestAlgorithms[0]!.algorithmParams).toBeUndefined();
    expect(sd.encapContentInfo.eContentType).toBe(OID.data);
    expect(sd.encapContentInfo.eContent).toBeUndefined();
    const certs = (sd.certificates ?? []).map((c) => new Uint8Array((c as pkijs.Certificate).toSchema().toBER()));
    expect(certs).toEqual(identity.certificatesDer);
    expect(sd.crls).toBeUndefined();
    expect(sd.signerInfos).toHaveLength(1);

    const si = sd.signerInfos[0]!;
    expect(si.version).toBe(1);
    expect(si.sid).toBeInstanceOf(pkijs.IssuerAndSerialNumber);
    const signer = identity.certificates[0]!;
    expect(si.sid.issuer.isEqual(signer.issuer)).toBe(true);
    expect(si.sid.serialNumber.isEqual(signer.serialNumber)).toBe(true);
    expect(si.digestAlgorithm.algorithmId).toBe(OID.sha256);
    expect(si.signatureAlgorithm.algorithmId).toBe(kind === "RSA" ? OID.sha256WithRSAEncryption : OID.ecdsaWithSHA256);
    expect(si.unsignedAttrs).toBeUndefined();

    // Signed attributes: exactly content-type, message-digest, signing-certificate-v2; no signing-time.
    const attrs = si.signedAttrs!.attributes;
    expect(attrs.map((a) => a.type).sort()).toEqual(
      [OID.contentType, OID.messageDigest, OID.signingCertificateV2].sort(),
    );
    expect(attrs.some((a) => a.type === OID.signingTime)).toBe(false);
    for (const a of attrs) expect(a.values).toHaveLength(1);
    const ct = attrs.find((a) => a.type === OID.contentType)!.values[0] as asn1js.ObjectIdentifier;
    expect(ct.valueBlock.toString()).toBe(OID.data);
    const md = attrs.find((a) => a.type === OID.messageDigest)!.values[0] as asn1js.OctetString;
    expect(new Uint8Array(md.valueBlock.valueHexView)).toEqual(digest);
  });

  it("carries a correct ESS signing-certificate-v2 (SHA-256 default, issuerSerial)", async () => {
    const { identity } = await testIdentity(kind);
    const cms = await buildCadesDetachedSignature({ identity, contentDigest: await sha256(document) });
    const { signerInfo } = signerInfoNodes(cms);
    const signedAttrs = signerInfo[3]!;
    expect(signedAttrs.tag).toBe(0xa0);
    const attrs = children(signedAttrs);
    // DER SET OF order.
    for (let i = 1; i < attrs.length; i++) {
      expect(compareBytes(attrs[i - 1]!.bytes, attrs[i]!.bytes)).toBeLessThan(0);
    }
    const ess = attrs.find((a) => decodeOid(children(a)[0]!.content) === OID.signingCertificateV2)!;
    const [, values] = children(ess);
    const [signingCertificateV2] = children(values!);
    const [certsSeq, ...policies] = children(signingCertificateV2!);
    expect(policies).toHaveLength(0);
    const [essCertIdV2, ...more] = children(certsSeq!);
    expect(more).toHaveLength(0);
    const [first, issuerSerial, ...rest] = children(essCertIdV2!);
    expect(rest).toHaveLength(0);
    // hashAlgorithm omitted (DEFAULT sha256): the first field is the OCTET STRING hash.
    expect(first!.tag).toBe(TAG.OCTET_STRING);
    expect(first!.content).toEqual(await sha256(identity.certificatesDer[0]!));
    const [generalNames, serial] = children(issuerSerial!);
    const [directoryName] = children(generalNames!);
    expect(directoryName!.tag).toBe(0xa4);
    const parts = certificateParts(identity.certificatesDer[0]!);
    expect(directoryName!.content).toEqual(parts.issuer);
    expect(serial!.bytes).toEqual(parts.serialNumber);
  });

  it("verifies with pkijs over the document, chains to the root, and fails on other bytes", async () => {
    const { identity, caPem } = await testIdentity(kind);
    const cms = await buildCadesDetachedSignature({ identity, contentDigest: await sha256(document) });
    const root = pkijs.Certificate.fromBER(toArrayBuffer(parseCertificatesPem(caPem)[0]!));
    const sd = parseSignedData(cms);
    const result = await sd.verify({
      signer: 0,
      data: toArrayBuffer(document),
      checkChain: true,
      trustedCerts: [root],
      extendedMode: true,
    });
    expect(result.signatureVerified).toBe(true);
    expect(result.signerCertificateVerified).toBe(true);

    const tampered = document.slice();
    tampered[10] = tampered[10]! ^ 1;
    await expect(parseSignedData(cms).verify({ signer: 0, data: toArrayBuffer(tampered) })).rejects.toThrow(/digest/i);
  });

  it("signs the digest it is given (a different digest gives a different message-digest)", async () => {
    const { identity } = await testIdentity(kind);
    const a = parseSignedData(
      await buildCadesDetachedSignature({ identity, contentDigest: new Uint8Array(32).fill(1) }),
    );
    const md = a.signerInfos[0]!.signedAttrs!.attributes.find((x) => x.type === OID.messageDigest)!
      .values[0] as asn1js.OctetString;
    expect(new Uint8Array(md.valueBlock.valueHexView)).toEqual(new Uint8Array(32).fill(1));
    await expect(buildCadesDetachedSignature({ identity, contentDigest: new Uint8Array(20) })).rejects.toThrow(
      /SHA-256/,
    );
  });
});

describe("buildCadesDetachedSignature determinism and encoding", () => {
  it("is byte-for-byte deterministic for RSA", async () => {
    const { identity } = await testIdentity("RSA");
    const digest = await sha256(document);
    const a = await buildCadesDetachedSignature({ identity, contentDigest: digest });
    const b = await buildCadesDetachedSignature({ identity, contentDigest: digest });
    expect(bytesEqual(a, b)).toBe(true);
  });

  it("has a stable length for ECDSA (within the DER integer variation)", async () => {
    const { identity } = await testIdentity("P-256");
    const digest = await sha256(document);
    // r and s are minimal DER integers: 33 bytes when the top bit is set, shorter when leading bytes are
    // zero (one in 256 each). Everything else in the CMS has a fixed length, so the length less r and s is
    // the same for every signature, whatever the random nonce gave.
    const rest = new Set<number>();
    for (let i = 0; i < 8; i++) {
      const cms = await buildCadesDetachedSignature({ identity, contentDigest: digest });
      const signature = signerInfoNodes(cms).signerInfo[5]!;
      expect(signature.tag).toBe(TAG.OCTET_STRING);
      const [r, s] = children(readDer(signature.content, 0, true));
      expect(r!.content.length).toBeLessThanOrEqual(33);
      expect(s!.content.length).toBeLessThanOrEqual(33);
      rest.add(cms.length - r!.content.length - s!.content.length);
    }
    expect(rest.size).toBe(1);
  });

  it("DER-encodes ECDSA r||s (positive, minimal integers)", () => {
    const raw = new Uint8Array(64);
    raw[0] = 0x80; // r needs a leading zero
    raw[63] = 0x01; // s is 1 after stripping leading zeros
    const der = ecdsaRawToDer(raw);
    const [r, s] = children(readDer(der, 0, true));
    expect(r!.content.length).toBe(33);
    expect(r!.content[0]).toBe(0);
    expect(s!.content).toEqual(Uint8Array.of(1));
  });
});
