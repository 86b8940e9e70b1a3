/**
 * `tsx bench/profile.ts [sign|verify] [file...]`: where the time of an HTTP request goes inside workerd.
 *
 * Starts `wrangler dev` (as bench/run.ts does), warms it up, then takes the worker's CPU profile over
 * wrangler's DevTools inspector while it serves BENCH_PROFILE_RUNS requests (default 30) one after
 * another. Every sample is charged to the innermost frame of our own code (src/) on its stack and to
 * the library its leaf frame belongs to (source-mapped through the bundle wrangler built), so
 * `sign-pdf.ts signPdf / pdf-lib` is pdf-lib work that signPdf called, wherever inside pdf-lib it went.
 * Printed per request: wall time seen by the client, CPU time of the worker, the rest (waiting for
 * D1/R2 and the loopback transport), and the CPU time by phase and by (our frame, library).
 * BENCH_PROFILE_OUT=dir also writes each .cpuprofile (open it in Chrome DevTools) and the bundle's source map.
 * BENCH_PROFILE_BINARY=1 sends the document as multipart/form-data (verify: the raw PDF body) and signs with
 * Accept: application/pdf.
 */
import { copyFileSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startService, type RunningService } from "../test/node/support/service";
import { Inspector, type CpuProfile } from "./cdp";
import { benchInputs, signRequestJson, signRequestMultipart } from "./inputs";
import { SourceMap } from "./source-map";

const RUNS = Number(process.env.BENCH_PROFILE_RUNS ?? 30);
const OUT = process.env.BENCH_PROFILE_OUT;
const BINARY = process.env.BENCH_PROFILE_BINARY === "1";
const ROOT = new URL("../", import.meta.url).pathname;
const args = process.argv.slice(2);
const operation = args[0] === "verify" ? "verify" : "sign";
const only = args.filter((a) => a !== "sign" && a !== "verify");

/** The library a bundled source belongs to, or our file (src/...). */
function libraryOf(source: string | null): string {
  if (!source) return "(native)";
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (nm) return nm[1]!;
  const src = /(?:^|\/)(src\/.*)$/.exec(source);
  if (src) return src[1]!;
  return source.replace(/^.*\//, "");
}

/** Phases of a request, from our innermost frame's file and function (first match wins). */
const PHASES: [RegExp, string][] = [
  [
    /^src\/http\/body\/|json-body\.ts|document-request\.ts/,
    "request body in (JSON scan and base64 decode, or multipart)",
  ],
  [/^src\/http\/streamed-json\.ts|pdf-response\.ts/, "response out (base64 encode, or the PDF as it is)"],
  [/^src\/evidence\//, "certificate page: layout and pdfme generate"],
  [/sign-pdf\.ts/, "signPdf: copy pages, new objects, write update"],
  [/^src\/cms\//, "CMS signature"],
  [/^src\/store\//, "D1 / R2 calls"],
  [/^src\/pdf\/reader\/|inspect\.ts/, "PDF reading (xref, page tree, inspection)"],
  [/^src\/pdf\/verify\//, "verification"],
  [/^src\/util\/bytes\.ts .*sha256|^src\/util\/canonical-json/, "hashing (SHA-256, canonical JSON)"],
  [/^src\/http\/|^src\/index\.ts/, "Hono, middleware, validation"],
  [/^src\/operations\//, "operation (rest)"],
];

interface Charge {
  phase: Map<string, number>;
  pair: Map<string, number>;
  busy: number;
  total: number;
}

function charge(profile: CpuProfile, map: SourceMap): Charge {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const sourceCache = new Map<number, string>();
  const lib = (id: number): string => {
    let s = sourceCache.get(id);
    if (s === undefined) {
      const f = byId.get(id)!.callFrame;
      s = f.url.endsWith("index.js")
        ? libraryOf(map.sourceAt(f.lineNumber, f.columnNumber))
        : f.functionName.startsWith("(")
          ? f.functionName
          : "(native)";
      sourceCache.set(id, s);
    }
    return s;
  };
  const out: Charge = { phase: new Map(), pair: new Map(), busy: 0, total: 0 };
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  profile.samples.forEach((leaf, i) => {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000; // the sample's time is until the next one
    out.total += dt;
    const leafLib = lib(leaf);
    if (leafLib === "(idle)") return;
    out.busy += dt;
    let ours: string | null = null;
    for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
      const l = lib(id);
      if (l.startsWith("src/")) {
        ours = `${l} ${byId.get(id)!.callFrame.functionName || "(anonymous)"}`;
        break;
      }
    }
    const phase =
      leafLib === "(garbage collector)"
        ? "garbage collection"
        : ours
          ? (PHASES.find(([re]) => re.test(ours!))?.[1] ?? "other (ours)")
          : "runtime and libraries outside a request frame";
    add(out.phase, phase, dt);
    add(out.pair, `${ours ?? "-"} / ${leafLib}`, dt);
  });
  return out;
}

function bundleMap(): SourceMap {
  const path = bundleMapPath();
  if (OUT) copyFileSync(path, join(OUT, "index.js.map"));
  return new SourceMap(JSON.parse(readFileSync(path, "utf8")));
}

function bundleMapPath(): string {
  const tmp = join(ROOT, ".wrangler/tmp");
  const dirs = readdirSync(tmp)
    .filter((d) => d.startsWith("dev-"))
    .map((d) => join(tmp, d, "index.js.map"))
    .filter((p) => {
      try {
        return statSync(p).isFile();
      } catch {
        return false;
      }
    })
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!dirs[0]) throw new Error("no bundle source map under .wrangler/tmp");
  return dirs[0];
}

let counter = 0;
async function request(svc: RunningService, bytes: Uint8Array): Promise<void> {
  const eventId = `profile-${process.pid}-${counter++}`;
  const [body, headers]: [BodyInit, Record<string, string>] =
    operation === "sign"
      ? BINARY
        ? [signRequestMultipart(bytes, eventId), { Accept: "application/pdf" }]
        : [signRequestJson(bytes, eventId), { "Content-Type": "application/json" }]
      : BINARY
        ? [bytes as Uint8Array<ArrayBuffer>, { "Content-Type": "application/pdf" }]
        : [
            JSON.stringify({ document: { base64: Buffer.from(bytes).toString("base64") } }),
            { "Content-Type": "application/json" },
          ];
  const res = await fetch(`${svc.baseUrl}/v1/${operation}`, {
    method: "POST",
    headers: { ...headers, Authorization: `Bearer ${svc.apiKey}` },
    body,
  });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
}

const inputs = (await benchInputs()).filter((i) =>
  only.length ? only.some((o) => i.name.includes(o)) : i.name !== "25mb.pdf",
);
const svc = await startService({ RATE_LIMITS: "off" });
try {
  const map = bundleMap();
  const inspector = await Inspector.connect(svc.inspectorPort);
  await inspector.send("Profiler.enable");
  await inspector.send("Profiler.setSamplingInterval", { interval: 100 });
  for (const input of inputs) {
    let bytes = input.bytes;
    if (operation === "verify") {
      // Verify what Signet signed.
      const res = await fetch(`${svc.baseUrl}/v1/sign`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${svc.apiKey}` },
        body: signRequestJson(bytes, `profile-signed-${input.name}`),
      });
      const json = (await res.json()) as { document: { base64: string } };
      bytes = new Uint8Array(Buffer.from(json.document.base64.split(",")[1]!, "base64"));
    }
    for (let i = 0; i < 5; i++) await request(svc, bytes);
    await inspector.send("Profiler.start");
    const t0 = performance.now();
    for (let i = 0; i < RUNS; i++) await request(svc, bytes);
    const wall = (performance.now() - t0) / RUNS;
    const { profile } = await inspector.send<{ profile: CpuProfile }>("Profiler.stop");
    if (OUT) writeFileSync(join(OUT, `${operation}-${input.name}.cpuprofile`), JSON.stringify(profile));
    const c = charge(profile, map);
    const per = (v: number) => `${(v / RUNS).toFixed(1)} ms`;
    console.log(
      `\n## ${operation} ${input.name}${BINARY ? " (binary)" : " (JSON)"}: ${RUNS} requests, per request: wall (client) ${wall.toFixed(1)} ms, worker CPU ${per(c.busy)}, not on the worker's CPU (D1/R2 waits, transport) ${(wall - c.busy / RUNS).toFixed(1)} ms\n`,
    );
    console.log("| phase | CPU ms per request |\n|---|---|");
    for (const [k, v] of [...c.phase].sort((a, b) => b[1] - a[1])) console.log(`| ${k} | ${per(v)} |`);
    console.log("\n| our innermost frame / leaf library | CPU ms per request |\n|---|---|");
    for (const [k, v] of [...c.pair].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`| ${k} | ${per(v)} |`);
  }
  inspector.close();
} finally {
  await svc.stop();
}
