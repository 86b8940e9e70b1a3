/**
 * A small RFC 3161 time-stamp authority on 127.0.0.1 for tests (Node side).
 *
 * It generates its own CA and TSA certificates at start (scripts/lib/pki.mjs) and answers
 * TimeStampReq with a signed TimeStampToken: TSTInfo with the request's imprint and nonce,
 * genTime, a serial number, policy 1.2.3.4.1 and the TSA name; SignedData v3 whose signed
 * attributes are content-type, message-digest and ESS signing-certificate-v2.
 *
 * Paths (all under the returned `url`, which ends in `/tsa`):
 *   POST /tsa                normal answer (ECDSA P-256 TSA key)
 *   POST /tsa/rsa            normal answer signed by an RSA TSA key
 *   POST /tsa/fail           PKIStatus rejection (badRequest) with a status string
 *   POST /tsa/500            HTTP 500
 *   POST /tsa/slow           never answers (well beyond 15 s; released on close)
 *   POST /tsa/wrong-type     a valid answer with Content-Type text/plain
 *   POST /tsa/garbage        HTTP 200, right content type, bytes that are not ASN.1
 *   POST /tsa/bad-nonce      a token whose nonce differs from the request's
 *   POST /tsa/bad-imprint    a token for another imprint
 *   POST /tsa/bad-signature  a token whose TSTInfo was altered after signing
 *   POST /tsa/ltv            (with `ltvSigner`) a token signed by a TSA certificate of the revocation
 *                            PKI (revocation-pki.ts), carrying its chain: for B-LT/B-LTA tests
 *   GET  /tsa/ca.pem         the TSA's CA certificate (PEM), to verify tokens
 *   GET  /tsa/stats          JSON { requests: number } (requests answered so far)
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { certificateDer, createRootCa, createTsaCertificate } from "../../scripts/lib/pki.mjs";
import {
  TAG,
  children,
  explicit,
  generalizedTime,
  oid,
  readDer,
  sequence,
  smallInteger,
  tlv,
  toArrayBuffer,
  unsignedInteger,
  utf8String,
} from "../../src/cms/der";
import { OID } from "../../src/cms/oids";
import { buildSignedData, signingCertificateV2Attribute } from "../../src/cms/signed-data";
import { webCryptoSigner } from "../../src/cms/signers/local-key";
import { certificateParts } from "../../src/cms/x509";

export const TEST_TSA_POLICY = "1.2.3.4.1";

export interface TsaServer {
  /** Base URL of the normal endpoint, e.g. `http://127.0.0.1:40123/tsa`. */
  url: string;
  /** PEM of the CA that issued the TSA certificates. */
  caCertificatePem: string;
  close(): Promise<void>;
}

interface TsaSigner {
  certDer: Uint8Array;
  /** Certificates sent in the token (the signer's first). */
  chainDer?: Uint8Array[];
  privateKey: CryptoKey;
  subject: Uint8Array;
  essAttribute: Uint8Array;
}

interface ParsedRequest {
  messageImprint: Uint8Array; // the MessageImprint TLV, echoed as is
  nonce: Uint8Array | null; // INTEGER TLV
  certReq: boolean;
}

function parseRequest(body: Uint8Array): ParsedRequest {
  const req = readDer(body, 0, true);
  if (req.tag !== TAG.SEQUENCE) throw new Error("TimeStampReq must be a SEQUENCE");
  const [version, imprint, ...rest] = children(req);
  if (version?.tag !== TAG.INTEGER || imprint?.tag !== TAG.SEQUENCE) throw new Error("bad TimeStampReq");
  let nonce: Uint8Array | null = null;
  let certReq = false;
  for (const field of rest) {
    if (field.tag === TAG.INTEGER) nonce = field.bytes;
    else if (field.tag === TAG.BOOLEAN) certReq = field.content[0] !== 0;
  }
  return { messageImprint: imprint.bytes, nonce, certReq };
}

function statusInfo(status: number, text?: string, failBit?: number): Uint8Array {
  const parts = [smallInteger(status)];
  if (text) parts.push(sequence(utf8String(text)));
  if (failBit !== undefined) {
    const bytes = new Uint8Array(Math.floor(failBit / 8) + 1);
    bytes[Math.floor(failBit / 8)] = 0x80 >> (failBit % 8);
    const unused = 7 - (failBit % 8);
    parts.push(tlv(TAG.BIT_STRING, Uint8Array.of(unused, ...bytes)));
  }
  return sequence(...parts);
}

async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", toArrayBuffer(bytes)));
}

type Variant = "normal" | "bad-nonce" | "bad-imprint" | "bad-signature";

async function makeToken(signer: TsaSigner, req: ParsedRequest, serial: number, variant: Variant): Promise<Uint8Array> {
  let imprint = req.messageImprint;
  if (variant === "bad-imprint") {
    imprint = imprint.slice();
    imprint[imprint.length - 1]! ^= 0xff;
  }
  let nonce = req.nonce;
  if (variant === "bad-nonce") nonce = unsignedInteger(Uint8Array.of(0x12, 0x34, 0x56, 0x78));

  const tstInfo = (serialNumber: number) =>
    sequence(
      smallInteger(1),
      oid(TEST_TSA_POLICY),
      imprint,
      smallInteger(serialNumber),
      generalizedTime(new Date()),
      sequence(smallInteger(1)), // accuracy: 1 s
      ...(nonce ? [nonce] : []),
      explicit(0, explicit(4, signer.subject)), // tsa [0] GeneralName: directoryName [4] Name
    );
  const content = tstInfo(serial);
  const signedContent = variant === "bad-signature" ? tstInfo(serial + 1_000_000) : content;
  return buildSignedData({
    contentType: OID.tstInfo,
    content: signedContent,
    contentDigest: await sha256(content),
    certificates: req.certReq ? (signer.chainDer ?? [signer.certDer]) : [],
    signerCertificate: signer.certDer,
    signer: webCryptoSigner(signer.privateKey, 512),
    extraSignedAttributes: [signer.essAttribute],
  });
}

function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    req.on("data", (chunk: Uint8Array) => {
      total += chunk.length;
      if (total > limit) {
        reject(new Error("request too large"));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      const out = new Uint8Array(total);
      let o = 0;
      for (const c of chunks) {
        out.set(c, o);
        o += c.length;
      }
      resolve(out);
    });
    req.on("error", reject);
  });
}

async function makeSigner(
  ca: { certificate: import("pkijs").Certificate; privateKey: CryptoKey },
  keyType: "RSA" | "ECDSA",
): Promise<TsaSigner> {
  const tsa = await createTsaCertificate(ca, { keyType, CN: `Signet Test TSA (${keyType})` });
  const certDer = certificateDer(tsa.certificate);
  return {
    certDer,
    privateKey: tsa.privateKey,
    subject: certificateParts(certDer).subject,
    essAttribute: await signingCertificateV2Attribute(certDer),
  };
}

/** A TSA signer from PEM: an ECDSA P-256 PKCS#8 key and its chain (TSA certificate first). */
async function signerFromPem(keyPem: string, chainPem: string): Promise<TsaSigner> {
  const der = (pem: string) => Uint8Array.from(atob(pem.replace(/-----[^-]+-----|\s/g, "")), (c) => c.charCodeAt(0));
  const chainDer = (chainPem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? []).map(der);
  const certDer = chainDer[0]!;
  const privateKey = await crypto.subtle.importKey(
    "pkcs8",
    toArrayBuffer(der(keyPem)),
    { name: "ECDSA", namedCurve: "P-256" },
    false,
    ["sign"],
  );
  return {
    certDer,
    chainDer,
    privateKey,
    subject: certificateParts(certDer).subject,
    essAttribute: await signingCertificateV2Attribute(certDer),
  };
}

export async function startTsaServer(
  opts: { ltvSigner?: { keyPem: string; chainPem: string } } = {},
): Promise<TsaServer> {
  const ca = await createRootCa({ keyType: "ECDSA", CN: "Signet Test TSA Root CA" });
  const signers = {
    ecdsa: await makeSigner(ca, "ECDSA"),
    rsa: await makeSigner(ca, "RSA"),
    ltv: opts.ltvSigner ? await signerFromPem(opts.ltvSigner.keyPem, opts.ltvSigner.chainPem) : null,
  };
  let serial = 1000 + Math.floor(Math.random() * 1000);
  let answered = 0;
  const sockets = new Set<Socket>();
  const slowTimers = new Set<ReturnType<typeof setTimeout>>();

  const reply = (res: ServerResponse, status: number, type: string, body: Uint8Array | string) => {
    const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
    res.writeHead(status, { "content-type": type, "content-length": bytes.length });
    res.end(bytes);
  };

  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    try {
      if (req.method === "GET" && path === "/tsa/ca.pem")
        return reply(res, 200, "application/x-pem-file", ca.certificatePem);
      if (req.method === "GET" && path === "/tsa/stats")
        return reply(res, 200, "application/json", JSON.stringify({ requests: answered }));
      if (!path.startsWith("/tsa")) return reply(res, 404, "text/plain", "not found");
      if (req.method !== "POST") return reply(res, 405, "text/plain", "POST a TimeStampReq");
      const body = await readBody(req, 64 * 1024);
      if (path === "/tsa/500") return reply(res, 500, "text/plain", "internal error (test TSA)");
      if (path === "/tsa/slow") {
        // Never answer in time; the socket is destroyed when the server closes.
        const t = setTimeout(() => reply(res, 503, "text/plain", "too late"), 120_000);
        slowTimers.add(t);
        return;
      }
      if (path === "/tsa/garbage") return reply(res, 200, "application/timestamp-reply", "this is not ASN.1");
      if ((req.headers["content-type"] ?? "").split(";")[0]!.trim() !== "application/timestamp-query") {
        return reply(res, 415, "text/plain", "expected application/timestamp-query");
      }
      let parsed: ParsedRequest;
      try {
        parsed = parseRequest(body);
      } catch {
        const resp = sequence(statusInfo(2, "malformed TimeStampReq", 5));
        return reply(res, 200, "application/timestamp-reply", resp);
      }
      if (path === "/tsa/fail") {
        const resp = sequence(statusInfo(2, "the test TSA rejects this request", 2));
        return reply(res, 200, "application/timestamp-reply", resp);
      }
      const variants: Record<string, [TsaSigner, Variant]> = {
        "/tsa": [signers.ecdsa, "normal"],
        "/tsa/rsa": [signers.rsa, "normal"],
        "/tsa/wrong-type": [signers.ecdsa, "normal"],
        "/tsa/bad-nonce": [signers.ecdsa, "bad-nonce"],
        "/tsa/bad-imprint": [signers.ecdsa, "bad-imprint"],
        "/tsa/bad-signature": [signers.ecdsa, "bad-signature"],
        ...(signers.ltv ? { "/tsa/ltv": [signers.ltv, "normal"] as [TsaSigner, Variant] } : {}),
      };
      const v = variants[path];
      if (!v) return reply(res, 404, "text/plain", "unknown TSA path");
      const token = await makeToken(v[0], parsed, serial++, v[1]);
      const resp = sequence(statusInfo(0), token);
      answered++;
      return reply(res, 200, path === "/tsa/wrong-type" ? "text/plain" : "application/timestamp-reply", resp);
    } catch (e) {
      if (!res.headersSent)
        reply(res, 500, "text/plain", `test TSA error: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/tsa`,
    caCertificatePem: ca.certificatePem,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of slowTimers) clearTimeout(t);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
