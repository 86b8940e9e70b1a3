/**
 * `npx tsx scripts/fidelity-sets.ts [results.json ...]`: the fidelity issue's table (the first 77
 * corpus documents in MANIFEST order, the rest) for saved `npm run fidelity` results, by default
 * bench/out/fidelity/results.json. Compare a run before and after a change from two saved copies.
 */
import { readFileSync } from "node:fs";
import { corpusSets, manifestOrder, setTable, type DocResult } from "./lib/fidelity-compare";

const files = process.argv.slice(2);
if (!files.length) files.push(new URL("../bench/out/fidelity/results.json", import.meta.url).pathname);
const manifest = manifestOrder(readFileSync(new URL("../../shared/corpus/MANIFEST.tsv", import.meta.url), "utf8"));
for (const file of files) {
  const { results } = JSON.parse(readFileSync(file, "utf8")) as { results: DocResult[] };
  console.log(`${file}\n\n${setTable(corpusSets(results, manifest)).join("\n")}\n`);
}
