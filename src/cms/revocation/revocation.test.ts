import { describe, expect, it } from "vitest";
import {
  algorithmIdentifier,
  explicit,
  generalizedTime,
  nullValue,
  octetString,
  oid,
  sequence,
  smallInteger,
  tlv,
  unsignedInteger,
} from "../der";
import { OID } from "../oids";
import { hashBytes } from "../verify/algorithms";
import { readBitString } from "../verify/ber";
import { parseCertificate, type ParsedCertificate } from "../verify/certificate";
import { makeCert, makeKey, name, type TestKey } from "../../../test/support/keys-certificates-cms";
import { CrlError, parseCrl } from "./crl";
import { OcspError, encodeOcspRequest, parseOcspResponse } from "./ocsp";
import { REVOCATION_OID, revocationPointers } from "./pointers";
import { CheckBudget, decisiveFinding, findingsFor } from "./status";

const bitString = (b: Uint8Array) => tlv(0x03, Uint8Array.of(0, ...b));
const enumerated = (n: number) => tlv(0x0a, Uint8Array.of(n));

async function pki() {
  const caKey = await makeKey("P-256");
  const caName = name("Revocation Test CA");
  const caDer = await makeCert({ subject: caName, key: caKey, ca: true });
  const leafKey = await makeKey("P-256");
  const leafDer = await makeCert({
    subject: name("Revocation Test Leaf"),
    key: leafKey,
    issuer: { name: caName, key: caKey },
    serial: 4242,
  });
  const otherKey = await makeKey("P-256");
  return { caKey, caName, ca: await parseCertificate(caDer), leaf: await parseCertificate(leafDer), otherKey };
}

/** A DER OCSPResponse for one certificate, signed by `signer` and naming `responder` by name. */
async function ocspResponse(
  cert: ParsedCertificate,
  issuer: ParsedCertificate,
  signer: TestKey,
  status: Uint8Array,
  responderName: Uint8Array,
): Promise<Uint8Array> {
  const key = readBitString(issuer.spki.child(1)).bytes;
  const certId = sequence(
    algorithmIdentifier(OID.sha1, nullValue()),
    octetString(await hashBytes("SHA-1", issuer.subjectDer)),
    octetString(await hashBytes("SHA-1", key)),
    unsignedInteger(cert.serialNumber),
  );
  const now = new Date();
  const single = sequence(
    certId,
    status,
    generalizedTime(now),
    explicit(0, generalizedTime(new Date(now.getTime() + 86400_000))),
  );
  const tbs = sequence(explicit(1, responderName), generalizedTime(now), sequence(single));
  const basic = sequence(tbs, signer.algorithm, bitString(await signer.sign(tbs)));
  return sequence(enumerated(0), explicit(0, sequence(oid(REVOCATION_OID.ocspBasic), octetString(basic))));
}

/** A DER CRL by `issuerName` listing `serials`. */
async function crl(issuerName: Uint8Array, signer: TestKey, serials: number[]): Promise<Uint8Array> {
  const now = new Date();
  const entries = serials.map((s) => sequence(smallInteger(s), generalizedTime(new Date(now.getTime() - 60_000))));
  const tbs = sequence(
    smallInteger(1),
    signer.algorithm,
    issuerName,
    generalizedTime(now),
    generalizedTime(new Date(now.getTime() + 86400_000)),
    ...(entries.length ? [sequence(...entries)] : []),
  );
  return sequence(tbs, signer.algorithm, bitString(await signer.sign(tbs)));
}

describe("OCSP responses", () => {
  it("a response signed by the issuer says good or revoked for the certificate it names", async () => {
    const p = await pki();
    const good = await parseOcspResponse(
      await ocspResponse(p.leaf, p.ca, p.caKey, tlv(0x80, new Uint8Array()), p.caName),
    );
    const [finding] = await findingsFor(p.leaf, p.ca, [{ kind: "ocsp", response: good, origin: "dss" }]);
    expect(finding).toMatchObject({ status: "good", source: "dss", kind: "ocsp", verified: true });
    const revokedInfo = tlv(0xa1, sequence(generalizedTime(new Date("2026-01-01T00:00:00Z"))).subarray(2));
    const revoked = await parseOcspResponse(await ocspResponse(p.leaf, p.ca, p.caKey, revokedInfo, p.caName));
    const d = decisiveFinding(await findingsFor(p.leaf, p.ca, [{ kind: "ocsp", response: revoked, origin: "ocsp" }]));
    expect(d.status).toBe("revoked");
    expect(d.revocationTime?.toISOString()).toBe("2026-01-01T00:00:00.000Z");
  });

  it("a response signed by a key the issuer never authorised names the certificate but decides nothing", async () => {
    const p = await pki();
    const forged = await parseOcspResponse(
      await ocspResponse(p.leaf, p.ca, p.otherKey, tlv(0x80, new Uint8Array()), p.caName),
    );
    const findings = await findingsFor(p.leaf, p.ca, [{ kind: "ocsp", response: forged, origin: "dss" }]);
    expect(findings).toHaveLength(1);
    expect(findings[0]!.verified).toBe(false);
    expect(decisiveFinding(findings).source).toBe("none");
  });

  it("past the document's budget of signature checks, data stays unverified and decides nothing", async () => {
    const p = await pki();
    const good = await parseOcspResponse(
      await ocspResponse(p.leaf, p.ca, p.caKey, tlv(0x80, new Uint8Array()), p.caName),
    );
    const items = Array.from({ length: 5 }, () => ({ kind: "ocsp" as const, response: good, origin: "dss" as const }));
    const findings = await findingsFor(p.leaf, p.ca, items, [], new CheckBudget(2));
    expect(findings.map((f) => f.verified)).toEqual([true, true, false, false, false]);
  });

  it("requests carry a SHA-1 CertID and a nonce", async () => {
    const p = await pki();
    const req = await encodeOcspRequest(p.leaf, p.ca, Uint8Array.of(1, 2, 3, 4));
    expect(req[0]).toBe(0x30);
    const hex = Array.from(req, (b) => b.toString(16).padStart(2, "0")).join("");
    expect(hex).toContain("06052b0e03021a"); // sha1
    expect(hex).toContain("06092b0601050507300102"); // id-pkix-ocsp-nonce
  });

  it("refuses responses that are not successful, not basic or not ASN.1", async () => {
    await expect(parseOcspResponse(sequence(enumerated(3)))).rejects.toThrow(/tryLater/);
    await expect(parseOcspResponse(Uint8Array.of(0x30, 0x80, 1, 2))).rejects.toBeInstanceOf(OcspError);
    await expect(parseOcspResponse(new TextEncoder().encode("<html>"))).rejects.toBeInstanceOf(OcspError);
  });
});

describe("CRLs", () => {
  it("a CRL by the issuer says revoked for a listed serial and good otherwise", async () => {
    const p = await pki();
    const listed = parseCrl(await crl(p.caName, p.caKey, [4242]));
    const revoked = decisiveFinding(await findingsFor(p.leaf, p.ca, [{ kind: "crl", crl: listed, origin: "crl" }]));
    expect(revoked).toMatchObject({ status: "revoked", kind: "crl", source: "crl" });
    const clean = parseCrl(await crl(p.caName, p.caKey, [1, 2, 3]));
    expect(decisiveFinding(await findingsFor(p.leaf, p.ca, [{ kind: "crl", crl: clean, origin: "dss" }])).status).toBe(
      "good",
    );
  });

  it("a CRL under the issuer's name but another key is not verified", async () => {
    const p = await pki();
    const forged = parseCrl(await crl(p.caName, p.otherKey, []));
    const findings = await findingsFor(p.leaf, p.ca, [{ kind: "crl", crl: forged, origin: "dss" }]);
    expect(findings[0]!.verified).toBe(false);
    expect(decisiveFinding(findings).status).toBe("unknown");
  });

  it("malformed CRLs fail with CrlError", () => {
    expect(() => parseCrl(Uint8Array.of(0x30, 0x03, 0x02, 0x01))).toThrow(CrlError);
    expect(() => parseCrl(new Uint8Array(64))).toThrow(CrlError);
  });
});

describe("revocation pointers", () => {
  it("a certificate without AIA or CRL distribution points has none", async () => {
    const p = await pki();
    expect(revocationPointers(p.leaf)).toEqual({ ocsp: [], crl: [], caIssuers: [], ocspNoCheck: false });
  });
});
