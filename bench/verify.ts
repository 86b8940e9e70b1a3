/**
 * `tsx bench/verify.ts`: POST /v1/verify beside poppler's pdfsig, on the same files, in the same run.
 *
 * - Corpus: every file of ../shared/corpus/pdf-signed, verified once per pass (one warm-up pass, then
 *   BENCH_PASSES passes) through `wrangler dev` (a Node client, as users call it; JSON with base64, and
 *   the raw PDF as the body) and with `pdfsig`
 *   (one process per file, as users run it, checking certificates against an NSS database).
 *   Median / p95 of the per-file times.
 * - 25 MB: bench/out/25mb.pdf signed by Signet itself (certificate page on), then verified
 *   BENCH_RUNS times by both (warm), median / p95.
 * - Memory: the workerd process's peak RSS (VmHWM) in a fresh service that verifies the signed
 *   25 MB file 5 times, beside its peak after start-up and warm-up; pdfsig's peak RSS on the same file
 *   (GNU time's maximum resident set size).
 * - Engine: Signet's verifier alone in Node on the 25 MB file, for reference.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { verifyPdf } from "../src/pdf/verify/verify-pdf";
import { devSecrets, startService, type RunningService } from "../test/node/support/service";
import { nssDbTrusting } from "../test/node/support/validators";
import { benchInputs } from "./inputs";
import { mb, measure, ms, workerdPeakRss, type Timing } from "./stats";

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const PASSES = Number(process.env.BENCH_PASSES ?? 3);
const CORPUS = new URL("../../shared/corpus/pdf-signed/", import.meta.url).pathname;

const { caPem } = devSecrets();
const nssDir = await nssDbTrusting(caPem);
const tmp = mkdtempSync(join(tmpdir(), "signet-bench-verify-"));

function pdfsig(path: string): void {
  // Exit codes differ by verdict; only a crash matters here.
  const r = spawnSync("pdfsig", ["-nssdir", nssDir, path], { stdio: "ignore", timeout: 120_000 });
  if (r.error) throw r.error;
}

function pdfsigPeakRss(path: string): number {
  const r = spawnSync("/usr/bin/time", ["-f", "%M", "pdfsig", "-nssdir", nssDir, path], { encoding: "utf8" });
  const kb = Number(/(\d+)\s*$/.exec(r.stderr.trim())?.[1] ?? NaN);
  return kb * 1024;
}

async function verifyHttp(svc: RunningService, body: string): Promise<void> {
  const res = await fetch(`${svc.baseUrl}/v1/verify`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${svc.apiKey}` },
    body,
  });
  if (res.status >= 500) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
}

const body = (bytes: Uint8Array) => JSON.stringify({ document: { base64: Buffer.from(bytes).toString("base64") } });

/** The binary path: the PDF itself as the request body. */
async function verifyHttpRaw(svc: RunningService, bytes: Uint8Array): Promise<void> {
  const res = await fetch(`${svc.baseUrl}/v1/verify`, {
    method: "POST",
    headers: { "Content-Type": "application/pdf", Authorization: `Bearer ${svc.apiKey}` },
    body: bytes,
  });
  if (res.status >= 500) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
}

function percentiles(times: number[]): Timing {
  const t = [...times].sort((a, b) => a - b);
  const at = (q: number) => t[Math.min(t.length - 1, Math.ceil(q * t.length) - 1)]!;
  return { runs: t.length, median: at(0.5), p95: at(0.95) };
}

async function signedBig(svc: RunningService): Promise<Uint8Array> {
  const big = (await benchInputs()).find((i) => i.name === "25mb.pdf")!;
  const res = await fetch(`${svc.baseUrl}/v1/sign`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${svc.apiKey}` },
    body: JSON.stringify({
      document: { base64: Buffer.from(big.bytes).toString("base64") },
      signer: { name: "Ada Lovelace", email: "ada@example.com" },
      auditTrail: [{ type: "submit", timestamp: "2026-11-21T10:00:00Z" }],
    }),
  });
  if (res.status !== 200) throw new Error(`sign: HTTP ${res.status}: ${await res.text()}`);
  const json = (await res.json()) as { document: { base64: string } };
  return new Uint8Array(Buffer.from(json.document.base64.split(",")[1]!, "base64"));
}

console.log(`Signet verify benchmark, ${new Date().toISOString()}\n`);
const files = readdirSync(CORPUS)
  .filter((f) => f.endsWith(".pdf"))
  .sort();
const corpus = files.map((f) => ({
  name: f,
  path: join(CORPUS, f),
  bytes: new Uint8Array(readFileSync(join(CORPUS, f))),
}));
const corpusBodies = corpus.map((c) => body(c.bytes));

const svc = await startService({ RATE_LIMITS: "off" }); // measure the service, not its rate limits
let big: Uint8Array;
const rows: string[][] = [];
try {
  big = await signedBig(svc);
  const bigPath = join(tmp, "signed-25mb.pdf");
  writeFileSync(bigPath, big);

  // Corpus: per-file times over PASSES passes, after one warm-up pass.
  const ours: number[] = [];
  const oursRaw: number[] = [];
  const theirs: number[] = [];
  for (let pass = 0; pass <= PASSES; pass++) {
    for (let i = 0; i < corpus.length; i++) {
      let t = performance.now();
      await verifyHttp(svc, corpusBodies[i]!);
      const a = performance.now() - t;
      t = performance.now();
      await verifyHttpRaw(svc, corpus[i]!.bytes);
      const r = performance.now() - t;
      t = performance.now();
      pdfsig(corpus[i]!.path);
      const b = performance.now() - t;
      if (pass > 0) {
        ours.push(a);
        oursRaw.push(r);
        theirs.push(b);
      }
    }
  }
  const o = percentiles(ours);
  const or = percentiles(oursRaw);
  const p = percentiles(theirs);
  const total = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / PASSES;
  rows.push([
    `corpus: ${corpus.length} files, ${mb(corpus.reduce((s, c) => s + c.bytes.length, 0))} (per file)`,
    `${ms(o.median)} / ${ms(o.p95)}`,
    `${ms(or.median)} / ${ms(or.p95)}`,
    `${ms(p.median)} / ${ms(p.p95)}`,
    `${(p.median / o.median).toFixed(1)}x JSON, ${(p.median / or.median).toFixed(1)}x raw (whole pass: ${ms(total(ours))} JSON, ${ms(total(oursRaw))} raw, ${ms(total(theirs))} pdfsig)`,
  ]);

  // The 25 MB signed file.
  const bigBody = body(big);
  const http = await measure(RUNS, () => verifyHttp(svc, bigBody));
  const raw = await measure(RUNS, () => verifyHttpRaw(svc, big));
  const peer = await measure(RUNS, async () => pdfsig(bigPath));
  rows.push([
    `signed 25 MB file (${mb(big.length)})`,
    `${ms(http.median)} / ${ms(http.p95)}`,
    `${ms(raw.median)} / ${ms(raw.p95)}`,
    `${ms(peer.median)} / ${ms(peer.p95)}`,
    `${(peer.median / http.median).toFixed(1)}x JSON, ${(peer.median / raw.median).toFixed(1)}x raw`,
  ]);
  const engine = await measure(Math.min(RUNS, 10), () => verifyPdf(big, { trustAnchors: [] }));
  rows.push([`(Signet engine alone in Node, 25 MB)`, `${ms(engine.median)} / ${ms(engine.p95)}`, "", "", ""]);
} finally {
  await svc.stop();
}

console.log(
  "| input | Signet POST /v1/verify, JSON (median / p95) | Signet POST /v1/verify, raw PDF body (median / p95) | pdfsig (median / p95) | pdfsig time / Signet time (medians) |",
);
console.log("|---|---|---|---|---|");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);

// Memory: a fresh service, warmed on small files, then the signed 25 MB file.
const fresh = await startService({ RATE_LIMITS: "off" }); // measure the service, not its rate limits
try {
  for (let i = 0; i < 5; i++) await verifyHttp(fresh, corpusBodies[i % corpusBodies.length]!);
  const before = workerdPeakRss(fresh.pid!);
  const bigBody = body(big!);
  for (let i = 0; i < 5; i++) await verifyHttp(fresh, bigBody);
  const after = workerdPeakRss(fresh.pid!);
  const bigPath = join(tmp, "signed-25mb.pdf");
  const peerRss = pdfsigPeakRss(bigPath);
  console.log(
    `\nPeak RSS: workerd ${mb(before)} after start-up and warm-up, ${mb(after)} after verifying the signed 25 MB file 5 times (growth ${mb(after - before)}); pdfsig ${mb(peerRss)} on the same file.`,
  );
} finally {
  await fresh.stop();
  rmSync(tmp, { recursive: true, force: true });
}
