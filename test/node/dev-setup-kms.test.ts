import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, inject, it } from "vitest";
import { formatDevVar, parseDevVars } from "../../scripts/lib/dev-vars.mjs";

const run = promisify(execFile);
const SETUP = new URL("../../scripts/dev-setup.mjs", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "signet-devsetup-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("npm start keeps a .dev.vars whose signing key is in a KMS", () => {
  it("does not replace it with a development key: the KMS settings and SIGNING_CERT stay, an API key is added once", async () => {
    const kms = inject("kms");
    const file = join(dir, ".dev.vars");
    const original = [
      "# My KMS settings",
      "SIGNING_KMS=aws",
      `AWS_KMS_KEY_ID=${kms.keys.p256.arn}`,
      "AWS_REGION=eu-central-1",
      formatDevVar("SIGNING_CERT", kms.keys.p256.chainPem),
      "",
    ].join("\n");
    writeFileSync(file, original);
    await run(process.execPath, [SETUP, "--test", "--root", dir]);
    const after = readFileSync(file, "utf8");
    expect(after.startsWith(original)).toBe(true);
    const vars = parseDevVars(after);
    expect(vars.SIGNING_KEY).toBeUndefined();
    expect(vars.SIGNING_CERT).toBe(kms.keys.p256.chainPem);
    expect(vars.API_KEY_HASHES).toMatch(/^[0-9a-f]{64}$/);
    expect(after).toMatch(/^# API key: sgn_\w{43}$/m);
    // The root of SIGNING_CERT is written for pdfsig/openssl, as for a development key.
    expect(readFileSync(join(dir, ".dev-ca.pem"), "utf8")).toBe(kms.caPem.trim() + "\n");

    await run(process.execPath, [SETUP, "--test", "--root", dir]);
    expect(readFileSync(file, "utf8")).toBe(after);
  });
});
