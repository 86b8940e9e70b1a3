/**
 * Worst-case time of the renderer's work budgets: hostile documents built to reach each budget
 * (src/limits.ts), timed until Signet answers — the refusal (422 render_limit, image_invalid) or,
 * just under a limit, the rendered PDF. docs/security.md ("Worst-case times") quotes the slowest row of each
 * budget (the doc comments of src/limits.ts carry them).
 *
 * - Engine: `renderDocxToPdf` in Node (warm: one small render first), the most CPU time (user +
 *   system, `process.cpuUsage`: what Cloudflare's `cpu_ms` counts, and steady on a shared machine
 *   where wall time is not) of BENCH_RUNS (default 3) runs, and that run's wall time.
 * - HTTP: `POST /v1/annotate?to=pdf` against `wrangler dev` (workerd, as deployed), one run each,
 *   request sent to answer received. `BENCH_ENGINE_ONLY=1` skips it.
 *
 * Run: `npm run bench:budgets`. Documents that would trip the ZIP ratio check are stored (not
 * deflated), as a hostile sender would send them; all stay within the 16 MiB XML limit.
 */
import { unzipSync, zipSync } from "fflate";
import { LIMITS } from "../src/limits";
import { renderDocxToPdf } from "../src/render";
import { nodeFontSource } from "../scripts/lib/node-font-source";
import { buildDocx, inlineImage, p, pageBreak, r, sectPr, table } from "../test/support/docx-builder";
import { inflationBombPng } from "../test/support/png-bomb";
import { startService } from "../test/node/support/service";
import { makePng } from "../test/support/png-images";

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const fonts = nodeFontSource();

/** Deterministic lowercase text (so a document is not one repeated string). */
function letters(n: number, seed = 1): string {
  let x = seed;
  let s = "";
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) & 0x7fffffff;
    s += String.fromCharCode(97 + ((x >>> 16) % 26));
  }
  return s;
}
const stored = (docx: Uint8Array) => zipSync(unzipSync(docx), { level: 0 });
const picture = (k: number) => inlineImage(`rIdP${k}`, 100, 100, k + 1);
const side = Math.floor(Math.sqrt(LIMITS.paint.maxPngPixels));
const withPictures = (count: number) =>
  buildDocx({
    body: Array.from({ length: count }, (_, k) => p([picture(k)])).join(""),
    media: Object.fromEntries(
      Array.from({ length: count }, (_, k) => [`rIdP${k}`, makePng(side, side, [k * 40, 90, 160])]),
    ),
  });
const photoField = `<w:sdt><w:sdtPr><w:tag w:val="photo"/></w:sdtPr><w:sdtContent>${p("x")}</w:sdtContent></w:sdt>`;

interface Case {
  budget: string;
  input: string;
  docx: () => Uint8Array;
  /** Annotate fields (a picture value), for the cases whose hostile part is a value. */
  fields?: () => unknown[];
}

const CASES: Case[] = [
  {
    budget: "render.maxLayoutWork",
    input: "a 20-paragraph header on each of 4,990 pages",
    docx: () =>
      buildDocx({
        body:
          Array.from({ length: 4_990 }, () => p([pageBreak()])).join("") + sectPr({ headers: { default: "rIdH1" } }),
        headers: { rIdH1: Array.from({ length: 20 }, (_, i) => p(`Header line ${i} ${letters(40, i)}`)).join("") },
      }),
  },
  {
    budget: "render.maxLayoutWork",
    input: "150,000 one-word paragraphs on 200-inch pages (5.4 MB stored)",
    docx: () =>
      stored(
        buildDocx({
          body:
            Array.from({ length: 150_000 }, (_, i) => p(letters(3, i))).join("") +
            sectPr({ width: 288_000, height: 288_000 }),
        }),
      ),
  },
  {
    budget: "render.maxLayoutWork",
    input: "a table of 8,000 rows of 10 cells (9.6 MB stored)",
    docx: () =>
      stored(
        buildDocx({
          body:
            table(
              Array.from({ length: 8_000 }, (_, i) => Array.from({ length: 10 }, (_, j) => letters(3, i * 10 + j))),
              { widths: Array(10).fill(900) },
            ) + p(""),
        }),
      ),
  },
  {
    budget: "render.maxLayoutWork",
    input: "three paragraphs of one 990,000-character word each",
    docx: () => buildDocx({ body: [1, 2, 3].map((k) => p([r(letters(990_000, k))])).join("") }),
  },
  {
    budget: "render.maxPages",
    input: "5,100 page breaks (refused)",
    docx: () => buildDocx({ body: Array.from({ length: 5_100 }, () => p([pageBreak()])).join("") }),
  },
  {
    budget: "render.maxPages",
    input: "4,990 page breaks (rendered: 4,991 pages)",
    docx: () => buildDocx({ body: Array.from({ length: 4_990 }, () => p([pageBreak()])).join("") }),
  },
  {
    budget: "paragraph.maxChars",
    input: "one word of 1,040,000 characters (refused)",
    docx: () => buildDocx({ body: p([r("x".repeat(1_040_000))]) }),
  },
  {
    budget: "paragraph.maxChars",
    input: "one word of 999,000 characters (rendered)",
    docx: () => buildDocx({ body: p([r(letters(999_000))]) }),
  },
  {
    budget: "paragraph.maxChars",
    input: "one Arabic word of 990,000 characters in a right-to-left paragraph (rendered; 2 MB stored)",
    docx: () => stored(buildDocx({ body: p([r("\u0628".repeat(990_000))], { bidi: true }) })),
  },
  {
    budget: "paint.maxDecodedPixels",
    input: `three ${side} x ${side} PNGs (refused at the third)`,
    docx: () => withPictures(3),
  },
  {
    budget: "paint.maxDecodedPixels",
    input: `two ${side} x ${side} PNGs (rendered)`,
    docx: () => withPictures(2),
  },
  {
    budget: "PNG data (its header's size)",
    input: "a picture value of 2000 x 2000 grey inflating to 3 GiB (refused, image_invalid)",
    docx: () => buildDocx({ body: p(photoField) }),
    fields: () => [
      {
        id: "photo",
        type: "image",
        value: `data:image/png;base64,${Buffer.from(inflationBombPng(2000, 2000, 3 * 1024 ** 3)).toString("base64")}`,
      },
    ],
  },
  {
    budget: "PNG data (its header's size)",
    input: "the same PNG as a picture of the DOCX (box left empty)",
    docx: () =>
      stored(
        buildDocx({
          body: p([inlineImage("rIdBomb", 100, 100)]),
          media: { rIdBomb: inflationBombPng(2000, 2000, 3 * 1024 ** 3) },
        }),
      ),
  },
];

async function engine(docx: Uint8Array): Promise<{ cpu: number; wall: number; answer: string }> {
  let worst = { cpu: 0, wall: 0 };
  let answer = "";
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const cpu = process.cpuUsage();
    try {
      const pdf = await renderDocxToPdf(docx, { fonts });
      answer = `PDF, ${(pdf.length / 1024 / 1024).toFixed(1)} MB`;
    } catch (e) {
      answer = (e as { code?: string }).code ?? String(e);
    }
    const used = process.cpuUsage(cpu);
    const run = { cpu: (used.user + used.system) / 1000, wall: performance.now() - t };
    if (run.cpu > worst.cpu) worst = run;
  }
  return { ...worst, answer };
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
console.log(
  `Work budgets, worst case, ${new Date().toISOString()} (engine: most CPU of ${RUNS} runs; HTTP: one run, wall time)\n`,
);

await renderDocxToPdf(buildDocx({ body: p("warm-up") }), { fonts });
const rows: string[] = [];
const svc = process.env.BENCH_ENGINE_ONLY ? null : await startService({ RATE_LIMITS: "off" });
try {
  for (const c of CASES.filter((c) => !process.env.BENCH_ONLY || new RegExp(process.env.BENCH_ONLY).test(c.input))) {
    const docx = c.docx();
    // A hostile value (not part of the DOCX) is checked by annotate only: the engine row is the DOCX alone.
    const e = c.fields ? null : await engine(docx);
    let http = "";
    if (svc) {
      const body = JSON.stringify({
        document: { base64: Buffer.from(docx).toString("base64") },
        fields: c.fields?.() ?? [],
      });
      const t = performance.now();
      const from = svc.log().length;
      try {
        // A fresh connection each time: a kept-alive one wrangler dev has since closed fails at once.
        const res = await fetch(`${svc.baseUrl}/v1/annotate?to=pdf`, {
          method: "POST",
          headers: { Authorization: `Bearer ${svc.apiKey}`, "Content-Type": "application/json", Connection: "close" },
          body,
        });
        const json = (await res.json()) as { code?: string };
        http = `${s(performance.now() - t)} (${res.status}${json.code ? ` ${json.code}` : ""})`;
      } catch (err) {
        // The connection failed (workerd restarting an isolate over its memory limit says so in its output).
        const said = svc
          .log()
          .slice(from)
          .split("\n")
          .filter((l) => /error|memory|exceeded/i.test(l))
          .slice(0, 2)
          .join(" / ");
        const cause = (err as { cause?: { code?: string; message?: string } }).cause;
        http = `${s(performance.now() - t)} (no answer: ${(err as Error).message}${cause ? ` (${cause.code ?? cause.message})` : ""}${said ? `; ${said.slice(0, 200)}` : ""})`;
      }
    }
    const row = `| \`${c.budget}\` | ${c.input} | ${e ? `${s(e.cpu)} CPU, ${s(e.wall)} wall (${e.answer})` : "-"} | ${http || "-"} |`;
    rows.push(row);
    console.log(row);
  }
} finally {
  await svc?.stop();
}
console.log(
  `\n| budget | hostile input | engine (Node), CPU and wall | HTTP annotate?to=pdf (wrangler dev), wall |\n|---|---|---|---|\n${rows.join("\n")}`,
);
