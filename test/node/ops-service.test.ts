import { execFile } from "node:child_process";
import { connect, type Socket } from "node:net";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits";
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
  const { stdout } = await run(process.execPath, [`scripts/${script}.mjs`, ...args, "--persist-to", svc.persistDir], {
    cwd: ROOT,
  });
  return stdout;
}

const signEmpty = (key: string) =>
  fetch(`${svc.baseUrl}/v1/sign`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: "{}",
  });

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
    expect(
      (
        await fetch(`${svc.baseUrl}/v1/verify/hash/${"ef".repeat(32)}`, {
          headers: { Authorization: `Bearer ${svc.apiKey}` },
        })
      ).status,
    ).toBe(404);
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
      fetch(`${svc.baseUrl}/v1/verify/key`, {
        headers: { Authorization: `Bearer ${key}`, "CF-Connecting-IP": "192.0.2.200" },
      });
    expect((await call()).status).not.toBe(401);

    expect(await keyScript("key-revoke", id!)).toContain(`Revoked ${id}`);
    expect((await call()).status).toBe(401);
    expect(await keyScript("key-list")).toMatch(new RegExp(`${id}.*revoked`));
    await expect(keyScript("key-revoke", id!)).rejects.toThrow(/no active key/);
  }, 600_000); // six wrangler runs, ~10-50 s each on a busy machine
});

describe("clients that go away or stall mid-upload", () => {
  /**
   * Opens a raw connection and sends the head of a 5 MB sign request and 200 KB of its body, from
   * an address of its own (the rate-limit tests above may have blocked the default one).
   */
  function startUpload(address: string, path = "/v1/sign", type = "application/json"): Promise<Socket> {
    const { port } = new URL(svc.baseUrl);
    return new Promise((resolve, reject) => {
      const sock = connect(Number(port), "127.0.0.1", () => {
        const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${svc.apiKey}\r\nCF-Connecting-IP: ${address}\r\nContent-Type: ${type}\r\nContent-Length: 5000000\r\n\r\n`;
        const body =
          type === "application/json"
            ? `{"document":{"base64":"${"A".repeat(200_000)}`
            : type.startsWith("multipart/")
              ? `--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n${"%".repeat(200_000)}`
              : type === "application/pdf"
                ? `%PDF-1.7\n${"%".repeat(200_000)}`
                : `# Title\n\n${"Some text. ".repeat(20_000)}`;
        sock.write(head + body, () => resolve(sock));
      });
      sock.on("error", reject);
    });
  }

  /** The access-log lines of `route` printed after `from` characters of wrangler's output. */
  const logLines = (from: number, route = "/v1/sign") =>
    svc
      .log()
      .slice(from)
      .split("\n")
      .filter((l) => l.startsWith('{"time"') && l.includes(`"route":"${route}"`))
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it("a client that disconnects mid-upload (JSON or multipart to sign, a raw Markdown body to convert, a raw PDF to verify) is logged as a warning with its own code, not as a 500 with a stack", async () => {
    for (const [address, path, type, route] of [
      ["192.0.2.211", "/v1/sign", "application/json", "/v1/sign"],
      ["192.0.2.213", "/v1/convert?from=md&to=pdf", "text/markdown", "/v1/convert"],
      ["192.0.2.214", "/v1/sign", "multipart/form-data; boundary=x", "/v1/sign"],
      ["192.0.2.215", "/v1/verify", "application/pdf", "/v1/verify"],
    ] as const) {
      const from = svc.log().length;
      const sock = await startUpload(address, path, type);
      await new Promise((r) => setTimeout(r, 300));
      sock.destroy();
      let lines: Record<string, unknown>[] = [];
      for (let i = 0; i < 100 && !lines.length; i++) {
        await new Promise((r) => setTimeout(r, 100));
        lines = logLines(from, route);
      }
      expect(lines, route).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: "warn", status: 499, code: "client_aborted" });
      expect(lines[0]).not.toHaveProperty("stack");
      expect(svc.log().slice(from)).not.toMatch(/internal_error/);
    }
    expect((await fetch(`${svc.baseUrl}/healthz`)).status).toBe(200);
  });

  it(
    "a client that stops sending (JSON or multipart to sign, a raw PDF to verify) gets 408 request_timeout after LIMITS.requestBodyIdleTimeoutMs, and the request ends",
    async () => {
      const uploads = [
        ["192.0.2.212", "/v1/sign", "application/json"],
        ["192.0.2.216", "/v1/sign", "multipart/form-data; boundary=x"],
        ["192.0.2.217", "/v1/verify", "application/pdf"],
      ] as const;
      const from = svc.log().length;
      // The three stall side by side: one idle window for all.
      await Promise.all(
        uploads.map(async ([address, path, type]) => {
          const sock = await startUpload(address, path, type);
          const response = await new Promise<string>((resolve) => {
            let text = "";
            sock.on("data", (d) => {
              text += d;
              if (text.includes("}")) resolve(text);
            });
            sock.on("close", () => resolve(text));
          });
          sock.destroy();
          expect(response, type).toMatch(/^HTTP\/1\.1 408/);
          expect(response, type).toMatch(/"code":"request_timeout"/);
        }),
      );
      expect(logLines(from, "/v1/sign")).toMatchObject([
        { status: 408, code: "request_timeout" },
        { status: 408, code: "request_timeout" },
      ]);
      expect(logLines(from, "/v1/verify")).toMatchObject([{ level: "warn", status: 408, code: "request_timeout" }]);
    },
    LIMITS.requestBodyIdleTimeoutMs + 60_000,
  );
});
