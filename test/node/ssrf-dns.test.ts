import { execFile, spawn, type ChildProcess } from "node:child_process";
import { lookup } from "node:dns/promises";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDevVar } from "../../scripts/lib/dev-vars.mjs";
import dns from "node:dns";
import { syncBuiltinESMExports } from "node:module";
import { publicOnlyOutbound } from "../../scripts/dev-server";
import { devSecrets, freePort } from "./support/service";

/**
 * SSRF beyond literals: names that *resolve* to loopback or private addresses must not reach local
 * services when Signet runs under `npm start` (scripts/dev-server.ts: wrangler's worker whose
 * outbound fetches are resolved, vetted and pinned in the launcher). The name checks of
 * src/input/address.ts cannot see these (they are ordinary public-looking names); only the
 * outbound path, after DNS, can.
 *
 * Names: the ones this machine's resolver maps to loopback (/etc/hosts: often single-label, which
 * the name check already refuses), plus public-looking names whose DNS answers are loopback,
 * IPv4-mapped loopback and private addresses. Those answers come from a preload that replaces the
 * launcher process's `dns.lookup` (as a hostile or split-horizon DNS server would answer); the
 * launcher itself runs unchanged. A raw TCP listener on 127.0.0.1 stands in for a local service and
 * records every connection, even a TLS handshake that would fail: nothing may arrive, and the API
 * answers 502 fetch_failed (or 422 url_forbidden).
 */

const ROOT = new URL("../../", import.meta.url).pathname;
const run = promisify(execFile);

// Names the local resolver may map to loopback (/etc/hosts entries, the machine's own name).
const CANDIDATES = [
  hostname(),
  "vm",
  "runsc",
  "localhost.localdomain",
  "ip6-localhost",
  "ip6-loopback",
  "localtest.me",
  "127.0.0.1.nip.io",
];
// Public-looking names and the hostile answers the preloaded resolver gives for them.
const HOSTILE_DNS: Record<string, string> = {
  "loopback.attacker.example": "127.0.0.1",
  "mapped.attacker.example": "::ffff:127.0.0.1",
  "loopback6.attacker.example": "::1",
  "intranet.attacker.example": "10.0.0.1",
  "metadata.attacker.example": "169.254.169.254",
};
const DNS_PRELOAD = `
import dns from "node:dns";
import { syncBuiltinESMExports } from "node:module";
const answers = ${JSON.stringify(HOSTILE_DNS)};
const family = (a) => (a.includes(":") ? 6 : 4);
const realPromise = dns.promises.lookup.bind(dns.promises);
dns.promises.lookup = async (host, opts) => {
  const a = answers[String(host).toLowerCase()];
  if (!a) return realPromise(host, opts);
  const rec = { address: a, family: family(a) };
  return opts && typeof opts === "object" && opts.all ? [rec] : rec;
};
const realLookup = dns.lookup;
dns.lookup = (host, opts, cb) => {
  const a = answers[String(host).toLowerCase()];
  if (typeof opts === "function") { cb = opts; opts = {}; }
  if (!a) return realLookup(host, opts, cb);
  const rec = { address: a, family: family(a) };
  process.nextTick(() => (opts && opts.all ? cb(null, [rec]) : cb(null, rec.address, rec.family)));
};
syncBuiltinESMExports();
`;

async function loopbackNames(): Promise<string[]> {
  const out: string[] = [];
  for (const name of new Set(CANDIDATES)) {
    try {
      const addrs = await lookup(name, { all: true });
      if (addrs.length && addrs.every((a) => a.address.startsWith("127.") || a.address === "::1")) out.push(name);
    } catch {
      /* not resolvable here */
    }
  }
  return out;
}

let names: string[] = [];
let listener: Server;
let listenerPort = 0;
const connections: string[] = [];
let child: ChildProcess | undefined;
let baseUrl = "";
let dir = "";
let log = "";

beforeAll(async () => {
  names = await loopbackNames();
  listener = createServer((socket) => {
    connections.push(`${socket.remoteAddress}:${socket.remotePort}`);
    socket.destroy();
  });
  await new Promise<void>((r) => listener.listen(0, "127.0.0.1", r));
  listenerPort = (listener.address() as { port: number }).port;

  // The service as `npm start` runs it: production-like variables (no ALLOW_PRIVATE_URLS).
  const { vars } = devSecrets();
  delete vars.ALLOW_PRIVATE_URLS;
  dir = mkdtempSync(join(tmpdir(), "signet-ssrf-"));
  const envFile = join(dir, "vars.env");
  writeFileSync(
    envFile,
    Object.entries(vars)
      .map(([k, v]) => formatDevVar(k, v))
      .join("\n") + "\n",
  );
  const persist = join(dir, "state");
  const env: NodeJS.ProcessEnv = { ...process.env, CI: "1", WRANGLER_SEND_METRICS: "false" };
  await run(
    join(ROOT, "node_modules/.bin/wrangler"),
    ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persist],
    { cwd: ROOT, env },
  );
  const preload = join(dir, "hostile-dns.mjs");
  writeFileSync(preload, DNS_PRELOAD);
  const port = await freePort();
  const tsx = join(ROOT, "node_modules/.bin/tsx");
  child = spawn(
    tsx,
    [
      join(ROOT, "scripts/dev-server.ts"),
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--env-file",
      envFile,
      "--persist-to",
      persist,
      "--no-watch",
    ],
    {
      cwd: ROOT,
      env: { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ""} --import ${preload}`.trim() },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  child.stdout?.on("data", (d) => (log += d));
  child.stderr?.on("data", (d) => (log += d));
  baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 100_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`dev-server exited early:\n${log}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(5000) })).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`dev-server did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}, 150_000);

afterAll(async () => {
  if (child?.pid && child.exitCode === null) {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      /* gone */
    }
  }
  await new Promise<void>((r) => listener?.close(() => r()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("names that resolve to loopback cannot reach local services (npm start)", () => {
  it("this machine has at least one such name to try", () => {
    expect(names.length, `none of ${CANDIDATES.join(", ")} resolves to loopback here`).toBeGreaterThan(0);
  });

  it("the launcher runs with a public-only outbound network", () => {
    expect(log).toMatch(/outbound network: public only/);
  });

  for (const scheme of ["https", "http"] as const) {
    it(`/v1/verify with ${scheme}://<name>:<port>/x.pdf answers 502 fetch_failed or 422 url_forbidden, and nothing connects`, async () => {
      for (const name of [...names, ...Object.keys(HOSTILE_DNS)]) {
        const before = connections.length;
        const res = await fetch(`${baseUrl}/v1/verify`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ document: { url: `${scheme}://${name}:${listenerPort}/x.pdf` } }),
        });
        const body = (await res.json()) as { code: string; detail: string };
        expect([502, 422], `${name}: ${res.status} ${JSON.stringify(body)}`).toContain(res.status);
        expect(["fetch_failed", "url_forbidden"]).toContain(body.code);
        // http: is refused by scheme without ALLOW_PRIVATE_URLS; an https: public-looking name
        // passes the name check and must be stopped by the outbound network.
        if (scheme === "https" && name in HOSTILE_DNS)
          expect(body.code, `${name}: ${body.detail}`).toBe("fetch_failed");
        expect(connections.length, `${name}: the local listener saw a connection`).toBe(before);
      }
    });
  }

  it("public-looking names the resolver does not know fail as fetch_failed (nothing is reachable offline)", async () => {
    const res = await fetch(`${baseUrl}/v1/verify`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ document: { url: `https://no-such-host.attacker.example:${listenerPort}/x.pdf` } }),
    });
    expect(res.status).toBe(502);
    expect(connections).toEqual([]);
  });

  it("the service still answers afterwards", async () => {
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
  });
});

describe("the launcher's outbound handler (in process)", () => {
  const realLookup = dns.promises.lookup;
  let answers: string[] = [];
  beforeAll(() => {
    // Each lookup of *.attacker.example takes the next scripted answer (a rebinding DNS server).
    (dns.promises as { lookup: unknown }).lookup = async (host: string, opts?: { all?: boolean }) => {
      if (!String(host).endsWith(".attacker.example")) return realLookup(host, opts as never);
      const a = answers.length > 1 ? answers.shift()! : answers[0]!;
      const rec = { address: a, family: a.includes(":") ? 6 : 4 };
      return opts?.all ? [rec] : rec;
    };
    syncBuiltinESMExports();
  });
  afterAll(() => {
    (dns.promises as { lookup: unknown }).lookup = realLookup;
    syncBuiltinESMExports();
  });

  const ask = (handler: ReturnType<typeof publicOnlyOutbound>, name: string) =>
    handler(new Request(`http://${name}:${listenerPort}/x.pdf`));

  it("control: a trusted host (the operator's TSA) does reach the local listener, so the listener sees connections", async () => {
    answers = ["127.0.0.1"];
    const before = connections.length;
    const res = await ask(
      publicOnlyOutbound(new Set([`tsa.attacker.example:${listenerPort}`])),
      "tsa.attacker.example",
    );
    expect(res.headers.get("X-Signet-Outbound")).toBe("refused"); // the listener hangs up: a failed connection
    expect(connections.length).toBe(before + 1);
  });

  for (const address of ["127.0.0.1", "::ffff:127.0.0.1", "10.0.0.1", "169.254.169.254", "::1", "0.0.0.0"]) {
    it(`refuses a name that resolves to ${address} without connecting`, async () => {
      answers = [address];
      const before = connections.length;
      const res = await ask(publicOnlyOutbound(), "evil.attacker.example");
      expect(res.status).toBe(502);
      expect(await res.text()).toMatch(/non-public/);
      expect(connections.length).toBe(before);
    });
  }

  it("connects to the address it vetted, not to a second (rebound) answer", async () => {
    // First answer public (TEST-NET is non-public too, so use a real public address), then loopback.
    answers = ["1.1.1.1", "127.0.0.1"];
    const before = connections.length;
    const res = await ask(publicOnlyOutbound(new Set(), 1000), "rebind.attacker.example");
    // Offline, 1.1.1.1 is unreachable: a failed connection, but never one to loopback.
    expect(res.status).toBe(502);
    expect(connections.length).toBe(before);
  });
});
