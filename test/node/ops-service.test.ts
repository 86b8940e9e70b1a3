import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type RunningService } from "./support/service";

/**
 * Operations against `wrangler dev`, as users run it: the rate-limit bindings of wrangler.toml
 * (Miniflare emulates them) and API keys managed in the local D1 with the npm run key:* scripts.
 */

const run = promisify(execFile);
const ROOT = new URL("../../", import.meta.url).pathname;
let svc: RunningService;

beforeAll(async () => {
  svc = await startService();
}, 300_000); // wrangler dev starts slowly on a busy machine
afterAll(async () => {
  await svc?.stop();
});

/** Calls until the first 429, at most 2 x limit + 1 times (one rollover of the binding's clock-aligned window). */
async function untilLimited(call: () => Promise<Response>, limit: number) {
  const before: number[] = [];
  for (let i = 0; i < 2 * limit + 1; i++) {
    const res = await call();
    if (res.status === 429) return { before, limited: res };
    await res.arrayBuffer();
    before.push(res.status);
  }
  return { before, limited: null };
}

async function keyScript(script: string, ...args: string[]) {
  const { stdout } = await run(process.execPath, [`scripts/${script}.mjs`, ...args, "--persist-to", svc.persistDir], { cwd: ROOT });
  return stdout;
}

const signEmpty = (key: string) =>
  fetch(`${svc.baseUrl}/v1/sign`, { method: "POST", headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" }, body: "{}" });

describe("rate limits in wrangler dev", () => {
  it("anonymous evidence lookups: 429 rate_limited with Retry-After after the binding's 30 a minute", async () => {
    const { before, limited } = await untilLimited(() => fetch(`${svc.baseUrl}/v1/verify/hash/${"ef".repeat(32)}`), 30);
    expect(before.length).toBeGreaterThanOrEqual(30);
    expect(before.every((s) => s === 404)).toBe(true);
    expect(limited).not.toBeNull();
    expect(limited!.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await limited!.json()) as { code: string }).code).toBe("rate_limited");
    // A caller with a key is counted against its key, not its address.
    expect((await fetch(`${svc.baseUrl}/v1/verify/hash/${"ef".repeat(32)}`, { headers: { Authorization: `Bearer ${svc.apiKey}` } })).status).toBe(404);
  });

  it("failed authentications: after 20 a minute from one address, even a valid key gets 429", async () => {
    const wrong = "sgn_" + "Z".repeat(43);
    const { before, limited } = await untilLimited(() => signEmpty(wrong), 20);
    expect(before.length).toBeGreaterThanOrEqual(20);
    expect(before.every((s) => s === 401)).toBe(true);
    expect(limited).not.toBeNull();
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThan(0);
    const valid = await signEmpty(svc.apiKey);
    expect(valid.status).toBe(429);
  });
});

describe("npm run key:* against the local D1", () => {
  it("creates a key the service accepts, lists it without the key, revokes it at once", async () => {
    const created = await keyScript("key-create", "--name", "Acme backend");
    const key = /^\s*(sgn_[0-9A-Za-z]{43})$/m.exec(created)?.[1];
    const id = /Created (key_[0-9a-f]{16})/.exec(created)?.[1];
    expect(key).toBeTruthy();
    expect(id).toBeTruthy();

    const listed = await keyScript("key-list");
    expect(listed).toMatch(new RegExp(`${id}\\s+Acme backend\\s+[0-9a-f]{12}\\.\\.\\.\\s+\\S+\\s+active`));
    expect(listed).not.toContain(key!);

    // The failed-authentication test above may have blocked this address; a fresh one is used here.
    const call = () =>
      fetch(`${svc.baseUrl}/v1/verify/key`, { headers: { Authorization: `Bearer ${key}`, "CF-Connecting-IP": "192.0.2.200" } });
    expect((await call()).status).not.toBe(401);

    expect(await keyScript("key-revoke", id!)).toContain(`Revoked ${id}`);
    expect((await call()).status).toBe(401);
    expect(await keyScript("key-list")).toMatch(new RegExp(`${id}.*revoked`));
    await expect(keyScript("key-revoke", id!)).rejects.toThrow(/no active key/);
  }, 600_000); // six wrangler runs, ~10-50 s each on a busy machine
});
