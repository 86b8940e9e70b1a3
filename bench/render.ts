/**
 * Render benchmark (DOCX → PDF): a 3-page contract and a 30-page report, generated here with
 * test/support/docx-builder (deterministic: headings, numbered clauses, a table, header and footer
 * with PAGE / NUMPAGES fields, a content control).
 *
 * - Engine: `renderDocxToPdf` alone in Node, warm, ≥ 30 runs, median / p95.
 * - HTTP: `POST /v1/annotate?to=pdf` (fill one field, render, base64 out) against `wrangler dev`,
 *   warm, ≥ 30 runs, and workerd's peak RSS. Until the route renders, the status it answers is reported.
 * - Memory: one render per document in a Node process with a 128 MB V8 heap (the isolate limit).
 * - LibreOffice: `soffice --headless --convert-to pdf`, a new process per document, ≥ 5 runs each:
 *   with a fresh profile every time (what `libreoffice-convert` does) and with a reused profile.
 *
 * Documents: bench/render-docs.ts. Run: `npx tsx bench/render.ts` (BENCH_RUNS=n, LO_RUNS=n). Writes bench/out/render.md.
 * `BENCH_ENGINE_ONLY=1` prints the engine, stage and memory figures only (no HTTP, no LibreOffice, no file).
 */
import { fork } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nodeFontSource } from "../scripts/lib/node-font-source";
import { contract, report } from "./render-docs";
import { convertWithLibreOffice, pdfPageCount } from "../test/node/support/libreoffice";
import { startService } from "../test/node/support/service";
import { mb, measure, ms, workerdPeakRss, type Timing } from "./stats";

const RUNS = Math.max(30, Number(process.env.BENCH_RUNS ?? 30));
const LO_RUNS = Math.max(5, Number(process.env.LO_RUNS ?? 5));
const OUT = new URL("./out/", import.meta.url).pathname;

// ---------------------------------------------------------------------------------------------
// Runs

const docs = [
  { name: "contract (A4, ~3 pages)", bytes: contract() },
  { name: "report (A4, ~30 pages)", bytes: report() },
];
const fonts = nodeFontSource();
const fmt = (t: Timing) => `${ms(t.median)} / ${ms(t.p95)}`;

interface Row {
  name: string;
  pages: string;
  engine: Timing | string;
  http: Timing | string;
  loFresh: Timing;
  loReused: Timing;
}
const rows: Row[] = [];
let memory = "";

console.log(
  `Render benchmark, Signet ${RUNS} runs after warm-up, LibreOffice ${LO_RUNS} runs, ${new Date().toISOString()}\n`,
);

const engineResults = new Map<string, { timing: Timing | string; pages: number | null }>();
for (const doc of docs) {
  try {
    // Imported here: a renderer that does not load yet is reported, not a crash.
    const { renderDocxToPdf } = await import("../src/render/index");
    const pdf = await renderDocxToPdf(doc.bytes, { fonts });
    const timing = await measure(RUNS, () => renderDocxToPdf(doc.bytes, { fonts }));
    engineResults.set(doc.name, { timing, pages: await pdfPageCount(pdf) });
  } catch (e) {
    engineResults.set(doc.name, { timing: `error: ${(e as Error).message.slice(0, 80)}`, pages: null });
  }
}

// Where the engine's time goes: the four stages of renderDocxToPdf, median of each over the runs.
const stageLines: string[] = [];
try {
  const { parseDocx } = await import("../src/render/model/parse-docx");
  const { loadFontBook } = await import("../src/render/fonts/font-book");
  const { layoutDocument } = await import("../src/render/layout/index");
  const { paintDocument } = await import("../src/render/paint/paint-document");
  stageLines.push(`| document | parse | fonts | layout | paint |`, `|---|---|---|---|---|`);
  for (const doc of docs) {
    const times: number[][] = [[], [], [], []];
    for (let i = 0; i < RUNS + 3; i++) {
      const t0 = performance.now();
      const model = parseDocx(doc.bytes);
      const t1 = performance.now();
      const book = await loadFontBook(model, fonts);
      const t2 = performance.now();
      const laidOut = layoutDocument(model, book);
      const t3 = performance.now();
      await paintDocument(laidOut, model);
      const t4 = performance.now();
      if (i >= 3) [t1 - t0, t2 - t1, t3 - t2, t4 - t3].forEach((t, k) => times[k]!.push(t));
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    stageLines.push(`| ${doc.name} | ${times.map((xs) => ms(median(xs))).join(" | ")} |`);
  }
} catch (e) {
  stageLines.push(`Stages not measured: ${(e as Error).message.slice(0, 120)}`);
}

// Memory: each document rendered once in a fresh Node process whose V8 heap is capped at the
// Workers isolate limit (128 MB); the process's peak RSS includes Node and tsx themselves.
const HEAP_CAP_MB = 128;
const capped = new Map<string, string>();
for (const doc of docs) {
  const dir = mkdtempSync(join(tmpdir(), "signet-bench-"));
  const path = join(dir, "doc.docx");
  writeFileSync(path, doc.bytes);
  const child = fork(new URL("../scripts/lib/fidelity-render-child.ts", import.meta.url).pathname, [], {
    execArgv: ["--import", "tsx", `--max-old-space-size=${HEAP_CAP_MB}`],
    serialization: "advanced",
    stdio: ["ignore", "ignore", "ignore", "ipc"],
  });
  const reply = await new Promise<{ error?: string; maxRssKb?: number } | null>((resolve) => {
    child.once("message", (m) => resolve(m as { error?: string; maxRssKb?: number }));
    child.once("exit", () => resolve(null));
    child.send({ path });
  });
  child.kill();
  rmSync(dir, { recursive: true, force: true });
  capped.set(
    doc.name,
    reply === null
      ? `died (out of memory?) with a ${HEAP_CAP_MB} MB heap`
      : reply.error
        ? `error: ${reply.error.slice(0, 80)}`
        : `ok with a ${HEAP_CAP_MB} MB heap, process peak RSS ${mb((reply.maxRssKb ?? 0) * 1024)}`,
  );
}

// BENCH_ENGINE_ONLY=1: the engine figures alone (no wrangler, no LibreOffice, render.md untouched), for iterating.
if (process.env.BENCH_ENGINE_ONLY === "1") {
  for (const doc of docs) {
    const r = engineResults.get(doc.name)!;
    console.log(
      `${doc.name}: engine ${typeof r.timing === "string" ? r.timing : fmt(r.timing)}, ${r.pages ?? "-"} pages; ${capped.get(doc.name)}`,
    );
  }
  console.log(["", ...stageLines].join("\n"));
  process.exit(0);
}

const httpResults = new Map<string, Timing | string>();
const svc = await startService();
try {
  const peakBefore = workerdPeakRss(svc.pid!);
  for (const doc of docs) {
    const body = JSON.stringify({
      document: { base64: Buffer.from(doc.bytes).toString("base64") },
      fields: [{ id: "client_name", type: "text", value: "Ada Lovelace" }],
    });
    const post = () =>
      fetch(`${svc.baseUrl}/v1/annotate?to=pdf`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${svc.apiKey}` },
        body,
      });
    const probe = await post();
    if (probe.status !== 200) {
      const problem = (await probe.json().catch(() => ({}))) as { code?: string };
      httpResults.set(doc.name, `HTTP ${probe.status} ${problem.code ?? ""}`.trim());
      continue;
    }
    await probe.arrayBuffer();
    httpResults.set(
      doc.name,
      await measure(RUNS, async () => {
        const res = await post();
        if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
      }),
    );
  }
  memory = `workerd peak RSS: ${mb(peakBefore)} after start-up; ${mb(workerdPeakRss(svc.pid!))} after the HTTP runs.`;
} finally {
  await svc.stop();
}

const loPages = new Map<string, number>();
for (const doc of docs) {
  loPages.set(doc.name, await pdfPageCount(await convertWithLibreOffice(doc.bytes)));
  const loFresh = await measure(LO_RUNS, () => convertWithLibreOffice(doc.bytes, { freshProfile: true }), 0);
  const loReused = await measure(LO_RUNS, () => convertWithLibreOffice(doc.bytes), 1);
  const engine = engineResults.get(doc.name)!;
  rows.push({
    name: doc.name,
    pages: `${loPages.get(doc.name)} / ${engine.pages ?? "-"}`,
    engine: engine.timing,
    http: httpResults.get(doc.name)!,
    loFresh,
    loReused,
  });
}

const speedup = (peer: Timing, ours: Timing | string) =>
  typeof ours === "string" ? "-" : `${(peer.median / ours.median).toFixed(0)}x`;
const lines = [
  `Render benchmark, ${new Date().toISOString()}. Signet ${RUNS} runs after warm-up; LibreOffice ${LO_RUNS} runs, a new soffice process each. Method in docs/measuring.md.`,
  ``,
  `| document | pages LO / Signet | Signet engine, Node (median / p95) | Signet HTTP annotate?to=pdf (median / p95) | LibreOffice, fresh profile | LibreOffice, reused profile | LO fresh / engine | LO fresh / HTTP |`,
  `|---|---|---|---|---|---|---|---|`,
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.pages} | ${typeof r.engine === "string" ? r.engine : fmt(r.engine)} | ${typeof r.http === "string" ? r.http : fmt(r.http)} | ${fmt(r.loFresh)} | ${fmt(r.loReused)} | ${speedup(r.loFresh, r.engine)} | ${speedup(r.loFresh, r.http)} |`,
  ),
  ``,
  memory,
  ...docs.map((d) => `Node, one render of the ${d.name}: ${capped.get(d.name)}.`),
  ``,
  `Signet engine by stage (Node, median of ${RUNS} warm runs):`,
  ``,
  ...stageLines,
  ``,
];
console.log(lines.join("\n"));
mkdirSync(OUT, { recursive: true });
writeFileSync(`${OUT}render.md`, lines.join("\n"));
