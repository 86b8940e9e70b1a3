import { env } from "cloudflare:test";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { beforeAll, describe, expect, it } from "vitest";
import { TsaFailed } from "../errors";
import { buildCadesDetachedSignature } from "./cades";
import { TAG, children, readDer, toArrayBuffer } from "./der";
import { OID } from "./oids";
import { parseCertificatesPem } from "./pem";
import {
  TSA_TIMEOUT_MS,
  encodeTimestampRequest,
  parseTimestampToken,
  requestTimestamp,
  signatureTimestamper,
  verifyTimestampTokenSignature,
} from "./tsa";
import { sha256, testIdentity } from "../../test/support/signing-identities";
import { toHex } from "../util/bytes";

const tsaUrl = env.TEST_TSA_URL;
let tsaRoot: pkijs.Certificate;

beforeAll(async () => {
  const res = await fetch(`${tsaUrl}/ca.pem`);
  expect(res.status).toBe(200);
  tsaRoot = pkijs.Certificate.fromBER(toArrayBuffer(parseCertificatesPem(await res.text(), "TSA CA")[0]!));
});

async function expectTsaFailed(p: Promise<unknown>, message: RegExp) {
  let error: unknown;
  try {
    await p;
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(TsaFailed);
  expect((error as TsaFailed).code).toBe("tsa_failed");
  expect((error as Error).message).toMatch(message);
}

describe("RFC 3161 client against the test TSA", () => {
  it("encodes the request: v1, SHA-256 imprint, nonce, certReq", () => {
    const imprint = new Uint8Array(32).fill(7);
    const req = encodeTimestampRequest(imprint, Uint8Array.of(0x01, 0x02));
    const fields = children(readDer(req, 0, true));
    expect(fields.map((f) => f.tag)).toEqual([TAG.INTEGER, TAG.SEQUENCE, TAG.INTEGER, TAG.BOOLEAN]);
    expect(fields[3]!.content).toEqual(Uint8Array.of(0xff));
    const parsed = pkijs.TimeStampReq.fromBER(toArrayBuffer(req));
    expect(parsed.messageImprint.hashAlgorithm.algorithmId).toBe(OID.sha256);
    expect(new Uint8Array(parsed.messageImprint.hashedMessage.valueBlock.valueHexView)).toEqual(imprint);
    expect(parsed.certReq).toBe(true);
  });

  it.each(["", "/rsa"])("gets a token that carries our imprint and verifies (%s)", async (suffix) => {
    const imprint = await sha256(new TextEncoder().encode("signature value"));
    const before = Date.now();
    const result = await requestTimestamp({ url: tsaUrl + suffix, messageImprint: imprint });
    expect(result.policy).toBe("1.2.3.4.1");
    expect(result.serialNumber).toMatch(/^[0-9a-f]+$/);
    expect(result.tsaName).toMatch(/^CN=Signet Test TSA \((ECDSA|RSA)\), O=Signet \(development\)$/);
    expect(Math.abs(result.genTime.getTime() - before)).toBeLessThan(60_000);

    const info = parseTimestampToken(result.token);
    expect(info.messageImprint.hashAlgorithm).toBe(OID.sha256);
    expect(info.messageImprint.hashedMessage).toEqual(imprint);
    expect(info.genTime.getTime()).toBe(result.genTime.getTime());
    expect(info.nonce).toMatch(/^[0-9a-f]+$/);
    expect(info.accuracyMs).toBe(1000);
    expect(info.signerCertificate).not.toBeNull();
    expect(await verifyTimestampTokenSignature(info)).toBe(true);

    // The TSA certificate chains to the TSA's CA.
    const chain = new pkijs.CertificateChainValidationEngine({
      certs: [info.signerCertificate!],
      trustedCerts: [tsaRoot],
    });
    expect((await chain.verify()).result).toBe(true);
  });

  it("uses a fresh nonce per request", async () => {
    const imprint = new Uint8Array(32).fill(3);
    const a = parseTimestampToken((await requestTimestamp({ url: tsaUrl, messageImprint: imprint })).token);
    const b = parseTimestampToken((await requestTimestamp({ url: tsaUrl, messageImprint: imprint })).token);
    expect(a.nonce).not.toBe(b.nonce);
    expect(a.serialNumber).not.toBe(b.serialNumber);
  });

  it("turns every failure mode into TsaFailed with a clear message", async () => {
    const messageImprint = new Uint8Array(32).fill(9);
    await expectTsaFailed(
      requestTimestamp({ url: `${tsaUrl}/fail`, messageImprint }),
      /refused the request: rejection: the test TSA rejects this request \(badRequest\)/,
    );
    await expectTsaFailed(requestTimestamp({ url: `${tsaUrl}/500`, messageImprint }), /answered HTTP 500/);
    await expectTsaFailed(
      requestTimestamp({ url: `${tsaUrl}/wrong-type`, messageImprint }),
      /content type "text\/plain"/,
    );
    await expectTsaFailed(requestTimestamp({ url: `${tsaUrl}/garbage`, messageImprint }), /not a valid TimeStampResp/);
    await expectTsaFailed(requestTimestamp({ url: `${tsaUrl}/bad-nonce`, messageImprint }), /nonce does not match/);
    await expectTsaFailed(
      requestTimestamp({ url: `${tsaUrl}/bad-imprint`, messageImprint }),
      /different message imprint/,
    );
    await expectTsaFailed(
      requestTimestamp({ url: `${tsaUrl}/bad-signature`, messageImprint }),
      /signature does not verify/,
    );
    await expectTsaFailed(requestTimestamp({ url: `${tsaUrl}/nowhere`, messageImprint }), /answered HTTP 404/);
    await expectTsaFailed(
      requestTimestamp({ url: tsaUrl, messageImprint, maxResponseBytes: 100 }),
      /too large \(over 100 bytes\)/,
    );
    await expectTsaFailed(requestTimestamp({ url: "ftp://tsa.example/", messageImprint }), /must use http: or https:/);
    await expectTsaFailed(requestTimestamp({ url: "not a url", messageImprint }), /not a valid URL/);
  });

  it("reports an unreachable TSA", async () => {
    // (A real closed port works too, but workerd logs the lost connection as noise.)
    const unreachable: typeof fetch = async () => {
      throw new TypeError("Network connection lost.");
    };
    await expectTsaFailed(
      requestTimestamp({ url: "http://127.0.0.1:1/tsa", messageImprint: new Uint8Array(32), fetch: unreachable }),
      /at http:\/\/127\.0\.0\.1:1\/tsa could not be reached \(Network connection lost\.\)/,
    );
  });

  it("never hangs: a silent TSA is refused by the timeout, which the message names", async () => {
    expect(TSA_TIMEOUT_MS).toBeLessThan(15_000);
    await expectTsaFailed(
      requestTimestamp({ url: `${tsaUrl}/slow`, messageImprint: new Uint8Array(32), timeoutMs: 1_000 }),
      /did not answer within 1 s/,
    );
  });

  it("uses the injected fetch", async () => {
    const calls: string[] = [];
    const fakeFetch: typeof fetch = async (input, init) => {
      calls.push(String(input));
      expect(new Headers(init?.headers).get("content-type")).toBe("application/timestamp-query");
      return new Response("nope", { status: 503 });
    };
    await expectTsaFailed(
      requestTimestamp({ url: "https://tsa.example/ts", messageImprint: new Uint8Array(32), fetch: fakeFetch }),
      /HTTP 503/,
    );
    expect(calls).toEqual(["https://tsa.example/ts"]);
  });

  it("sends URL credentials as basic auth and keeps them out of messages", async () => {
    let seen: { url: string; auth: string | null } | null = null;
    const fakeFetch: typeof fetch = async (input, init) => {
      seen = { url: String(input), auth: new Headers(init?.headers).get("authorization") };
      return new Response("nope", { status: 401 });
    };
    const p = requestTimestamp({
      url: "https://us%C3%A9r:s3cr%40t@tsa.example/ts?token=abc",
      messageImprint: new Uint8Array(32),
      fetch: fakeFetch,
    });
    await expectTsaFailed(p, /^The time-stamp authority at https:\/\/tsa\.example\/ts answered HTTP 401\.$/);
    expect(seen!.url).toBe("https://tsa.example/ts?token=abc");
    expect(seen!.auth).toBe(`Basic ${btoa(String.fromCharCode(...new TextEncoder().encode("usér:s3cr@t")))}`);
  });

  it("rejects non-token input in parseTimestampToken", () => {
    expect(() => parseTimestampToken(Uint8Array.of(1, 2, 3))).toThrow(/not valid ASN.1|ContentInfo|trailing/);
  });
});

describe("PAdES B-T: signature time-stamp as unsigned attribute", () => {
  it.each(["RSA", "P-256"] as const)(
    "adds id-aa-signatureTimeStampToken over the signature value (%s)",
    async (kind) => {
      const { identity } = await testIdentity(kind);
      const stamper = signatureTimestamper({ url: tsaUrl });
      let seen: Uint8Array | null = null;
      const cms = await buildCadesDetachedSignature({
        identity,
        contentDigest: await sha256(new TextEncoder().encode("doc")),
        timestamp: async (sig) => {
          seen = sig;
          return stamper.timestamp(sig);
        },
      });
      const sd = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(toArrayBuffer(cms)).content });
      const si = sd.signerInfos[0]!;
      const signatureValue = new Uint8Array(si.signature.valueBlock.valueHexView);
      expect(seen).toEqual(signatureValue);
      expect(si.unsignedAttrs!.attributes.map((a) => a.type)).toEqual([OID.signatureTimeStampToken]);
      expect(si.signedAttrs!.attributes.map((a) => a.type)).not.toContain(OID.signingTime);
      const tokenDer = new Uint8Array((si.unsignedAttrs!.attributes[0]!.values[0] as asn1js.Sequence).toBER());
      const info = parseTimestampToken(tokenDer);
      expect(toHex(info.messageImprint.hashedMessage)).toBe(toHex(await sha256(signatureValue)));
      expect(await verifyTimestampTokenSignature(info)).toBe(true);
      expect(stamper.result()!.genTime.getTime()).toBe(info.genTime.getTime());
      // The signature itself still verifies.
      const ok = await sd.verify({ signer: 0, data: toArrayBuffer(new TextEncoder().encode("doc")) });
      expect(ok).toBe(true);
    },
  );

  it("propagates TsaFailed from the time-stamp callback", async () => {
    const { identity } = await testIdentity("RSA");
    const stamper = signatureTimestamper({ url: `${tsaUrl}/fail` });
    await expect(
      buildCadesDetachedSignature({ identity, contentDigest: new Uint8Array(32), timestamp: stamper.timestamp }),
    ).rejects.toBeInstanceOf(TsaFailed);
  });
});
