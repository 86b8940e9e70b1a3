import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { buildCadesDetachedSignature } from "../cades";
import { algorithmIdentifier, explicit, nullValue, octetString, oid, sequence, setOf, tlv } from "../der";
import { OID } from "../oids";
import { parseCertificatesPem } from "../pem";
import { signingCertificateV2Attribute } from "../signed-data";
import { type IdentityKind, testIdentity } from "../../../test/support/signing-identities";
import { requestTimestamp, signatureTimestamper } from "../tsa";
import { type CmsVerification, type DigestName, type VerifyCmsOptions, hashBytes, verifyCmsSignature } from "./index";
import {
  type KeyKind,
  type TestKey,
  makeCert,
  makeCms,
  makeCmsWithoutAttributes,
  makeKey,
  name,
} from "../../../test/support/keys-certificates-cms";
import { concatBytes } from "../../util/bytes";

const content = new TextEncoder().encode("%PDF-1.7\n% the bytes of the signed byte ranges\n".repeat(40));
const tampered = content.slice();
tampered[200]! ^= 0x01;

function over(bytes: Uint8Array) {
  return { digest: (alg: DigestName) => hashBytes(alg, bytes) };
}

const codes = (r: CmsVerification, severity?: "error" | "warning") =>
  r.problems.filter((p) => !severity || p.severity === severity).map((p) => p.code);

function verify(opts: Partial<VerifyCmsOptions> & { cms: Uint8Array }): Promise<CmsVerification> {
  return verifyCmsSignature({
    subFilter: "ETSI.CAdES.detached",
    content: over(content),
    trustAnchors: [],
    claimedTime: null,
    ...opts,
  });
}

/** A root, an intermediate-free signer certificate of the given key kind, and the key. */
interface Pki {
  root: Uint8Array;
  rootKey: TestKey;
  rootName: Uint8Array;
  key: TestKey;
  cert: Uint8Array;
}

async function makePki(kind: KeyKind, certOpts: { notBefore?: Date; notAfter?: Date } = {}): Promise<Pki> {
  const rootKey = await makeKey("P-256");
  const rootName = name("Verify Test Root");
  const root = await makeCert({ subject: rootName, key: rootKey, ca: true });
  const key = await makeKey(kind);
  const cert = await makeCert({
    subject: name(`Signer ${kind}`),
    key,
    issuer: { name: rootName, key: rootKey },
    ...certOpts,
  });
  return { root, rootKey, rootName, key, cert };
}

async function signWith(pki: Pki, digest: DigestName = "SHA-256", extra: Partial<Parameters<typeof makeCms>[0]> = {}) {
  return makeCms({ key: pki.key, cert: pki.cert, digest, contentDigest: await hashBytes(digest, content), ...extra });
}

describe.each(["RSA", "P-256", "P-384"] as IdentityKind[])("our own PAdES signatures (%s)", (kind) => {
  let cms: Uint8Array;
  let root: Uint8Array;

  beforeAll(async () => {
    const id = await testIdentity(kind);
    root = parseCertificatesPem(id.caPem, "CA")[0]!;
    cms = await buildCadesDetachedSignature({
      identity: id.identity,
      contentDigest: await hashBytes("SHA-256", content),
    });
  });

  it("verify, are intact and chain to the dev root", async () => {
    const claimed = new Date();
    const r = await verify({ cms, trustAnchors: [root], claimedTime: claimed });
    expect(r).toMatchObject({
      kind: "signature",
      digestAlgorithm: "SHA-256",
      signatureAlgorithm: kind === "RSA" ? "RSA" : "ECDSA",
      intact: true,
      signatureValid: true,
      trusted: true,
      signedAt: claimed,
      signedAtSource: "claimed",
      timestamp: null,
    });
    expect(r.problems).toEqual([]);
    expect(r.certificate).toMatchObject({
      subject: "CN=Signet Development Signer, O=Signet (development)",
      issuer: "CN=Signet Development Root CA, O=Signet (development)",
      commonName: "Signet Development Signer",
      email: null,
    });
    expect(r.certificate!.serialNumber).toMatch(/^[0-9a-f]+$/);
    expect(r.certificate!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(new Date(r.certificate!.notAfter).getTime()).toBeGreaterThan(Date.now());
  });

  it("tolerates trailing zero padding from /Contents", async () => {
    const padded = concatBytes([cms, new Uint8Array(4096)]);
    const r = await verify({ cms: padded, trustAnchors: [root] });
    expect([r.intact, r.signatureValid, r.trusted]).toEqual([true, true, true]);
    expect(r.problems).toEqual([]);
  });

  it("reports tampered content as not intact", async () => {
    const r = await verify({ cms, trustAnchors: [root], content: over(tampered) });
    expect(r.intact).toBe(false);
    expect(r.signatureValid).toBe(true);
    expect(codes(r, "error")).toContain("digest_mismatch");
  });

  it("reports tampered signed attributes as an invalid signature", async () => {
    // Flip one byte of the message-digest value inside the signed attributes, and present
    // content whose digest is that altered value: intact, but the signature breaks.
    const digest = await hashBytes("SHA-256", content);
    const at = indexOf(cms, digest);
    expect(at).toBeGreaterThan(0);
    const forged = cms.slice();
    forged[at + 3]! ^= 0xff;
    const forgedDigest = forged.slice(at, at + 32);
    const r = await verify({ cms: forged, trustAnchors: [root], content: { digest: async () => forgedDigest } });
    expect(r.intact).toBe(true);
    expect(r.signatureValid).toBe(false);
    expect(codes(r, "error")).toContain("signature_invalid");
  });

  it("is not trusted under another root", async () => {
    const other = await makePki("P-256");
    const r = await verify({ cms, trustAnchors: [other.root] });
    expect([r.intact, r.signatureValid, r.trusted]).toEqual([true, true, false]);
    expect(codes(r, "error")).toEqual(["untrusted_certificate"]);
  });
});

function indexOf(hay: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

describe("signature time-stamps from the test TSA", () => {
  let tsaRoot: Uint8Array;
  let cms: Uint8Array;
  let root: Uint8Array;
  let genTime: Date;

  beforeAll(async () => {
    const res = await fetch(`${env.TEST_TSA_URL}/ca.pem`);
    tsaRoot = parseCertificatesPem(await res.text(), "TSA CA")[0]!;
    const id = await testIdentity("P-256");
    root = parseCertificatesPem(id.caPem, "CA")[0]!;
    const stamper = signatureTimestamper({ url: env.TEST_TSA_URL });
    cms = await buildCadesDetachedSignature({
      identity: id.identity,
      contentDigest: await hashBytes("SHA-256", content),
      timestamp: stamper.timestamp,
    });
    genTime = stamper.result()!.genTime;
  });

  it("dates the signature by the token when the TSA is trusted", async () => {
    const claimed = new Date(Date.now() - 86400_000);
    const r = await verify({ cms, trustAnchors: [root, tsaRoot], claimedTime: claimed });
    expect([r.intact, r.signatureValid, r.trusted]).toEqual([true, true, true]);
    expect(r.signedAtSource).toBe("timestamp");
    expect(r.signedAt!.getTime()).toBe(genTime.getTime());
    expect(r.timestamp).toMatchObject({ intact: true, signatureValid: true, trusted: true });
    expect(r.timestamp!.tsa).toMatch(/Signet Test TSA/);
    expect(r.timestamp!.serialNumber).toMatch(/^[0-9a-f]+$/);
    expect(r.problems).toEqual([]);
  });

  it("falls back to the claimed time when the TSA is not trusted", async () => {
    const claimed = new Date(Date.now() - 60_000);
    const r = await verify({ cms, trustAnchors: [root], claimedTime: claimed });
    expect(r.trusted).toBe(true);
    expect(r.signedAtSource).toBe("claimed");
    expect(r.signedAt).toEqual(claimed);
    expect(r.timestamp).toMatchObject({ intact: true, signatureValid: true, trusted: false });
    expect(codes(r, "warning")).toContain("timestamp_untrusted");
  });

  it("verifies a document time-stamp (ETSI.RFC3161) over the byte ranges", async () => {
    const token = (
      await requestTimestamp({ url: env.TEST_TSA_URL + "/rsa", messageImprint: await hashBytes("SHA-256", content) })
    ).token;
    const r = await verify({ cms: token, subFilter: "ETSI.RFC3161", trustAnchors: [tsaRoot] });
    expect(r).toMatchObject({
      kind: "timestamp",
      digestAlgorithm: "SHA-256",
      signatureAlgorithm: "RSA",
      intact: true,
      signatureValid: true,
      trusted: true,
    });
    expect(r.signedAtSource).toBe("timestamp");
    expect(r.certificate!.subject).toMatch(/Signet Test TSA \(RSA\)/);
    expect(r.problems).toEqual([]);

    const changed = await verify({
      cms: token,
      subFilter: "ETSI.RFC3161",
      trustAnchors: [tsaRoot],
      content: over(tampered),
    });
    expect(changed.intact).toBe(false);
    expect(codes(changed, "error")).toContain("digest_mismatch");

    const untrusted = await verify({ cms: token, subFilter: "ETSI.RFC3161", trustAnchors: [] });
    expect([untrusted.intact, untrusted.signatureValid, untrusted.trusted]).toEqual([true, true, false]);
  });

  it("reports a token made for another signature value", async () => {
    const id = await testIdentity("P-256");
    const other = await buildCadesDetachedSignature({
      identity: id.identity,
      contentDigest: await hashBytes("SHA-256", content),
      timestamp: async () =>
        (await requestTimestamp({ url: env.TEST_TSA_URL, messageImprint: new Uint8Array(32).fill(9) })).token,
    });
    const claimed = new Date(Date.now() - 60_000);
    const r = await verify({ cms: other, trustAnchors: [root, tsaRoot], claimedTime: claimed });
    expect(r.timestamp).toMatchObject({ intact: false, trusted: true });
    expect(r.signedAtSource).toBe("claimed");
    expect(codes(r, "error")).toContain("timestamp_invalid");
  });
});

describe.each([
  ["RSA-PSS", "RSA-PSS"],
  ["Ed25519", "Ed25519"],
  ["Ed448", "Ed448"],
  ["brainpoolP256r1", "ECDSA"],
  ["P-521", "ECDSA"],
] as [KeyKind, string][])("signatures made with %s keys", (kind, algorithm) => {
  let pki: Pki;
  const digest: DigestName =
    kind === "Ed448" ? "SHAKE256" : kind === "Ed25519" || kind === "P-521" ? "SHA-512" : "SHA-256";

  beforeAll(async () => {
    pki = await makePki(kind);
  });

  it("verify and chain to their root", async () => {
    const r = await verify({ cms: await signWith(pki, digest), trustAnchors: [pki.root] });
    expect(r).toMatchObject({
      signatureAlgorithm: algorithm,
      digestAlgorithm: digest,
      intact: true,
      signatureValid: true,
      trusted: true,
    });
    expect(r.problems).toEqual([]);
  });

  it("fail when the signature value is altered", async () => {
    const r = await verify({ cms: await signWith(pki, digest, { tamperSignature: true }), trustAnchors: [pki.root] });
    expect(r.intact).toBe(true);
    expect(r.signatureValid).toBe(false);
  });
});

describe("algorithms and CMS variants", () => {
  it("reports SHA-1 as a weak algorithm", async () => {
    const pki = await makePki("RSA-SHA1");
    const r = await verify({ cms: await signWith(pki, "SHA-1"), trustAnchors: [pki.root] });
    expect([r.intact, r.signatureValid, r.trusted]).toEqual([true, true, true]);
    expect(r.digestAlgorithm).toBe("SHA-1");
    expect(r.problems).toContainEqual(expect.objectContaining({ code: "weak_algorithm", severity: "error" }));
  });

  it("checks adbe.pkcs7.sha1: the encapsulated SHA-1 of the byte ranges", async () => {
    const pki = await makePki("RSA");
    const sha1 = await hashBytes("SHA-1", content);
    const cms = await makeCms({
      key: pki.key,
      cert: pki.cert,
      digest: "SHA-256",
      contentDigest: await hashBytes("SHA-256", sha1),
      eContent: sha1,
    });
    const ok = await verify({ cms, subFilter: "adbe.pkcs7.sha1", trustAnchors: [pki.root] });
    expect([ok.intact, ok.signatureValid, ok.trusted]).toEqual([true, true, true]);
    expect(ok.digestAlgorithm).toBe("SHA-1");
    expect(codes(ok)).toEqual(["weak_algorithm"]);
    const bad = await verify({ cms, subFilter: "adbe.pkcs7.sha1", trustAnchors: [pki.root], content: over(tampered) });
    expect(bad.intact).toBe(false);
    expect(codes(bad, "error")).toContain("digest_mismatch");
  });

  it("calls a signature computed under another hash than its algorithm names invalid (RFC 5652), and says which", async () => {
    // sha256WithRSAEncryption named, SHA-384 used: iText's two-phase signing wrote such files;
    // OpenSSL accepts them, pdfsig, pyHanko and DSS do not.
    const pki = await makePki("RSA");
    const pair = (await crypto.subtle.generateKey(
      { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: Uint8Array.of(1, 0, 1), hash: "SHA-384" },
      true,
      ["sign", "verify"],
    )) as CryptoKeyPair;
    const key: TestKey = {
      spki: new Uint8Array((await crypto.subtle.exportKey("spki", pair.publicKey)) as ArrayBuffer),
      algorithm: algorithmIdentifier(OID.sha256WithRSAEncryption, nullValue()),
      sign: async (data) =>
        new Uint8Array(await crypto.subtle.sign("RSASSA-PKCS1-v1_5", pair.privateKey, data.slice().buffer)),
    };
    const cert = await makeCert({
      subject: name("Mislabelled Signer"),
      key,
      issuer: { name: pki.rootName, key: pki.rootKey },
    });
    const r = await verify({
      cms: await makeCms({ key, cert, digest: "SHA-384", contentDigest: await hashBytes("SHA-384", content) }),
      trustAnchors: [pki.root],
    });
    expect(r.intact).toBe(true);
    expect(r.signatureValid).toBe(false);
    expect(codes(r, "error")).toContain("signature_algorithm_mismatch");
    expect(r.problems.find((p) => p.code === "signature_algorithm_mismatch")!.message).toMatch(
      /SHA-256 its signature algorithm names, only under the SHA-384/,
    );
  });

  it("refuses EdDSA with a digest algorithm RFC 8419 does not pair with it", async () => {
    const pki = await makePki("Ed448");
    const r = await verify({ cms: await signWith(pki, "SHA-512"), trustAnchors: [pki.root] });
    expect(r.intact).toBe(true);
    expect(r.signatureValid).toBeNull();
    expect(codes(r, "error")).toEqual(["unsupported_algorithm"]);
  });

  it("verifies old PKCS#7 without signed attributes (signature over the content digest)", async () => {
    const pki = await makePki("RSA");
    const cms = await makeCmsWithoutAttributes({ key: pki.key, cert: pki.cert, content });
    const ok = await verify({ cms, subFilter: "adbe.pkcs7.detached", trustAnchors: [pki.root] });
    expect([ok.intact, ok.signatureValid, ok.trusted]).toEqual([true, true, true]);
    const bad = await verify({
      cms,
      subFilter: "adbe.pkcs7.detached",
      trustAnchors: [pki.root],
      content: over(tampered),
    });
    expect([bad.intact, bad.signatureValid]).toEqual([false, false]);
  });

  it("finds the signer by subjectKeyIdentifier", async () => {
    const pki = await makePki("P-256");
    const ski = (await hashBytes("SHA-1", pki.key.spki)).subarray(0, 20);
    const r = await verify({ cms: await signWith(pki, "SHA-256", { subjectKeyId: ski }), trustAnchors: [pki.root] });
    expect([r.intact, r.signatureValid, r.trusted]).toEqual([true, true, true]);
  });

  it("accepts signed attributes that arrive unsorted (their DER SET is what was signed)", async () => {
    const pki = await makePki("P-256");
    const cms = await signWith(pki, "SHA-256", {
      encodeSignedAttributes: (attrs) => tlv(0x31, concatBytes([...attrs].reverse())),
    });
    const r = await verify({ cms, trustAnchors: [pki.root] });
    expect([r.intact, r.signatureValid, r.trusted]).toEqual([true, true, true]);
    expect(codes(r)).toEqual(["cms_not_der"]);
  });

  it("reports a signing-certificate-v2 attribute naming another certificate", async () => {
    const pki = await makePki("P-256");
    const other = await makePki("P-256");
    const cms = await signWith(pki, "SHA-256", {
      extraSignedAttributes: [await signingCertificateV2Attribute(other.cert)],
    });
    const r = await verify({ cms, trustAnchors: [pki.root] });
    expect([r.intact, r.signatureValid, r.trusted]).toEqual([true, true, false]);
    expect(codes(r, "error")).toEqual(["signing_certificate_mismatch"]);
    const good = await verify({
      cms: await signWith(pki, "SHA-256", { extraSignedAttributes: [await signingCertificateV2Attribute(pki.cert)] }),
      trustAnchors: [pki.root],
    });
    expect(good.problems).toEqual([]);
  });

  it("reports a content-type attribute other than id-data", async () => {
    const pki = await makePki("P-256");
    const r = await verify({
      cms: await signWith(pki, "SHA-256", { eContentType: OID.tstInfo }),
      subFilter: "adbe.pkcs7.detached",
    });
    expect(r.intact).toBe(false);
  });

  it("reports a missing signer certificate", async () => {
    const pki = await makePki("P-256");
    const r = await verify({ cms: await signWith(pki, "SHA-256", { certificates: [] }), trustAnchors: [pki.root] });
    expect(r).toMatchObject({ intact: true, signatureValid: false, trusted: false, certificate: null });
    expect(codes(r, "error")).toContain("signer_certificate_missing");
  });

  it("gives signatureValid null and unsupported_algorithm for an unknown signature algorithm", async () => {
    const pki = await makePki("P-256");
    const weird: TestKey = { ...pki.key, algorithm: algorithmIdentifier("1.2.3.4.5") };
    const r = await verify({
      cms: await makeCms({
        key: weird,
        cert: pki.cert,
        digest: "SHA-256",
        contentDigest: await hashBytes("SHA-256", content),
      }),
    });
    expect(r.signatureValid).toBeNull();
    expect(codes(r, "error")).toContain("unsupported_algorithm");
  });
});

describe("certificate validity and chains", () => {
  const day = 86400_000;

  it("judges an expired certificate at the signing time: valid then is a warning", async () => {
    const pki = await makePki("P-256", {
      notBefore: new Date(Date.now() - 400 * day),
      notAfter: new Date(Date.now() - 30 * day),
    });
    const cms = await signWith(pki);
    const then = await verify({ cms, trustAnchors: [pki.root], claimedTime: new Date(Date.now() - 100 * day) });
    expect(then.trusted).toBe(true);
    expect(then.problems).toEqual([expect.objectContaining({ code: "certificate_expired_now", severity: "warning" })]);

    const after = await verify({ cms, trustAnchors: [pki.root], claimedTime: new Date(Date.now() - 10 * day) });
    expect(after.trusted).toBe(false);
    expect(codes(after, "error")).toEqual(["certificate_not_valid_at_signing_time"]);

    const noTime = await verify({ cms, trustAnchors: [pki.root], claimedTime: null });
    expect(noTime.trusted).toBe(false);
    expect(noTime.signedAt).toBeNull();
  });

  it("builds a path through an intermediate CA and refuses a non-CA issuer", async () => {
    const rootKey = await makeKey("P-256");
    const rootName = name("Chain Root");
    const root = await makeCert({ subject: rootName, key: rootKey, ca: true });
    const midKey = await makeKey("P-256");
    const midName = name("Chain Intermediate");
    const mid = await makeCert({ subject: midName, key: midKey, ca: true, issuer: { name: rootName, key: rootKey } });
    const fakeMid = await makeCert({
      subject: midName,
      key: midKey,
      ca: false,
      keyUsage: [0, 5],
      issuer: { name: rootName, key: rootKey },
    });
    const key = await makeKey("P-256");
    const cert = await makeCert({ subject: name("Leaf"), key, issuer: { name: midName, key: midKey } });
    const digest = await hashBytes("SHA-256", content);

    const good = await verify({
      cms: await makeCms({ key, cert, certificates: [cert, mid], digest: "SHA-256", contentDigest: digest }),
      trustAnchors: [root],
    });
    expect(good.trusted).toBe(true);
    expect(good.problems).toEqual([]);

    const noMid = await verify({
      cms: await makeCms({ key, cert, certificates: [cert], digest: "SHA-256", contentDigest: digest }),
      trustAnchors: [root],
    });
    expect(noMid.trusted).toBe(false);

    const bad = await verify({
      cms: await makeCms({ key, cert, certificates: [cert, fakeMid], digest: "SHA-256", contentDigest: digest }),
      trustAnchors: [root],
    });
    expect(bad.trusted).toBe(false);
    expect(bad.problems.find((p) => p.code === "untrusted_certificate")!.message).toMatch(/not a CA/);
  });

  it("bounds the work on many look-alike issuers", async () => {
    const pki = await makePki("P-256");
    const lookAlikes: Uint8Array[] = [];
    for (let i = 0; i < 40; i++)
      lookAlikes.push(await makeCert({ subject: pki.rootName, key: await makeKey("P-256"), ca: true }));
    const digest = await hashBytes("SHA-256", content);
    const cms = await makeCms({
      key: pki.key,
      cert: pki.cert,
      certificates: [pki.cert, ...lookAlikes],
      digest: "SHA-256",
      contentDigest: digest,
    });
    const trusted = await verify({ cms, trustAnchors: [pki.root] });
    expect(trusted.trusted).toBe(true);
    const other = await makePki("P-256");
    const untrusted = await verify({ cms, trustAnchors: [other.root] });
    expect([untrusted.intact, untrusted.signatureValid, untrusted.trusted]).toEqual([true, true, false]);
  });

  it("is cycle-safe with certificates that issue each other", async () => {
    const aKey = await makeKey("P-256");
    const bKey = await makeKey("P-256");
    const aName = name("Cycle A");
    const bName = name("Cycle B");
    const a = await makeCert({ subject: aName, key: aKey, ca: true, issuer: { name: bName, key: bKey } });
    const b = await makeCert({ subject: bName, key: bKey, ca: true, issuer: { name: aName, key: aKey } });
    const key = await makeKey("P-256");
    const cert = await makeCert({ subject: name("Cycle Leaf"), key, issuer: { name: aName, key: aKey } });
    const cms = await makeCms({
      key,
      cert,
      certificates: [cert, a, b],
      digest: "SHA-256",
      contentDigest: await hashBytes("SHA-256", content),
    });
    const r = await verify({ cms, trustAnchors: [] });
    expect([r.intact, r.signatureValid, r.trusted]).toEqual([true, true, false]);
  });
});

describe("malformed CMS never throws", () => {
  const cases: [string, Uint8Array][] = [
    ["empty", new Uint8Array(0)],
    ["all zeros", new Uint8Array(64)],
    ["garbage", Uint8Array.from({ length: 300 }, (_, i) => (i * 37) & 0xff)],
    ["a bare SEQUENCE", sequence()],
    ["not SignedData", sequence(oid(OID.data), explicit(0, octetString(Uint8Array.of(1))))],
    [
      "SignedData without signer infos",
      sequence(
        oid(OID.signedData),
        explicit(0, sequence(tlv(2, Uint8Array.of(1)), setOf(), sequence(oid(OID.data)), setOf())),
      ),
    ],
    ["deep nesting", concatBytes([...Array.from({ length: 5000 }, () => Uint8Array.of(0x30, 0x80))])],
    ["huge length", Uint8Array.of(0x30, 0x84, 0x7f, 0xff, 0xff, 0xff, 0x06)],
  ];

  it.each(cases)("%s → cms_malformed", async (_, cms) => {
    const r = await verify({ cms });
    expect([r.intact, r.signatureValid, r.trusted]).toEqual([false, false, false]);
    expect(codes(r, "error")).toEqual(["cms_malformed"]);
  });

  it("truncated signatures of ours → cms_malformed", async () => {
    const id = await testIdentity("RSA");
    const cms = await buildCadesDetachedSignature({
      identity: id.identity,
      contentDigest: await hashBytes("SHA-256", content),
    });
    for (const cut of [10, 100, cms.length - 300, cms.length - 1]) {
      const r = await verify({ cms: cms.subarray(0, cut) });
      expect(codes(r, "error")).toEqual(["cms_malformed"]);
    }
    // Unsupported legacy format.
    const legacy = await verify({ cms, subFilter: "adbe.x509.rsa_sha1" });
    expect(legacy.signatureValid).toBeNull();
    expect(codes(legacy)).toEqual(["unsupported_algorithm"]);
  });

  it("survives random corruption of a valid CMS (mutation fuzz)", async () => {
    const id = await testIdentity("P-256");
    const res = await fetch(`${env.TEST_TSA_URL}/ca.pem`);
    const tsaRoot = parseCertificatesPem(await res.text(), "TSA CA")[0]!;
    const stamper = signatureTimestamper({ url: env.TEST_TSA_URL });
    const cms = await buildCadesDetachedSignature({
      identity: id.identity,
      contentDigest: await hashBytes("SHA-256", content),
      timestamp: stamper.timestamp,
    });
    let seed = 12345;
    const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    let valid = 0;
    for (let round = 0; round < 400; round++) {
      const mutated = cms.slice();
      const flips = 1 + Math.floor(rand() * 3);
      for (let k = 0; k < flips; k++) mutated[Math.floor(rand() * mutated.length)] = Math.floor(rand() * 256);
      const r = await verify({
        cms: mutated,
        trustAnchors: [tsaRoot],
        subFilter: round % 2 ? "ETSI.CAdES.detached" : "ETSI.RFC3161",
      });
      expect(typeof r.trusted).toBe("boolean");
      if (r.intact && r.signatureValid) valid++;
    }
    // A mutation may land in unsigned parts (certificates are not signed by the signer, the
    // token's unsigned fields), but most break something.
    expect(valid).toBeLessThan(400);
  });
});
