/**
 * The loopback KMS with its keys and their certificates, as the tests' global setup provides it:
 * a test CA made by openssl, and for each KMS key a certificate issued by that CA for the key's
 * public key (`openssl x509 -req -force_pubkey`: the CSR is made with a throwaway key, the
 * certificate carries the KMS key's public key, as a CA does with a CSR signed in KMS).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startKmsServer, type KmsKeySpec } from "./kms-server";
import type { KmsFixtureInfo, KmsFixtureKey } from "./kms-vars";

export type { KmsFixtureInfo, KmsFixtureKey } from "./kms-vars";

const run = promisify(execFile);

export async function startKmsFixture(): Promise<{ info: KmsFixtureInfo; close(): Promise<void> }> {
  const server = await startKmsServer();
  const dir = mkdtempSync(join(tmpdir(), "signet-kms-pki-"));
  const at = (f: string) => join(dir, f);
  try {
    await run("openssl", [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:P-256",
      "-nodes",
      "-keyout",
      at("ca.key"),
      "-out",
      at("ca.pem"),
      "-days",
      "3650",
      "-subj",
      "/CN=Signet Test KMS Root CA/O=Signet tests",
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
    ]);
    writeFileSync(
      at("ext.cnf"),
      "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,nonRepudiation\nextendedKeyUsage=1.3.6.1.5.5.7.3.36,emailProtection\n",
    );
    await run("openssl", [
      "req",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:P-256",
      "-nodes",
      "-keyout",
      at("throwaway.key"),
      "-out",
      at("throwaway.csr"),
      "-subj",
      "/CN=throwaway",
    ]);
    const caPem = readFileSync(at("ca.pem"), "utf8");

    const issue = async (spec: KmsKeySpec, name: string): Promise<KmsFixtureKey> => {
      const key = server.createKey(spec);
      writeFileSync(at(`${name}.pub.pem`), key.publicKeyPem);
      await run("openssl", [
        "x509",
        "-req",
        "-in",
        at("throwaway.csr"),
        "-force_pubkey",
        at(`${name}.pub.pem`),
        "-CA",
        at("ca.pem"),
        "-CAkey",
        at("ca.key"),
        "-set_serial",
        String(1000 + Math.floor(Math.random() * 1e6)),
        "-days",
        "825",
        "-extfile",
        at("ext.cnf"),
        "-subj",
        `/CN=Signet KMS Signer (${name})/O=Signet tests/emailAddress=kms-${name}@example.com`,
        "-out",
        at(`${name}.pem`),
      ]);
      return {
        keyId: key.keyId,
        arn: key.arn,
        keySpec: spec,
        chainPem: readFileSync(at(`${name}.pem`), "utf8") + caPem,
      };
    };
    const info: KmsFixtureInfo = {
      url: server.url,
      region: server.region,
      accessKeyId: server.credentials.accessKeyId,
      secretAccessKey: server.credentials.secretAccessKey,
      caPem,
      keys: {
        rsa: await issue("RSA_2048", "rsa"),
        p256: await issue("ECC_NIST_P256", "p256"),
        p384: await issue("ECC_NIST_P384", "p384"),
        flaky: await issue("ECC_NIST_P256", "flaky"),
        other: await issue("ECC_NIST_P256", "other"),
      },
    };
    return { info, close: () => server.close() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
