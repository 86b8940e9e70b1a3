/**
 * A small AWS KMS on loopback for the tests: the AWS JSON 1.1 protocol (`POST /`,
 * `X-Amz-Target: TrentService.GetPublicKey | TrentService.Sign`) with real keys (RSA 2048,
 * ECC_NIST_P256, ECC_NIST_P384), and every request's SigV4 signature checked with AWS's own
 * signer (`@smithy/signature-v4`, the official SDK's): the request is signed again from its
 * signed headers, date and body, and the signatures must be equal. So Signet's KMS client
 * (aws4fetch) is checked by code we did not write. Unsigned, badly signed, stale or foreign
 * requests get KMS's own errors.
 *
 * `Sign` accepts `MessageType: DIGEST` only (what Signet must send), checks the digest length of
 * the signing algorithm, and signs the digest as KMS does: RSASSA-PKCS1-v1_5 (DigestInfo + the
 * RSA private operation), RSASSA-PSS (EMSA-PSS with a 32-byte salt, then the raw RSA operation)
 * and ECDSA (over the digest, DER as KMS returns it).
 *
 * Test control (no SigV4): `POST /__test/behaviour {keyId, behaviour}` makes a key's `Sign`
 * succeed (`ok`), fail (`fail`: HTTP 500 KMSInternalException), refuse (`refuse`: HTTP 400
 * DisabledException), hang (`hang`: no answer) or return another key's signature (`wrong-key`);
 * `GET /__test/log` lists the calls (action, key, message type, algorithm, verified).
 */
import { SignatureV4 } from "@smithy/signature-v4";
import { p256, p384 } from "@noble/curves/nist.js";
import {
  constants,
  createHash,
  createHmac,
  generateKeyPairSync,
  privateEncrypt,
  randomBytes,
  randomUUID,
  type Hash,
  type Hmac,
  type KeyObject,
} from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { KmsKeySpec } from "./kms-vars";

export type { KmsKeySpec } from "./kms-vars";

export type KmsBehaviour = "ok" | "fail" | "refuse" | "hang" | "wrong-key";

export interface KmsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface KmsKeyInfo {
  keyId: string;
  arn: string;
  keySpec: KmsKeySpec;
  /** DER SubjectPublicKeyInfo, as GetPublicKey returns it (base64 there). */
  publicKeyDer: Uint8Array;
  publicKeyPem: string;
}

export interface KmsServer {
  url: string;
  region: string;
  credentials: KmsCredentials;
  createKey(spec: KmsKeySpec): KmsKeyInfo;
  close(): Promise<void>;
}

interface Key {
  info: KmsKeyInfo;
  rsa?: KeyObject;
  ecSecret?: Uint8Array;
  behaviour: KmsBehaviour;
}

const ACCOUNT = "111122223333";
const SIGNING_ALGORITHMS: Record<KmsKeySpec, string[]> = {
  RSA_2048: [
    "RSASSA_PSS_SHA_256",
    "RSASSA_PSS_SHA_384",
    "RSASSA_PSS_SHA_512",
    "RSASSA_PKCS1_V1_5_SHA_256",
    "RSASSA_PKCS1_V1_5_SHA_384",
    "RSASSA_PKCS1_V1_5_SHA_512",
  ],
  ECC_NIST_P256: ["ECDSA_SHA_256"],
  ECC_NIST_P384: ["ECDSA_SHA_384"],
};
/** SHA-256 and HMAC-SHA-256 (with a secret) as the SigV4 signer wants its hash: node:crypto underneath. */
class NodeSha256 {
  private hash: Hash | Hmac;
  constructor(private readonly secret?: SourceData) {
    this.hash = this.fresh();
  }
  private fresh() {
    return this.secret === undefined ? createHash("sha256") : createHmac("sha256", bytes(this.secret));
  }
  update(data: SourceData) {
    this.hash.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset() {
    this.hash = this.fresh();
  }
}

type SourceData = string | ArrayBuffer | ArrayBufferView;
const bytes = (d: SourceData) =>
  typeof d === "string"
    ? Buffer.from(d, "utf8")
    : ArrayBuffer.isView(d)
      ? Buffer.from(d.buffer, d.byteOffset, d.byteLength)
      : Buffer.from(d);

const SHA256_DIGEST_INFO = Buffer.from("3031300d060960864801650304020105000420", "hex");

export async function startKmsServer(opts: { region?: string; credentials?: KmsCredentials } = {}): Promise<KmsServer> {
  const region = opts.region ?? "eu-central-1";
  const credentials = opts.credentials ?? {
    accessKeyId: "AKIASIGNETTEST000001",
    secretAccessKey: randomBytes(30).toString("base64"),
  };
  const keys = new Map<string, Key>();
  const log: Record<string, unknown>[] = [];
  const hanging = new Set<ServerResponse>();
  const verifier = new SignatureV4({ credentials, region, service: "kms", sha256: NodeSha256, applyChecksum: false });

  const find = (id: unknown) =>
    typeof id === "string" ? (keys.get(id) ?? [...keys.values()].find((k) => k.info.arn === id)) : undefined;

  function createKey(spec: KmsKeySpec): KmsKeyInfo {
    const keyId = randomUUID();
    const arn = `arn:aws:kms:${region}:${ACCOUNT}:key/${keyId}`;
    let key: Key;
    if (spec === "RSA_2048") {
      const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
      const der = new Uint8Array(publicKey.export({ type: "spki", format: "der" }));
      key = {
        info: {
          keyId,
          arn,
          keySpec: spec,
          publicKeyDer: der,
          publicKeyPem: String(publicKey.export({ type: "spki", format: "pem" })),
        },
        rsa: privateKey,
        behaviour: "ok",
      };
    } else {
      const { privateKey, publicKey } = generateKeyPairSync("ec", {
        namedCurve: spec === "ECC_NIST_P256" ? "P-256" : "P-384",
      });
      const der = new Uint8Array(publicKey.export({ type: "spki", format: "der" }));
      const d = Buffer.from(privateKey.export({ format: "jwk" }).d!, "base64url");
      key = {
        info: {
          keyId,
          arn,
          keySpec: spec,
          publicKeyDer: der,
          publicKeyPem: String(publicKey.export({ type: "spki", format: "pem" })),
        },
        ecSecret: new Uint8Array(d),
        behaviour: "ok",
      };
    }
    keys.set(keyId, key);
    return key.info;
  }

  /** null when the request's SigV4 signature is AWS's for these credentials, else KMS's error. */
  async function sigV4Problem(req: IncomingMessage, body: Buffer): Promise<[string, string] | null> {
    const auth = String(req.headers.authorization ?? "");
    const m =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
        auth,
      );
    if (!m)
      return ["IncompleteSignatureException", "Authorization header requires a valid AWS4-HMAC-SHA256 signature."];
    const [, accessKey, day, scopeRegion, service, signedHeaders, signature] = m;
    if (accessKey !== credentials.accessKeyId)
      return ["UnrecognizedClientException", "The security token included in the request is invalid."];
    if (scopeRegion !== region || service !== "kms")
      return [
        "InvalidSignatureException",
        `Credential should be scoped to a valid region (${region}) and service kms.`,
      ];
    const amzDate = String(req.headers["x-amz-date"] ?? "");
    const when = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
    if (!when || amzDate.slice(0, 8) !== day)
      return ["IncompleteSignatureException", "X-Amz-Date is missing or does not match the credential scope."];
    const date = new Date(Date.UTC(+when[1]!, +when[2]! - 1, +when[3]!, +when[4]!, +when[5]!, +when[6]!));
    if (Math.abs(Date.now() - date.getTime()) > 5 * 60_000) return ["InvalidSignatureException", "Signature expired."];
    const names = signedHeaders!.split(";");
    if (!names.includes("host") || !names.includes("x-amz-date"))
      return ["InvalidSignatureException", "SignedHeaders must include host and x-amz-date."];
    const headers: Record<string, string> = {};
    for (const name of names) {
      const value = req.headers[name];
      if (value === undefined) return ["InvalidSignatureException", `Signed header ${name} is missing.`];
      headers[name] = Array.isArray(value) ? value.join(",") : value;
    }
    const url = new URL(req.url ?? "/", "http://placeholder");
    const resigned = await verifier.sign(
      {
        method: req.method ?? "POST",
        protocol: "http:",
        hostname: headers.host!.split(":")[0]!,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers,
        body,
      },
      { signingDate: date },
    );
    const expected = /Signature=([0-9a-f]{64})/.exec(
      String(resigned.headers.authorization ?? resigned.headers.Authorization),
    )?.[1];
    const expectedHeaders = /SignedHeaders=([a-z0-9;-]+)/.exec(
      String(resigned.headers.authorization ?? resigned.headers.Authorization),
    )?.[1];
    if (expected !== signature || expectedHeaders !== signedHeaders) {
      return [
        "InvalidSignatureException",
        "The request signature we calculated does not match the signature you provided.",
      ];
    }
    return null;
  }

  function signDigest(key: Key, algorithm: string, digest: Buffer): Buffer {
    if (key.rsa) {
      if (algorithm === "RSASSA_PKCS1_V1_5_SHA_256") {
        return privateEncrypt(
          { key: key.rsa, padding: constants.RSA_PKCS1_PADDING },
          Buffer.concat([SHA256_DIGEST_INFO, digest]),
        );
      }
      return privateEncrypt({ key: key.rsa, padding: constants.RSA_NO_PADDING }, emsaPss(digest, 2047));
    }
    const curve = key.info.keySpec === "ECC_NIST_P256" ? p256 : p384;
    return Buffer.from(curve.sign(digest, key.ecSecret!, { prehash: false, format: "der" }));
  }

  async function handle(req: IncomingMessage, res: ServerResponse, body: Buffer) {
    const send = (status: number, json: unknown, errorType?: string) => {
      res.writeHead(status, {
        "Content-Type": "application/x-amz-json-1.1",
        ...(errorType ? { "x-amzn-ErrorType": errorType } : {}),
      });
      res.end(JSON.stringify(json));
    };
    const error = (status: number, type: string, message: string) => send(status, { __type: type, message }, type);
    if (req.url === "/__test/behaviour" && req.method === "POST") {
      const { keyId, behaviour } = JSON.parse(body.toString("utf8"));
      const key = find(keyId);
      if (!key) return error(404, "NotFoundException", "no such key");
      key.behaviour = behaviour;
      return send(200, { keyId, behaviour });
    }
    if (req.url === "/__test/log" && req.method === "GET") return send(200, log);

    const target = String(req.headers["x-amz-target"] ?? "");
    const problem = await sigV4Problem(req, body);
    if (problem) {
      log.push({ action: target, verified: false, error: problem[0] });
      return error(400, problem[0], problem[1]);
    }
    if (req.method !== "POST" || String(req.headers["content-type"]) !== "application/x-amz-json-1.1") {
      return error(400, "SerializationException", "Expected POST with Content-Type application/x-amz-json-1.1.");
    }
    let input: Record<string, unknown>;
    try {
      input = JSON.parse(body.toString("utf8"));
    } catch {
      return error(400, "SerializationException", "Body is not JSON.");
    }
    const key = find(input.KeyId);
    const entry: Record<string, unknown> = { action: target, keyId: input.KeyId, verified: true };
    log.push(entry);
    if (!key) return error(400, "NotFoundException", `Key '${String(input.KeyId)}' does not exist`);

    if (target === "TrentService.GetPublicKey") {
      return send(200, {
        KeyId: key.info.arn,
        PublicKey: Buffer.from(key.info.publicKeyDer).toString("base64"),
        KeySpec: key.info.keySpec,
        CustomerMasterKeySpec: key.info.keySpec,
        KeyUsage: "SIGN_VERIFY",
        SigningAlgorithms: SIGNING_ALGORITHMS[key.info.keySpec],
      });
    }
    if (target !== "TrentService.Sign") return error(400, "UnknownOperationException", `Unknown operation ${target}`);
    Object.assign(entry, { messageType: input.MessageType, algorithm: input.SigningAlgorithm });
    const algorithm = String(input.SigningAlgorithm ?? "");
    if (!SIGNING_ALGORITHMS[key.info.keySpec].includes(algorithm))
      return error(400, "InvalidKeyUsageException", `${algorithm} is not valid for this key.`);
    if (input.MessageType !== "DIGEST")
      return error(400, "ValidationException", "This test KMS only signs digests (MessageType DIGEST).");
    const digest = Buffer.from(String(input.Message ?? ""), "base64");
    const digestLength = /_384$/.test(algorithm) ? 48 : /_512$/.test(algorithm) ? 64 : 32;
    if (digest.length !== digestLength)
      return error(400, "ValidationException", `Digest is invalid length for algorithm ${algorithm}.`);
    if (!["RSASSA_PKCS1_V1_5_SHA_256", "RSASSA_PSS_SHA_256", "ECDSA_SHA_256", "ECDSA_SHA_384"].includes(algorithm)) {
      return error(400, "UnsupportedOperationException", `This test KMS does not sign with ${algorithm}.`);
    }
    switch (key.behaviour) {
      case "fail":
        return error(500, "KMSInternalException", "The request was rejected because an internal exception occurred.");
      case "refuse":
        return error(400, "DisabledException", `${key.info.arn} is disabled.`);
      case "hang":
        hanging.add(res);
        return;
      case "wrong-key": {
        const other = [...keys.values()].find((k) => k !== key && k.info.keySpec === key.info.keySpec);
        if (!other) return error(500, "KMSInternalException", "wrong-key needs a second key of the same spec");
        return send(200, {
          KeyId: key.info.arn,
          Signature: signDigest(other, algorithm, digest).toString("base64"),
          SigningAlgorithm: algorithm,
        });
      }
    }
    return send(200, {
      KeyId: key.info.arn,
      Signature: signDigest(key, algorithm, digest).toString("base64"),
      SigningAlgorithm: algorithm,
    });
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > 64 * 1024) req.destroy();
      else chunks.push(c);
    });
    req.on("end", () => {
      handle(req, res, Buffer.concat(chunks)).catch((e) => {
        if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/x-amz-json-1.1" });
        res.end(JSON.stringify({ __type: "KMSInternalException", message: String(e) }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    region,
    credentials,
    createKey,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** EMSA-PSS-ENCODE (RFC 8017 §9.1.1) of a SHA-256 digest with a 32-byte salt and MGF1-SHA-256. */
function emsaPss(mHash: Buffer, emBits: number): Buffer {
  const hLen = 32;
  const emLen = Math.ceil(emBits / 8);
  const salt = randomBytes(hLen);
  const h = createHash("sha256")
    .update(Buffer.concat([Buffer.alloc(8), mHash, salt]))
    .digest();
  const db = Buffer.concat([Buffer.alloc(emLen - 2 * hLen - 2), Buffer.from([1]), salt]);
  const mask = Buffer.alloc(db.length);
  for (let counter = 0, at = 0; at < mask.length; counter++) {
    const c = Buffer.alloc(4);
    c.writeUInt32BE(counter);
    const block = createHash("sha256")
      .update(Buffer.concat([h, c]))
      .digest();
    block.copy(mask, at);
    at += block.length;
  }
  for (let i = 0; i < db.length; i++) db[i] = db[i]! ^ mask[i]!;
  db[0] = db[0]! & (0xff >> (8 * emLen - emBits));
  return Buffer.concat([db, h, Buffer.from([0xbc])]);
}
