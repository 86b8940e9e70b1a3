/**
 * The layer rule of src/ (docs/architecture.md): which folders a module may import from. Used by
 * scripts/lint.mjs. A module's layer is its first folder under src/ (`src/pdf/reader/x.ts` → `pdf`)
 * or, for files directly in src/, its name (`src/limits.ts` → `limits`). Tests beside modules
 * (`*.test.ts`) may also import test/support/; nothing in src/ imports scripts/.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { importSpecifiers, moduleFiles, resolveImport } from "./import-cycles.mjs";

/** The foundation: plain values and helpers every layer may use. */
const BASE = ["util", "errors", "limits"];
/** The engines: document and signature code that knows nothing of HTTP, requests or storage. */
export const ENGINES = ["pdf", "cms", "docx", "render", "evidence", "input", "convert"];

/** Layer → the layers its modules may import (its own layer always allowed). */
export const MAY_IMPORT = {
  util: [],
  errors: [],
  limits: [],
  ...Object.fromEntries(ENGINES.map((e) => [e, [...BASE, ...ENGINES]])),
  store: [...BASE],
  config: [...BASE, "cms"],
  contract: [...BASE, ...ENGINES],
  operations: [...BASE, ...ENGINES, "store", "config", "contract"],
  http: [...BASE, ...ENGINES, "store", "config", "contract", "operations"],
  index: ["http"],
};

/** The layer of a path relative to the repository root (`src/pdf/x.ts` → `pdf`), or undefined outside src/. */
export function layerOf(path) {
  const parts = path.split("/");
  if (parts[0] !== "src" || parts.length < 2) return undefined;
  return parts.length === 2 ? parts[1].replace(/\.(ts|mts|mjs|js)$/, "") : parts[1];
}

/**
 * Whether module `from` may import module `target` (both relative to the repository root): a
 * message saying why not, or undefined when it may.
 */
export function layerViolation(from, target) {
  const isTest = /\.test\.ts$/.test(from);
  if (target.startsWith("scripts/"))
    return "src/ imports nothing from scripts/ (scripts import src/, not the other way)";
  if (target.startsWith("test/")) {
    if (isTest && target.startsWith("test/support/")) return undefined;
    return isTest
      ? "tests in src/ import helpers from test/support/ only"
      : "code in src/ imports nothing from test/ (test helpers live in test/support/)";
  }
  const a = layerOf(from);
  const b = layerOf(target);
  if (a === undefined || b === undefined || a === b) return undefined;
  const allowed = MAY_IMPORT[a];
  if (allowed === undefined)
    return `src/${a} has no layer in scripts/lib/layers.mjs (add it, and to docs/architecture.md)`;
  if (allowed.includes(b)) return undefined;
  return `src/${a} may not import src/${b} (it may import: ${allowed.length ? allowed.join(", ") : "nothing outside itself"})`;
}

/** Findings `{ file, line, rule, message }` for every relative import under src/ that breaks the layer rule. */
export function layerFindings(root) {
  const findings = [];
  for (const file of moduleFiles(root, "src")) {
    const text = readFileSync(join(root, file), "utf8");
    for (const spec of importSpecifiers(text)) {
      if (!spec.startsWith(".")) continue;
      // An import of a file that does not exist still names its folder: `../../scripts/x` is judged as written.
      const message = layerViolation(
        file,
        resolveImport(root, file, spec) ?? join(file, "..", spec).split("\\").join("/"),
      );
      if (!message) continue;
      const line = text.slice(0, text.indexOf(spec)).split("\n").length;
      findings.push({ file, line, rule: "layer", message: `${message}: "${spec}"` });
    }
  }
  return findings;
}
