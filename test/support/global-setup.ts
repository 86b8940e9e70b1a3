import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { startUrlFixtureServer } from "./url-fixtures";
import { startTsaServer } from "./tsa-server";
import { startRevocationPki, type RevocationPkiInfo, type SignerName } from "./revocation-pki";
import { startKmsFixture, type KmsFixtureInfo } from "./kms-fixture";

/**
 * Starts the loopback servers the tests talk to (workerd through real fetch, Node tests
 * directly): a URL fixture server (documents, redirects, slow and huge bodies, and the
 * revocation PKI's CRLs), an RFC 3161 time-stamp authority, the revocation PKI with its
 * `openssl ocsp` responder, and a small AWS KMS (kms-server.ts: real keys, every request's SigV4
 * signature checked with AWS's own signer) with certificates for its keys.
 */
export default async function setup(project: TestProject) {
  const crlDir = mkdtempSync(join(tmpdir(), "signet-crl-"));
  const urls = await startUrlFixtureServer({ crlDir });
  const pki = await startRevocationPki({ fixtureBaseUrl: urls.baseUrl, crlDir });
  urls.hooks.revoke = (name) => pki.revoke(name as SignerName);
  const tsa = await startTsaServer({ ltvSigner: pki.tsa });
  const kms = await startKmsFixture();
  const { revoke: _revoke, close: _close, ...info } = pki;
  project.provide("fixtureBaseUrl", urls.baseUrl);
  project.provide("tsaUrl", tsa.url);
  project.provide("revocationPki", info);
  project.provide("kms", kms.info);
  return async () => {
    await urls.close();
    await tsa.close();
    await pki.close();
    await kms.close();
    rmSync(crlDir, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    fixtureBaseUrl: string;
    tsaUrl: string;
    revocationPki: RevocationPkiInfo;
    kms: KmsFixtureInfo;
  }
}
