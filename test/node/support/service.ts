import { spawn, execFile, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { formatDevVar, parseDevVars } from "../../../scripts/lib/dev-vars.mjs";

const run = promisify(execFile);
const ROOT = new URL("../../../", import.meta.url).pathname;

export interface RunningService {
  baseUrl: string;
  apiKey: string;
  vars: Record<string, string>;
  pid: number | undefined;
  /** The local D1/R2 state of this service (`wrangler ... --persist-to`). */
  persistDir: string;
  /** wrangler dev's DevTools port (/json lists the worker's inspector WebSocket). */
  inspectorPort: number;
  /** What wrangler dev printed so far (failure messages, and the worker's access-log lines). */
  log(): string;
  stop(): Promise<void>;
}

/** The development API key and CA that `npm test` wrote into .dev.vars / .dev-ca.pem. */
export function devSecrets(): { vars: Record<string, string>; apiKey: string; caPem: string } {
  const text = readFileSync(join(ROOT, ".dev.vars"), "utf8");
  const apiKey = /^# API key: (sgn_\w+)/m.exec(text)?.[1];
  if (!apiKey) throw new Error(".dev.vars has no '# API key:' line; run npm test (it creates it)");
  return { vars: parseDevVars(text), apiKey, caPem: readFileSync(join(ROOT, ".dev-ca.pem"), "utf8") };
}

/** A TCP port free on loopback right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/**
 * Starts the service as users run it: `wrangler dev` on loopback with its own
 * local D1/R2 state (migrations applied) and the given extra variables.
 */
export async function startService(extraVars: Record<string, string> = {}): Promise<RunningService> {
  const { vars: devVars, apiKey } = devSecrets();
  const vars = { ...devVars, ...extraVars };
  const dir = mkdtempSync(join(tmpdir(), "signet-svc-"));
  const envFile = join(dir, "vars.env");
  writeFileSync(
    envFile,
    Object.entries(vars)
      .map(([k, v]) => formatDevVar(k, v))
      .join("\n") + "\n",
  );
  const persist = join(dir, "state");
  const wrangler = join(ROOT, "node_modules/.bin/wrangler");
  await run(wrangler, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persist], {
    cwd: ROOT,
    env: { ...process.env, CI: "1", WRANGLER_SEND_METRICS: "false" },
  });
  const port = await freePort();
  const inspectorPort = await freePort();
  const child: ChildProcess = spawn(
    wrangler,
    [
      "dev",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--env-file",
      envFile,
      "--persist-to",
      persist,
      "--inspector-port",
      String(inspectorPort),
      "--show-interactive-dev-session=false",
    ],
    {
      cwd: ROOT,
      env: { ...process.env, CI: "1", WRANGLER_SEND_METRICS: "false" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  let log = "";
  child.stdout?.on("data", (d) => (log += d));
  child.stderr?.on("data", (d) => (log += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited early:\n${log}`);
    try {
      const res = await fetch(`${baseUrl}/healthz`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`wrangler dev did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    baseUrl,
    apiKey,
    vars,
    pid: child.pid,
    persistDir: persist,
    inspectorPort,
    log: () => log,
    async stop() {
      if (child.exitCode === null && child.pid) {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          /* already gone */
        }
        await new Promise((r) => setTimeout(r, 300));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
