/**
 * `tsx bench/verify-budgets.ts`: how long POST /v1/verify takes on the hostile inputs that reach
 * each of the verifier's work budgets (docs/limits.md; the times are in docs/security.md), through `wrangler dev` as users call it,
 * without an API key (anyone can send these).
 *
 * - keyless signatures: 990 incremental signatures whose /Contents is filler (8.8 MB, as an attacker
 *   sends them); refused by verify.maxSignatures.
 * - self-signed signatures: 100 (the most verify.maxSignatures allows), 300 and 990 real incremental
 *   signatures made with a throwaway self-signed key.
 * - hashing: 10 real signatures over the 25 MB bench file (about verify.maxSignedBytes), and 11 (refused).
 * - changed objects: a signed page whose 100,000 (refused) or 20,000 resource objects a later
 *   revision rewrites.
 * - work and objects parsed: a 20,000-page signed document followed by 300 revisions that each edit
 *   a page; a signed 100,000-page document with one page edited; 140,000 and 400,000 (refused)
 *   small objects, one changed after signing (the analysis reads every object the document reaches).
 *
 * Inputs are built once into bench/out/ (real signatures take minutes to make). BENCH_TARGET_URL
 * measures a service that is already running (e.g. another branch's `wrangler dev`) instead of
 * starting this one. Timings are wall time on this machine; BENCH_RUNS runs each (median, max).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  appendUpdate,
  basePdf,
  makeSigner,
  manySignaturesPdf,
  signForTest,
  type TestSigner,
} from "../test/support/signed-pdfs";
import { PdfAssembler } from "../test/support/pdf-assembler";
import { startService } from "../test/node/support/service";
import { benchInputs, OUT } from "./inputs";
import { mb, ms } from "./stats";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

async function cached(name: string, make: () => Promise<Uint8Array>): Promise<Uint8Array> {
  const file = join(OUT, name);
  if (!existsSync(file)) {
    const t = performance.now();
    writeFileSync(file, await make());
    console.error(`built ${name} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  return new Uint8Array(readFileSync(file));
}

let throwaway: TestSigner | null = null;
const selfSigned = async () => (throwaway ??= await makeSigner("Throwaway", { selfSigned: true }));

/** `count` real incremental signatures over `base`, one revision each. */
async function signedTimes(base: Uint8Array, count: number): Promise<Uint8Array> {
  const signer = await selfSigned();
  let bytes = base;
  for (let i = 0; i < count; i++) bytes = (await signForTest(bytes, { signer, capacity: 4096 })).bytes;
  return bytes;
}

/** A document of `pages` pages (in nodes of 100), signed, then `revisions` revisions that each rewrite its second page. */
async function manyPages(pages: number, revisions: number): Promise<Uint8Array> {
  const pdf = new PdfAssembler();
  const first = 4;
  const nodes = Math.ceil(pages / 100);
  const node = (i: number) => first + pages + i;
  pdf.obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
  pdf.obj(
    2,
    `<< /Type /Pages /Kids [${Array.from({ length: nodes }, (_, i) => `${node(i)} 0 R`).join(" ")}] /Count ${pages} >>`,
  );
  pdf.obj(3, "<< /Title (Many pages) >>");
  for (let i = 0; i < pages; i++)
    pdf.obj(first + i, `<< /Type /Page /Parent ${node(Math.floor(i / 100))} 0 R /MediaBox [0 0 200 200] >>`);
  for (let n = 0; n < nodes; n++) {
    const kids = Array.from({ length: Math.min(100, pages - n * 100) }, (_, i) => `${first + n * 100 + i} 0 R`);
    pdf.obj(node(n), `<< /Type /Pages /Parent 2 0 R /Kids [${kids.join(" ")}] /Count ${kids.length} >>`);
  }
  const nums = [1, 2, 3, ...Array.from({ length: pages + nodes }, (_, i) => first + i)];
  pdf.startxref(
    pdf.table(
      [{ num: 0, type: "f", a: 0, b: 65535 }, ...pdf.rowsFor(nums)],
      `/Size ${first + pages + nodes} /Root 1 0 R /Info 3 0 R`,
    ),
  );
  let bytes = (await signForTest(pdf.bytes(), { signer: await selfSigned() })).bytes;
  for (let r = 0; r < revisions; r++)
    bytes = appendUpdate(bytes, [
      { num: first + 1, body: `<< /Type /Page /Parent ${node(0)} 0 R /MediaBox [0 0 200 ${201 + r}] >>` },
    ]);
  return bytes;
}

/** A signed page whose resources list `count` small objects, then a revision that rewrites `changed` of them. */
async function manyObjects(count: number, changed: number): Promise<Uint8Array> {
  const pdf = new PdfAssembler();
  const first = 10;
  pdf.obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
  pdf.obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
  pdf.obj(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /Properties 4 0 R >> >>");
  pdf.obj(4, `[${Array.from({ length: count }, (_, i) => `${first + i} 0 R`).join(" ")}]`);
  for (let i = 0; i < count; i++) pdf.obj(first + i, "<</A 1>>");
  const nums = [1, 2, 3, 4, ...Array.from({ length: count }, (_, i) => first + i)];
  pdf.startxref(
    pdf.table([{ num: 0, type: "f", a: 0, b: 65535 }, ...pdf.rowsFor(nums)], `/Size ${first + count} /Root 1 0 R`),
  );
  const signed = (await signForTest(pdf.bytes(), { signer: await selfSigned() })).bytes;
  return appendUpdate(
    signed,
    Array.from({ length: changed }, (_, i) => ({ num: first + i, body: "<</A 2>>" })),
  );
}

const big = (await benchInputs()).find((i) => i.name === "25mb.pdf")!.bytes;
const inputs: { label: string; budget: string; bytes: Uint8Array }[] = [
  { label: "the 25 MB bench file, unsigned (transfer and reading alone)", budget: "-", bytes: big },
  {
    label: "990 keyless signatures (filler /Contents)",
    budget: "verify.maxSignatures",
    bytes: await cached("990-keyless-signatures.pdf", async () => manySignaturesPdf(990)),
  },
  {
    label: "990 self-signed signatures",
    budget: "verify.maxSignatures",
    bytes: await cached("990-signatures.pdf", () => signedTimes(basePdf(), 990)),
  },
  {
    label: "300 self-signed signatures",
    budget: "verify.maxSignatures",
    bytes: await cached("300-signatures.pdf", () => signedTimes(basePdf(), 300)),
  },
  {
    label: "100 self-signed signatures (the most allowed)",
    budget: "verify.maxSignatures",
    bytes: await cached("100-signatures.pdf", () => signedTimes(basePdf(), 100)),
  },
  {
    label: "10 signatures over 25 MB (about the most hashed)",
    budget: "verify.maxSignedBytes",
    bytes: await cached("25mb-10-signatures.pdf", () => signedTimes(big, 10)),
  },
  {
    label: "11 signatures over 25 MB",
    budget: "verify.maxSignedBytes",
    bytes: await cached("25mb-11-signatures.pdf", async () =>
      signedTimes(new Uint8Array(readFileSync(join(OUT, "25mb-10-signatures.pdf"))), 1),
    ),
  },
  {
    label: "signed, then 100,000 objects rewritten",
    budget: "verify.maxChangedObjects",
    bytes: await cached("100000-objects-changed.pdf", () => manyObjects(100_000, 100_000)),
  },
  {
    label: "signed, then 20,000 objects rewritten (the most allowed)",
    budget: "verify.maxChangedObjects",
    bytes: await cached("20000-objects-changed.pdf", () => manyObjects(20_000, 20_000)),
  },
  {
    label: "20,000 pages, signed, then 300 revisions each editing a page",
    budget: "verify.maxWorkUnits",
    bytes: await cached("20000-pages-300-revisions.pdf", () => manyPages(20_000, 300)),
  },
  {
    label: "100,000 pages (pdf.maxPages), signed, then 1 page edited",
    budget: "verify.maxParsedObjects",
    bytes: await cached("100000-pages-1-revision.pdf", () => manyPages(100_000, 1)),
  },
  {
    label: "140,000 small objects, signed, then 1 changed (about the most parsed)",
    budget: "verify.maxParsedObjects",
    bytes: await cached("140000-objects-1-changed.pdf", () => manyObjects(140_000, 1)),
  },
  {
    label: "400,000 small objects, signed, then 1 changed",
    budget: "verify.maxParsedObjects",
    bytes: await cached("400000-objects-1-changed.pdf", () => manyObjects(400_000, 1)),
  },
];

const target = process.env.BENCH_TARGET_URL;
const svc = target ? null : await startService({ RATE_LIMITS: "off" }); // measure the service, not its rate limits
const baseUrl = target ?? svc!.baseUrl;
console.log(
  `Signet verify work budgets, ${new Date().toISOString()}, ${target ? `service at ${target}` : "this branch via wrangler dev"}, ${RUNS} runs each\n`,
);
console.log("| input | size | budget | answer | median | max |");
console.log("|---|---|---|---|---|---|");
try {
  for (const input of inputs) {
    const body = JSON.stringify({ document: { base64: Buffer.from(input.bytes).toString("base64") } });
    const times: number[] = [];
    let answer = "";
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      const res = await fetch(`${baseUrl}/v1/verify`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body,
      });
      const json = (await res.json().catch(() => ({}))) as { code?: string; valid?: boolean };
      times.push(performance.now() - t);
      answer = res.status === 200 ? `200 valid: ${json.valid}` : `${res.status} ${json.code ?? ""}`;
    }
    times.sort((a, b) => a - b);
    console.log(
      `| ${input.label} | ${mb(input.bytes.length)} | \`${input.budget}\` | ${answer} | ${ms(times[Math.floor(times.length / 2)]!)} | ${ms(times[times.length - 1]!)} |`,
    );
  }
} finally {
  await svc?.stop();
}
