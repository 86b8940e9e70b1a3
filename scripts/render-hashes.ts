/**
 * Renders every corpus DOCX with the Node font source and prints one `sha256  file` line per
 * document (errors as `error:<code>`), for checking that a refactor of src/render leaves its
 * output byte-identical: save the list before, compare after.
 *
 *   tsx scripts/render-hashes.ts > before.txt
 *   tsx scripts/render-hashes.ts --check before.txt   # exits 1 and names each file that differs
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { renderDocxToPdf } from "../src/render/index";
import { nodeFontSource } from "./lib/node-font-source";

const CORPUS = new URL("../../shared/corpus/docx/", import.meta.url).pathname;

async function hashAll(): Promise<Map<string, string>> {
  const fonts = nodeFontSource();
  const out = new Map<string, string>();
  for (const name of readdirSync(CORPUS)
    .filter((n) => n.endsWith(".docx"))
    .sort()) {
    let line: string;
    try {
      const pdf = await renderDocxToPdf(new Uint8Array(readFileSync(CORPUS + name)), { fonts });
      line = createHash("sha256").update(pdf).digest("hex");
    } catch (e) {
      const err = e as Error & { code?: string };
      line = `error:${err.code ?? err.name}`;
    }
    out.set(name, line);
  }
  return out;
}

const checkIndex = process.argv.indexOf("--check");
const hashes = await hashAll();
if (checkIndex === -1) {
  for (const [name, hash] of hashes) console.log(`${hash}  ${name}`);
} else {
  const before = new Map(
    readFileSync(process.argv[checkIndex + 1]!, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => {
        const [hash, name] = l.split("  ");
        return [name!, hash!] as const;
      }),
  );
  let differ = 0;
  for (const [name, hash] of hashes) {
    if (before.get(name) !== hash) {
      differ++;
      console.log(`differs: ${name} (${before.get(name) ?? "new"} -> ${hash})`);
    }
  }
  for (const name of before.keys()) if (!hashes.has(name)) console.log(`missing: ${name}`);
  console.log(`${hashes.size - differ}/${hashes.size} identical`);
  process.exitCode = differ ? 1 : 0;
}
