/**
 * `npm run kms:csr`: a certificate request signed by the key in (the loopback) KMS, checked by
 * openssl: its self-signature verifies and it carries the KMS key's public key.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, inject, it } from "vitest";
import { kmsVars } from "../support/kms-vars";
import { tool } from "./support/validators";

const run = promisify(execFile);
const ROOT = new URL("../../", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "signet-kms-csr-"));

describe("npm run kms:csr", () => {
  const kms = inject("kms");
  for (const [name, key] of [
    ["ECDSA P-256", kms.keys.p256],
    ["ECDSA P-384", kms.keys.p384],
    ["RSA 2048", kms.keys.rsa],
  ] as const) {
    it(`${name}: openssl verifies the request's signature, made in KMS, and finds the KMS public key in it`, async () => {
      const { stdout } = await run(
        "npx",
        ["tsx", "scripts/kms-csr.ts", "--subject", "CN=Acme Document Signing,O=Acme\\, Ltd,C=DE,E=sign@acme.example"],
        {
          cwd: ROOT,
          env: { ...process.env, ...kmsVars(kms, key) },
        },
      );
      const csr = join(work, `${key.keySpec}.csr`);
      writeFileSync(csr, stdout);
      const verified = await tool("openssl", ["req", "-in", csr, "-verify", "-noout", "-subject"]);
      expect(verified.out).toMatch(/verify OK/i);
      expect(verified.out).toMatch(
        /CN ?= ?Acme Document Signing, O ?= ?"?Acme, Ltd"?, C ?= ?DE, emailAddress ?= ?sign@acme.example/,
      );
      const pub = await tool("openssl", ["req", "-in", csr, "-pubkey", "-noout"]);
      const der = Buffer.from(pub.out.replace(/-----[^-]+-----|\s/g, ""), "base64");
      const certPub = await tool("sh", [
        "-c",
        `printf '%s' "$0" | openssl x509 -pubkey -noout`,
        key.chainPem.split("-----END CERTIFICATE-----")[0] + "-----END CERTIFICATE-----\n",
      ]);
      expect(der.toString("base64")).toBe(certPub.out.replace(/-----[^-]+-----|\s/g, ""));
    }, 60_000);
  }
});
