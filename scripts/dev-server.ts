/**
 * `wrangler dev` whose outbound fetches reach public addresses only (`npm start` runs this).
 *
 * Plain `wrangler dev` sends the worker's fetch() through Miniflare's "internet" service, a workerd
 * network that allows public *and* private addresses, and wrangler.toml has no setting for it
 * (wrangler 4.155 also refuses a workerd `network` designator as `outboundService`). Signet's URL
 * rules refuse private literals and `localhost` names, but a name that *resolves* to 127.0.0.1 or
 * 10.x (an /etc/hosts entry, split-horizon DNS, a rebinding domain) can only be stopped after
 * resolution. So this launcher starts the same worker through wrangler's API (`unstable_startWorker`,
 * same wrangler.toml, local D1/R2) with the worker's global outbound set to a handler here that
 * resolves the name, refuses it unless an address is public (the ranges of src/input/address.ts),
 * and connects to that vetted address only (no second lookup a rebinding DNS could answer
 * differently). Redirects are not followed here: Signet follows them by hand, each hop comes back
 * through this handler.
 *
 * - ALLOW_PRIVATE_URLS=true (tests only) keeps wrangler's own outbound (public and private).
 * - TSA_URL is operator configuration: its host:port may resolve to any address.
 *
 * Usage: tsx scripts/dev-server.ts [--ip 127.0.0.1] [--port 8787] [--env-file vars.env]
 *        [--persist-to dir] [--inspector-port N] [--no-watch]
 * Variables come from --env-file, else .dev.vars (as wrangler reads them).
 */
import { lookup } from "node:dns/promises";
import { existsSync, readFileSync } from "node:fs";
import { isIP, type LookupFunction } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Agent, fetch as undiciFetch } from "undici";
import { unstable_startWorker } from "wrangler";
import { classifyHost } from "../src/input/address";
import { parseDevVars } from "./lib/dev-vars.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i >= 0 && args[i + 1] !== undefined) return args[i + 1];
  const eq = args.find((a) => a.startsWith(`${name}=`));
  return eq ? eq.slice(name.length + 1) : undefined;
}

interface Address {
  address: string;
  family: number;
}

async function resolveHost(host: string): Promise<Address[]> {
  const bare = host.replace(/^\[|\]$/g, "");
  return isIP(bare) ? [{ address: bare, family: isIP(bare) }] : lookup(bare, { all: true });
}

/**
 * The worker's outbound fetch: public addresses only, connection pinned to the vetted address.
 * `trustedHosts` (host:port, e.g. the operator's TSA) may resolve anywhere.
 */
export function publicOnlyOutbound(trustedHosts: ReadonlySet<string> = new Set(), connectTimeoutMs = 10_000) {
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    let addresses: Address[];
    try {
      addresses = await resolveHost(url.hostname);
    } catch {
      return refusal(`${url.hostname} does not resolve`);
    }
    const trusted = trustedHosts.has(hostPort(url));
    const vetted = addresses.find((a) => trusted || classifyHost(a.address).publicAddress);
    if (!vetted) return refusal(`${url.hostname} resolves only to non-public addresses`);
    const dispatcher = new Agent({
      connect: {
        timeout: connectTimeoutMs,
        // Connect to the address checked above, whatever a second lookup would say.
        lookup: ((_host, opts, cb) =>
          opts?.all ? cb(null, [vetted]) : cb(null, vetted.address, vetted.family)) as LookupFunction,
      },
    });
    try {
      const body =
        request.method === "GET" || request.method === "HEAD" ? undefined : new Uint8Array(await request.arrayBuffer());
      const res = await undiciFetch(url, {
        method: request.method,
        headers: request.headers as never,
        body,
        redirect: "manual",
        dispatcher,
      });
      return new Response(res.body as never, {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers as never,
      });
    } catch (err) {
      return refusal(`connection to ${url.hostname} failed: ${(err as Error).message}`);
    }
  };
}

/** What the worker sees for a refused or failed outbound request (Signet reports fetch_failed). */
function refusal(reason: string): Response {
  return new Response(`Signet dev outbound: ${reason}\n`, { status: 502, headers: { "X-Signet-Outbound": "refused" } });
}

function hostPort(url: URL): string {
  return `${url.hostname.toLowerCase()}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
}

/** The operator's time-stamp authority may live anywhere (it is configuration, not caller input). */
function trustedHostsOf(vars: Record<string, string>): Set<string> {
  const out = new Set<string>();
  try {
    if (vars.TSA_URL) out.add(hostPort(new URL(vars.TSA_URL)));
  } catch {
    /* an invalid TSA_URL is reported by the service */
  }
  return out;
}

async function main() {
  const args = process.argv.slice(2);
  const envFile = option(args, "--env-file");
  const varsPath = envFile ? resolve(envFile) : join(root, ".dev.vars");
  const vars = existsSync(varsPath) ? parseDevVars(readFileSync(varsPath, "utf8")) : {};
  const allowPrivate = String(vars.ALLOW_PRIVATE_URLS ?? "").toLowerCase() === "true";
  const port = option(args, "--port");
  const inspectorPort = option(args, "--inspector-port");
  const persist = option(args, "--persist-to");

  const worker = await unstable_startWorker({
    config: join(root, "wrangler.toml"),
    ...(envFile ? { envFiles: [varsPath] } : {}),
    dev: {
      server: { hostname: option(args, "--ip") ?? "localhost", port: port ? Number(port) : 8787 },
      inspector: inspectorPort ? { port: Number(inspectorPort) } : false,
      ...(persist ? { persist: resolve(persist) } : {}),
      ...(allowPrivate ? {} : { outboundService: publicOnlyOutbound(trustedHostsOf(vars)) as never }),
      watch: !args.includes("--no-watch"),
    },
  });
  await worker.ready;
  console.log(
    `Signet listening on ${await worker.url} (outbound network: ${allowPrivate ? "public and private (ALLOW_PRIVATE_URLS=true)" : "public only"})`,
  );

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await worker.dispose().catch(() => {});
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
