/**
 * `npm run fidelity`: renders every corpus DOCX (../shared/corpus/docx) with Signet and with
 * LibreOffice, and compares page counts, word recall and word positions (scripts/lib/fidelity-compare.ts).
 * Writes bench/out/fidelity/report.md, Signet's PDFs (signet/), and side-by-side first pages of the
 * five worst documents (pairs/<name>.png: Signet left, LibreOffice right).
 *
 * LibreOffice's PDFs are cached by input SHA-256 in bench/out/fidelity/lo-cache, so reruns only
 * pay for Signet. Signet renders in a child process with a time limit: a throw, a hang or a crash
 * is counted as an error of that document and the run goes on.
 *
 * Flags: --only <substring> (repeatable; writes report-partial.md and pairs-partial/ instead, so the
 * full run's report stays), --jobs N (parallel LibreOffice conversions, 1-2).
 */
import { fork, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  convertWithLibreOffice,
  libreOfficeAvailable,
  wordBoxes,
  type PageWords,
} from "../test/node/support/libreoffice";
import {
  compareWords,
  corpusSets,
  docPlaced,
  docPlacedAligned,
  docRecall,
  manifestOrder,
  POSITION_TOLERANCE_PT,
  setTable,
  totals,
  type DocResult,
} from "./lib/fidelity-compare";
import { describeDivergence } from "./lib/fidelity-lines";
import { brokenGlyphs, GLYPH_CHECK_PAGES } from "./lib/fidelity-glyphs";
import { writePair } from "./lib/fidelity-images";

/** A Signet render taking longer than this counts as an error (the child is killed). */
const SIGNET_TIMEOUT_MS = 60_000;
const WORST_SHOWN = 5;
const MIN_WORDS_TO_RANK = 20;

const CORPUS = new URL("../../shared/corpus/docx/", import.meta.url).pathname;
const MANIFEST = new URL("../../shared/corpus/MANIFEST.tsv", import.meta.url).pathname;
const OUT = new URL("../bench/out/fidelity/", import.meta.url).pathname;
const LO_CACHE = join(OUT, "lo-cache");
const SIGNET_OUT = join(OUT, "signet");

function parseArgs(argv: string[]) {
  const only: string[] = [];
  let jobs = 1;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--only" && argv[i + 1] !== undefined) only.push(argv[++i]!);
    else if (argv[i] === "--jobs" && argv[i + 1] !== undefined) jobs = Math.min(2, Math.max(1, Number(argv[++i]) || 1));
    else throw new Error(`unknown argument ${argv[i]}; use --only <substring>, --jobs N`);
  }
  return { only, jobs };
}

const { only, jobs } = parseArgs(process.argv.slice(2));
// A partial run (--only) never overwrites the full run's report and pictures.
const suffix = only.length ? "-partial" : "";
const PAIRS = join(OUT, `pairs${suffix}`);
if (!(await libreOfficeAvailable())) {
  console.error("fidelity needs soffice and poppler-utils (apt-get install -y libreoffice-writer-nogui poppler-utils)");
  process.exit(2);
}
for (const dir of [LO_CACHE, SIGNET_OUT, PAIRS]) mkdirSync(dir, { recursive: true });
for (const old of readdirSync(PAIRS)) rmSync(join(PAIRS, old));

const names = readdirSync(CORPUS)
  .filter((f) => f.endsWith(".docx") && (!only.length || only.some((o) => f.includes(o))))
  .sort();
if (!names.length) throw new Error(`no corpus DOCX matches ${only.join(", ")}`);

// ---------------------------------------------------------------------------------------------
// LibreOffice (cached)

type Reference = { pdf: Uint8Array } | { error: string };

async function reference(name: string): Promise<Reference> {
  const bytes = new Uint8Array(readFileSync(join(CORPUS, name)));
  const sha = createHash("sha256").update(bytes).digest("hex");
  const pdfPath = join(LO_CACHE, `${sha}.pdf`);
  const errPath = join(LO_CACHE, `${sha}.err`);
  if (existsSync(pdfPath)) return { pdf: new Uint8Array(readFileSync(pdfPath)) };
  if (existsSync(errPath)) return { error: readFileSync(errPath, "utf8") };
  try {
    const pdf = await convertWithLibreOffice(bytes);
    // Write then rename: a concurrent run never reads a half-written cache entry.
    writeFileSync(`${pdfPath}.${process.pid}.tmp`, pdf);
    renameSync(`${pdfPath}.${process.pid}.tmp`, pdfPath);
    return { pdf };
  } catch (e) {
    const error = (e as Error).message;
    writeFileSync(errPath, error);
    return { error };
  }
}

async function allReferences(): Promise<Map<string, Reference>> {
  const out = new Map<string, Reference>();
  const queue = [...names];
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      for (let name = queue.shift(); name; name = queue.shift()) out.set(name, await reference(name));
    }),
  );
  return out;
}

// ---------------------------------------------------------------------------------------------
// Signet (child process, time-limited)

type Rendered = { pdf: Uint8Array; ms: number } | { error: string };

let child: ChildProcess | undefined;
const childScript = new URL("./lib/fidelity-render-child.ts", import.meta.url).pathname;

function renderInChild(path: string): Promise<Rendered> {
  child ??= fork(childScript, [], {
    execArgv: ["--import", "tsx"],
    serialization: "advanced",
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  const c = child;
  let stderr = "";
  c.stderr?.on("data", (d) => (stderr = (stderr + d).slice(-500)));
  return new Promise((resolve) => {
    const done = (r: Rendered, restart: boolean) => {
      clearTimeout(timer);
      c.removeAllListeners("message").removeAllListeners("exit");
      c.stderr?.removeAllListeners("data");
      if (restart) {
        c.kill("SIGKILL");
        child = undefined;
      }
      resolve(r);
    };
    const timer = setTimeout(
      () => done({ error: `timeout: no result after ${SIGNET_TIMEOUT_MS / 1000} s` }, true),
      SIGNET_TIMEOUT_MS,
    );
    c.once("message", (m: Rendered) => done(m, false));
    c.once("exit", (code, signal) =>
      done(
        { error: `renderer process died (${signal ?? `exit ${code}`}): ${stderr.trim().split("\n").pop() ?? ""}` },
        true,
      ),
    );
    c.send({ path });
  });
}

async function allRenders(): Promise<Map<string, Rendered>> {
  const out = new Map<string, Rendered>();
  for (const name of names) {
    const r = await renderInChild(join(CORPUS, name));
    out.set(name, r);
    process.stdout.write("error" in r ? "E" : ".");
  }
  child?.kill();
  process.stdout.write("\n");
  return out;
}

// ---------------------------------------------------------------------------------------------

console.log(`fidelity: ${names.length} documents, LibreOffice jobs ${jobs}`);
const [refs, renders] = await Promise.all([allReferences(), allRenders()]);

const results: DocResult[] = [];
const pdfs = new Map<string, { ours: Uint8Array; ref: Uint8Array }>();
for (const name of names) {
  const ref = refs.get(name)!;
  const ours = renders.get(name)!;
  const result: DocResult = { name };
  if ("error" in ours) result.error = ours.error;
  else {
    result.renderMs = ours.ms;
    writeFileSync(join(SIGNET_OUT, name.replace(/\.docx$/, ".pdf")), ours.pdf);
    result.brokenGlyphs = await brokenGlyphs(ours.pdf);
  }
  if ("error" in ref) result.referenceError = ref.error;
  else {
    const refWords = await wordBoxes(ref.pdf);
    let ourWords: PageWords[] = [];
    if (!("error" in ours)) {
      try {
        ourWords = await wordBoxes(ours.pdf);
        pdfs.set(name, { ours: ours.pdf, ref: ref.pdf });
      } catch (e) {
        // Poppler cannot read Signet's PDF: as bad as a throw.
        result.error = `pdftotext cannot read Signet's PDF: ${(e as Error).message.slice(0, 200)}`;
      }
    }
    result.cmp = compareWords(refWords, ourWords);
  }
  results.push(result);
}

// The worst rendered documents by position share, then recall; documents of a few words (a
// cover page, a chart) only after those with enough text for the share to mean something.
const tiny = (d: DocResult) => ((d.cmp?.words ?? 0) < MIN_WORDS_TO_RANK ? 1 : 0);
const worst = results
  .filter((d) => pdfs.has(d.name) && !d.error)
  .sort((a, b) => tiny(a) - tiny(b) || docPlaced(a) - docPlaced(b) || docRecall(a) - docRecall(b))
  .slice(0, WORST_SHOWN);
for (const d of worst) {
  const { ours, ref } = pdfs.get(d.name)!;
  try {
    await writePair(ours, ref, join(PAIRS, d.name.replace(/\.docx$/, ".png")));
  } catch (e) {
    console.warn(`no side-by-side image for ${d.name}: ${(e as Error).message}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Report

const t = totals(results);
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const renderTimes = results.flatMap((d) => (d.renderMs !== undefined ? [d.renderMs] : [])).sort((a, b) => a - b);
const summary = [
  `documents: ${t.documents} (LibreOffice converted ${t.measured})`,
  `rendered without error: ${t.renderedWithoutError} / ${t.documents}`,
  `word recall: mean ${pct(t.meanRecall)}, overall ${pct(t.overallRecall)}`,
  `equal page count: ${t.equalPageCount} / ${t.measured} (${pct(t.measured ? t.equalPageCount / t.measured : 0)})`,
  `words within ${POSITION_TOLERANCE_PT} pt: ${pct(t.placedShare)} (page by page, each page's first text line aligned: ${pct(t.placedAlignedShare)})`,
  `documents with glyphs a viewer cannot draw (MuPDF, first ${GLYPH_CHECK_PAGES} pages): ${t.withBrokenGlyphs} / ${t.renderedWithoutError}`,
  renderTimes.length
    ? `Signet render time: median ${renderTimes[Math.floor(renderTimes.length / 2)]!.toFixed(0)} ms, max ${renderTimes.at(-1)!.toFixed(0)} ms (Node, first render of each document)`
    : "",
].filter(Boolean);

// The issue's table: the documents the renderer was tuned on and those that came after them.
const sets = setTable(corpusSets(results, manifestOrder(readFileSync(MANIFEST, "utf8"))));

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
const lines = [
  `# Fidelity: Signet against LibreOffice`,
  ``,
  `${new Date().toISOString()}; method in docs/measuring.md. Targets (issue 5): no errors, recall ≥ 98 %, equal pages ≥ 80 %, ≥ 70 % of words within ${POSITION_TOLERANCE_PT} pt.`,
  ``,
  ...summary.map((s) => `- ${s}`),
  ``,
  ...sets,
  ``,
  `Worst ${worst.length} (side by side, Signet left, LibreOffice right): ${worst.map((d) => `[${d.name}](pairs${suffix}/${d.name.replace(/\.docx$/, ".png")})`).join(", ")}`,
  ``,
  ...(results.some((d) => d.error)
    ? [
        `Errors: ${results
          .filter((d) => d.error)
          .map((d) => d.name)
          .join(", ")}`,
        ``,
      ]
    : []),
  `| document | pages LO / Signet | LO words | recall | within ${POSITION_TOLERANCE_PT} pt | per page, aligned | first divergence (LibreOffice page) | broken glyphs | render ms | error |`,
  `|---|---|---|---|---|---|---|---|---|---|`,
  ...results.map((d) => {
    const c = d.cmp;
    return `| ${cell(d.name)} | ${c ? `${c.pagesReference} / ${d.error ? "-" : c.pagesOurs}` : "-"} | ${c?.words ?? "-"} | ${c ? pct(docRecall(d)) : "-"} | ${c ? pct(docPlaced(d)) : "-"} | ${c ? pct(docPlacedAligned(d)) : "-"} | ${c && !d.error ? cell(describeDivergence(c.divergence)) : "-"} | ${d.brokenGlyphs ?? "-"} | ${d.renderMs?.toFixed(0) ?? "-"} | ${cell(d.error ?? (d.referenceError ? `LibreOffice: ${d.referenceError}` : ""))} |`;
  }),
  ``,
];
writeFileSync(join(OUT, `report${suffix}.md`), lines.join("\n"));
writeFileSync(join(OUT, `results${suffix}.json`), JSON.stringify({ totals: t, results }, null, 1));
console.log(summary.join("\n"));
console.log(sets.join("\n"));
console.log(`report: ${join(OUT, `report${suffix}.md`)}`);
