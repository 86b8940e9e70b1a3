/**
 * Interoperability: CMS signatures built by src/cms are checked by OpenSSL
 * (`openssl cms -verify` over the detached content), and tokens of the test TSA by
 * `openssl ts -verify`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDevPki } from "../../scripts/lib/pki.mjs";
import { buildCadesDetachedSignature } from "../../src/cms/cades";
import { loadSigningIdentity } from "../../src/cms/signing-identity";
import { signatureTimestamper } from "../../src/cms/tsa";
import { startTsaServer, type TsaServer } from "../support/tsa-server";

const dir = mkdtempSync(join(tmpdir(), "signet-cms-openssl-"));
let tsa: TsaServer;

beforeAll(async () => {
  tsa = await startTsaServer();
  writeFileSync(join(dir, "tsa-ca.pem"), tsa.caCertificatePem);
});
afterAll(async () => {
  await tsa?.close();
  if (!process.env.KEEP_TMP) rmSync(dir, { recursive: true, force: true });
});

function openssl(args: string[]) {
  const r = spawnSync("openssl", args, { encoding: "utf8" });
  return { ok: r.status === 0, out: `${r.stdout}\n${r.stderr}` };
}

async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

const content = new TextEncoder().encode("%PDF-1.7\nnot really a PDF, but bytes to sign\n".repeat(50));

const cases = [
  { name: "RSA 2048 (RSA CA)", opts: { signerKeyType: "RSA" as const } },
  {
    name: "ECDSA P-256 (P-384 CA)",
    opts: { signerKeyType: "ECDSA" as const, namedCurve: "P-256" as const, caKeyType: "ECDSA" as const },
  },
  { name: "ECDSA P-384 (RSA CA)", opts: { signerKeyType: "ECDSA" as const, namedCurve: "P-384" as const } },
];

describe.each(cases)("openssl cms -verify: $name", ({ name, opts }) => {
  const tag = name.replace(/\W+/g, "-");
  const files = {
    ca: join(dir, `${tag}-ca.pem`),
    content: join(dir, `${tag}-content.bin`),
    tampered: join(dir, `${tag}-tampered.bin`),
    cms: join(dir, `${tag}.p7s`),
    cmsT: join(dir, `${tag}-bt.p7s`),
    token: join(dir, `${tag}-token.der`),
  };
  let signatureValue: Uint8Array | null = null;

  beforeAll(async () => {
    const pki = await createDevPki(opts);
    writeFileSync(files.ca, pki.caCertificatePem);
    writeFileSync(files.content, content);
    const tampered = content.slice();
    tampered[100]! ^= 0x01;
    writeFileSync(files.tampered, tampered);
    const identity = await loadSigningIdentity(pki.signingKeyPem, pki.signingCertPem);
    writeFileSync(files.cms, await buildCadesDetachedSignature({ identity, contentDigest: await sha256(content) }));
    const stamper = signatureTimestamper({ url: tsa.url });
    const cmsT = await buildCadesDetachedSignature({
      identity,
      contentDigest: await sha256(content),
      timestamp: async (sig) => {
        signatureValue = sig;
        const token = await stamper.timestamp(sig);
        writeFileSync(files.token, token);
        return token;
      },
    });
    writeFileSync(files.cmsT, cmsT);
  });

  const verify = (cms: string, data: string) =>
    openssl([
      "cms",
      "-verify",
      "-binary",
      "-inform",
      "DER",
      "-in",
      cms,
      "-content",
      data,
      "-CAfile",
      files.ca,
      "-out",
      "/dev/null",
    ]);

  it("accepts the B-B signature over the original content", () => {
    const r = verify(files.cms, files.content);
    expect(r.out).toContain("Verification successful");
    expect(r.ok).toBe(true);
  });

  it("rejects it after one content byte is flipped", () => {
    const r = verify(files.cms, files.tampered);
    expect(r.ok).toBe(false);
    expect(r.out).not.toContain("Verification successful");
  });

  it("rejects it against another CA", () => {
    const r = openssl([
      "cms",
      "-verify",
      "-binary",
      "-inform",
      "DER",
      "-in",
      files.cms,
      "-content",
      files.content,
      "-CAfile",
      join(dir, "tsa-ca.pem"),
      "-out",
      "/dev/null",
    ]);
    expect(r.ok).toBe(false);
  });

  it("accepts the B-T signature, and openssl ts accepts its time-stamp token", () => {
    const r = verify(files.cmsT, files.content);
    expect(r.ok).toBe(true);
    const printed = execFileSync("openssl", ["cms", "-cmsout", "-print", "-inform", "DER", "-in", files.cmsT], {
      encoding: "utf8",
    });
    expect(printed).toContain("id-smime-aa-timeStampToken");
    expect(printed).toContain("id-smime-aa-signingCertificateV2");
    expect(printed).not.toContain("signingTime");

    expect(signatureValue).not.toBeNull();
    const digestHex = execFileSync("openssl", ["dgst", "-sha256", "-hex"], { input: signatureValue! })
      .toString()
      .trim()
      .split(/\s+/)
      .pop()!;
    const ts = openssl([
      "ts",
      "-verify",
      "-token_in",
      "-in",
      files.token,
      "-digest",
      digestHex,
      "-CAfile",
      join(dir, "tsa-ca.pem"),
    ]);
    expect(ts.out).toContain("Verification: OK");
    // A different imprint is refused.
    const wrong = openssl([
      "ts",
      "-verify",
      "-token_in",
      "-in",
      files.token,
      "-digest",
      "00".repeat(32),
      "-CAfile",
      join(dir, "tsa-ca.pem"),
    ]);
    expect(wrong.ok).toBe(false);
  });
});
