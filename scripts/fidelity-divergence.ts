/**
 * `npx tsx scripts/fidelity-divergence.ts [--signet <dir>] [--only <substring>] [--json <file>]`:
 * per corpus document, the first page where Signet's rendering and LibreOffice's part (page count, or
 * the first LibreOffice line Signet does not draw in place, and where Signet drew it), from the PDFs
 * `npm run fidelity` left: Signet's in bench/out/fidelity/signet (or `--signet`), LibreOffice's in
 * its cache. Nothing is rendered, so saved Signet PDFs of an older build can be measured with the
 * current measures; `--json` writes results `scripts/fidelity-sets.ts` reads.
 *
 * Sorted by the divergence's LibreOffice page, so drift (documents that part late) is told apart
 * from documents wrong from their first page; a count by kind ends the list.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { wordBoxes } from "../test/node/support/libreoffice";
import { compareWords, docPlaced, docPlacedAligned, type DocResult } from "./lib/fidelity-compare";
import { describeDivergence } from "./lib/fidelity-lines";

const CORPUS = new URL("../../shared/corpus/docx/", import.meta.url).pathname;
const OUT = new URL("../bench/out/fidelity/", import.meta.url).pathname;

const args = process.argv.slice(2);
let signetDir = join(OUT, "signet");
let jsonOut: string | undefined;
const only: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--signet" && args[i + 1]) signetDir = args[++i]!;
  else if (args[i] === "--only" && args[i + 1]) only.push(args[++i]!);
  else if (args[i] === "--json" && args[i + 1]) jsonOut = args[++i]!;
  else throw new Error(`unknown argument ${args[i]}; use --signet <dir>, --only <substring>, --json <file>`);
}

const names = readdirSync(CORPUS)
  .filter((f) => f.endsWith(".docx") && (!only.length || only.some((o) => f.includes(o))))
  .sort();
const results: DocResult[] = [];
for (const name of names) {
  const sha = createHash("sha256")
    .update(readFileSync(join(CORPUS, name)))
    .digest("hex");
  const refPath = join(OUT, "lo-cache", `${sha}.pdf`);
  const oursPath = join(signetDir, name.replace(/\.docx$/, ".pdf"));
  if (!existsSync(refPath)) {
    results.push({ name, referenceError: "no LibreOffice PDF in the cache" });
    continue;
  }
  if (!existsSync(oursPath)) {
    results.push({
      name,
      error: "no Signet PDF",
      cmp: compareWords(await wordBoxes(new Uint8Array(readFileSync(refPath))), []),
    });
    continue;
  }
  const [ref, ours] = await Promise.all([
    wordBoxes(new Uint8Array(readFileSync(refPath))),
    wordBoxes(new Uint8Array(readFileSync(oursPath))),
  ]);
  results.push({ name, cmp: compareWords(ref, ours) });
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const parted = results.filter((d) => d.cmp && !d.error);
parted.sort(
  (a, b) =>
    (a.cmp!.divergence?.page ?? Infinity) - (b.cmp!.divergence?.page ?? Infinity) || a.name.localeCompare(b.name),
);
for (const d of parted) {
  const c = d.cmp!;
  console.log(
    `${d.name}\tpages ${c.pagesReference}/${c.pagesOurs}\tin place ${pct(docPlaced(d))}, per page ${pct(docPlacedAligned(d))}\t${describeDivergence(c.divergence) || "in step"}`,
  );
}
const kinds = new Map<string, number>();
for (const d of parted)
  kinds.set(d.cmp!.divergence?.kind ?? "in step", (kinds.get(d.cmp!.divergence?.kind ?? "in step") ?? 0) + 1);
console.log(`\n${[...kinds].map(([k, n]) => `${k}: ${n}`).join(", ")}`);
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ results }, null, 1));
