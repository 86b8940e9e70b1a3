/**
 * Shaping benchmark: what HarfBuzz in WebAssembly (wasm/harfbuzz.wasm, src/render/shaping) costs.
 *
 * - Compile: `new WebAssembly.Module(bytes)` (Node only: a Worker gets the module compiled at upload).
 *   V8 compiles functions lazily, on their first call, and caches modules by their bytes within a
 *   process, so the cold row runs in fresh processes: compile, instantiate, load Carlito, first
 *   shape of a sentence (what a fresh isolate pays before its first shaped word).
 * - Instantiate: `createShaper(module)` from the compiled module, what each fresh isolate pays once.
 * - Face: copying a font file into the module and creating HarfBuzz's face and font (once per face).
 * - Shape: one `shape()` call for texts of several lengths and scripts, warm.
 * - Document: every paragraph of the render benchmark's 3-page contract shaped once with Carlito,
 *   the shaping work a layout would add for it (before any caching of repeated words).
 *
 * Run: `npx tsx bench/shaping.ts` (BENCH_RUNS=n). Node's V8, as workerd's, but not the same build.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { strFromU8, unzipSync } from "fflate";
import { contract } from "./render-docs";
import { measure, ms, type Timing } from "./stats";
import { HARFBUZZ_WASM_PATH } from "../scripts/lib/node-harfbuzz";
import { createShaper } from "../src/render/shaping/harfbuzz";

const RUNS = Math.max(30, Number(process.env.BENCH_RUNS ?? 30));
const COLD_RUNS = 10;
const font = (path: string) => new Uint8Array(readFileSync(new URL(`../node_modules/${path}`, import.meta.url)));
const sentence = "The Supplier shall deliver the Goods to the Delivery Address on the Delivery Date.";

if (process.argv.includes("--cold")) {
  const carlitoFile = font("@expo-google-fonts/carlito/400Regular/Carlito_400Regular.ttf");
  const t = performance.now();
  const shaper = await createShaper(new WebAssembly.Module(readFileSync(HARFBUZZ_WASM_PATH)));
  shaper.face(carlitoFile).shape(sentence);
  console.log(JSON.stringify({ ms: performance.now() - t }));
  process.exit(0);
}
const us = (n: number) => `${(n * 1000).toFixed(1)} µs`;
const fmt = (t: Timing, unit = ms) => `${unit(t.median)} / ${unit(t.p95)}`;

const coldTimes = Array.from({ length: COLD_RUNS }, () => {
  const r = spawnSync(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--cold"], {
    encoding: "utf8",
  });
  return (JSON.parse(r.stdout.trim().split("\n").pop()!) as { ms: number }).ms;
}).sort((a, b) => a - b);
const cold: Timing = { runs: COLD_RUNS, median: coldTimes[COLD_RUNS >> 1]!, p95: coldTimes[COLD_RUNS - 1]! };

const bytes = readFileSync(HARFBUZZ_WASM_PATH);
const compile = await measure(RUNS, async () => new WebAssembly.Module(bytes));
const module = new WebAssembly.Module(bytes);
const instantiate = await measure(RUNS, () => createShaper(module));
const shaper = await createShaper(module);

const carlitoBytes = font("@expo-google-fonts/carlito/400Regular/Carlito_400Regular.ttf");
const faceLoad = await measure(RUNS, async () => shaper.face(carlitoBytes).destroy());
const carlito = shaper.face(carlitoBytes);
const dejaVu = shaper.face(font("dejavu-fonts-ttf/ttf/DejaVuSans.ttf"));
const deva = shaper.face(font("@expo-google-fonts/noto-sans-devanagari/400Regular/NotoSansDevanagari_400Regular.ttf"));

const texts: [string, typeof carlito, string][] = [
  ["Latin word (8 characters, Carlito)", carlito, "contract"],
  [`Latin sentence (${sentence.length} characters, Carlito)`, carlito, sentence],
  [`Latin paragraph (${sentence.length * 8 + 7} characters, Carlito)`, carlito, Array(8).fill(sentence).join(" ")],
  ["Arabic sentence (46 characters, DejaVu Sans)", dejaVu, "يجب على المورد تسليم البضائع إلى عنوان التسليم"],
  ["Devanagari sentence (40 characters, Noto Sans Devanagari)", deva, "आपूर्तिकर्ता माल को डिलीवरी पते पर पहुंचाएगा"],
];
const calls: [string, Timing][] = [];
for (const [name, face, text] of texts) calls.push([name, await measure(RUNS * 10, async () => face.shape(text), 20)]);

// The contract's paragraphs, as the layout would shape them (one call per paragraph).
const xml = strFromU8(unzipSync(contract())["word/document.xml"]!);
const paragraphs = [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)]
  .map((m) => [...m[0].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((t) => t[1]).join(""))
  .filter((t) => t.length);
const chars = paragraphs.reduce((n, p) => n + p.length, 0);
const document = await measure(RUNS, async () => {
  for (const p of paragraphs) carlito.shape(p);
});

const lines = [
  `Shaping benchmark (HarfBuzz ${bytes.length.toLocaleString("en")} bytes of WebAssembly), ${RUNS}+ runs after warm-up, ${new Date().toISOString()}`,
  "",
  "| step | median / p95 |",
  "|---|---|",
  `| cold, fresh process: compile, instantiate, load Carlito, shape the first sentence (${COLD_RUNS} processes; p95 = max) | ${fmt(cold)} |`,
  `| compile the module from bytes again (Node only; lazy, cached by bytes) | ${fmt(compile)} |`,
  `| instantiate from the compiled module (once per isolate) | ${fmt(instantiate)} |`,
  `| load a face (Carlito, ${carlitoBytes.length.toLocaleString("en")} bytes) | ${fmt(faceLoad)} |`,
  ...calls.map(([name, t]) => `| shape: ${name} | ${fmt(t, us)} |`),
  `| shape the 3-page contract (${paragraphs.length} paragraphs, ${chars} characters) | ${fmt(document)} |`,
];
console.log(lines.join("\n"));
