/**
 * Convert benchmark: a 10-page Markdown contract to PDF.
 *
 * - Signet, engine: Markdown → DOCX (src/convert) → PDF (src/render) in Node, warm, ≥ 30 runs.
 * - Signet, HTTP: `POST /v1/convert?from=md` (multipart, PDF body) against `wrangler dev`, warm, ≥ 30 runs.
 * - The route people use today: `pandoc -o contract.docx` then `soffice --headless --convert-to pdf`,
 *   new processes each time, ≥ 5 runs (the LibreOffice profile reused, its fastest case).
 *
 * The contract is test/fixtures/convert/md/contract-msa.md with a service-level schedule added, so it
 * fills about ten pages. Run: `npx tsx bench/convert.ts` (BENCH_RUNS=n, PEER_RUNS=n). Writes
 * bench/out/convert.md.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { nodeFontSource } from "../scripts/lib/node-font-source";
import { sourceToDocx } from "../src/convert";
import { UrlBudget } from "../src/input/safe-fetch";
import { renderDocxToPdf } from "../src/render/index";
import { convertWithLibreOffice, pdfPageCount } from "../test/node/support/libreoffice";
import { startService } from "../test/node/support/service";
import { measure, ms, type Timing } from "./stats";

const run = promisify(execFile);
const RUNS = Math.max(30, Number(process.env.BENCH_RUNS ?? 30));
const PEER_RUNS = Math.max(5, Number(process.env.PEER_RUNS ?? 5));
const OUT = new URL("./out/", import.meta.url).pathname;

/** The fixture contract plus a schedule of service levels: about ten pages. */
export function tenPageContract(): string {
  const base = readFileSync(new URL("../test/fixtures/convert/md/contract-msa.md", import.meta.url), "utf8");
  const services = [
    "Data platform",
    "Reporting portal",
    "Ingestion API",
    "Support desk",
    "Backups",
    "Identity provider",
  ];
  let schedule = "\n\n## Schedule 3 — Service Levels\n\n";
  schedule +=
    "3.1 Provider shall meet the service levels below in each calendar month. A failure to meet a service level entitles Customer to the service credit shown, which is Customer's sole financial remedy for that failure unless the failure also amounts to a material breach.\n\n";
  schedule +=
    "| Service | Availability | Response (P1) | Resolution (P1) | Service credit |\n|---|---:|---:|---:|---:|\n";
  for (const s of services) schedule += `| ${s} | 99.9 % | 30 minutes | 4 hours | 5 % of the monthly fee |\n`;
  for (let k = 2; k <= 9; k++) {
    schedule += `\n3.${k} **${services[(k - 2) % services.length]}.** Provider shall monitor the ${services[(k - 2) % services.length]!.toLowerCase()} continuously, record every incident with its start and end time, and report the monthly availability to Customer within five (5) Business Days after the end of each month. `;
    schedule +=
      "Planned maintenance announced at least five (5) Business Days in advance and performed outside business hours does not count as unavailability, up to eight (8) hours a month. Provider shall give Customer a root-cause analysis of every priority 1 incident within ten (10) Business Days, with the measures taken to prevent its recurrence.\n";
  }
  return base + schedule;
}

const markdown = tenPageContract();
const fonts = nodeFontSource();
const offline = { allowPrivateUrls: false, maxImageBytes: 5 * 1024 * 1024, timeoutMs: 1000 };
const toPdf = async () =>
  renderDocxToPdf((await sourceToDocx("md", markdown, { ...offline, urlBudget: new UrlBudget() })).docx, { fonts });

console.log(
  `Convert benchmark (Markdown contract → PDF), Signet ${RUNS} runs after warm-up, pandoc + LibreOffice ${PEER_RUNS} runs, ${new Date().toISOString()}\n`,
);

const pdf = await toPdf();
const pages = await pdfPageCount(pdf);
const toDocxOnly = await measure(RUNS, () => sourceToDocx("md", markdown, { ...offline, urlBudget: new UrlBudget() }));
const engine = await measure(RUNS, toPdf);
console.log(
  `Signet engine: ${pages} pages, Markdown → DOCX ${ms(toDocxOnly.median)}, Markdown → PDF ${ms(engine.median)} (p95 ${ms(engine.p95)})`,
);

let http: Timing | string;
const svc = await startService({ RATE_LIMITS: "off" });
try {
  const post = async () => {
    const form = new FormData();
    form.append("file", new Blob([markdown], { type: "text/markdown" }), "contract.md");
    const res = await fetch(`${svc.baseUrl}/v1/convert?from=md`, {
      method: "POST",
      headers: { Authorization: `Bearer ${svc.apiKey}` },
      body: form,
    });
    if (res.status !== 200) throw new Error(`convert answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  };
  http = await measure(RUNS, post);
  console.log(`Signet over HTTP (wrangler dev): ${ms(http.median)} (p95 ${ms(http.p95)})`);
} catch (e) {
  http = `failed: ${(e as Error).message.slice(0, 120)}`;
  console.log(`Signet over HTTP: ${http}`);
} finally {
  await svc.stop();
}

// pandoc → DOCX → LibreOffice → PDF, each a new process.
const dir = mkdtempSync(join(tmpdir(), "signet-bench-pandoc-"));
const mdFile = join(dir, "contract.md");
const docxFile = join(dir, "contract.docx");
writeFileSync(mdFile, markdown);
let peerPages = 0;
const pandocOnly = await measure(PEER_RUNS, () => run("pandoc", [mdFile, "-f", "gfm", "-o", docxFile]), 1);
const peer = await measure(
  PEER_RUNS,
  async () => {
    await run("pandoc", [mdFile, "-f", "gfm", "-o", docxFile]);
    const out = await convertWithLibreOffice(new Uint8Array(readFileSync(docxFile)));
    peerPages = (await pdfPageCount(out)) ?? 0;
  },
  1,
);
rmSync(dir, { recursive: true, force: true });
console.log(
  `pandoc → DOCX → LibreOffice → PDF: ${peerPages} pages, ${ms(peer.median)} (p95 ${ms(peer.p95)}); pandoc alone ${ms(pandocOnly.median)}`,
);

const fmt = (t: Timing | string) => (typeof t === "string" ? t : `${ms(t.median)} / ${ms(t.p95)}`);
const table = [
  "| route | pages | median / p95 |",
  "|---|---:|---:|",
  `| Signet engine, Markdown → DOCX | | ${fmt(toDocxOnly)} |`,
  `| Signet engine, Markdown → DOCX → PDF | ${pages} | ${fmt(engine)} |`,
  `| Signet, POST /v1/convert?from=md (wrangler dev) | ${pages} | ${fmt(http)} |`,
  `| pandoc → DOCX | | ${fmt(pandocOnly)} |`,
  `| pandoc → DOCX → LibreOffice → PDF | ${peerPages} | ${fmt(peer)} |`,
].join("\n");
console.log(`\n${table}\n`);
mkdirSync(OUT, { recursive: true });
writeFileSync(
  join(OUT, "convert.md"),
  `# Convert benchmark\n\n${new Date().toISOString()}; ${RUNS} Signet runs, ${PEER_RUNS} pandoc + LibreOffice runs.\n\n${table}\n`,
);
