#!/usr/bin/env node
/**
 * `npm run lint`: Signet's own rules over src/, test/, scripts/ and bench/ (no ESLint setup
 * works with TypeScript 7 here). Prints `file:line: rule: message` and exits 1 on any finding.
 *
 * Rules:
 * - worker-runtime (src/ only, tests beside modules excepted): no `node:` imports, `Buffer`,
 *   `eval(`, `new Function`, `process.` — src/ runs in workerd.
 * - console-log (src/ only): `console.log` only in the access log module.
 * - focused-test: no `.only(` in tests (it silently skips the rest of the suite).
 * - debugger: no `debugger` statements.
 * - todo-issue: a TODO/FIXME names its issue (`TODO(#12)` or `TODO #12`).
 * - final-newline: every file ends with a newline.
 * - import-cycle (all of src/): no modules that import each other in a circle, type-only imports
 *   included (scripts/lib/import-cycles.mjs); reported at the cycle's first module.
 * - doc-link (README.md, docs/*.md): every relative link names a file that exists and, with a
 *   `#fragment`, a heading of that page (scripts/lib/doc-links.mjs).
 * - layer (src/): each folder imports only the folders below it (scripts/lib/layers.mjs, written
 *   down in docs/architecture.md): engines import neither http/ nor operations/, nothing in src/
 *   imports scripts/, and only tests beside modules import test/support/.
 *
 * Comments and string literals are blanked before the code rules run, so prose about
 * `Buffer` or a message mentioning `eval(` does not count; TODOs are looked for in comments.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { brokenLinks, docPages } from "./lib/doc-links.mjs";
import { importCycles } from "./lib/import-cycles.mjs";
import { layerFindings } from "./lib/layers.mjs";
import { splitCode } from "./lib/split-code.mjs";

const ROOT = join(fileURLToPath(new URL(".", import.meta.url)), "..");
const DIRS = ["src", "test", "scripts", "bench"];
const EXTENSIONS = /\.(ts|mts|mjs|js)$/;
const SKIP_DIRS = new Set(["node_modules", "out", ".generated", "fonts"]);
const LOGGER = "src/http/middleware/access-log.ts";
/** Folders whose modules must form no import cycle. */
const CYCLE_FREE = ["src"];

/** Every source file under the linted folders, as paths relative to the repository root. */
export function sourceFiles(root = ROOT) {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (!SKIP_DIRS.has(name)) walk(path);
      } else if (EXTENSIONS.test(name) && !name.endsWith(".d.ts") && !name.endsWith(".d.mts")) {
        out.push(relative(root, path));
      }
    }
  };
  for (const d of DIRS) {
    try {
      walk(join(root, d));
    } catch (err) {
      if (err.code !== "ENOENT") throw err;
    }
  }
  return out.sort();
}

/** Import specifiers are strings (blanked in `code`): this one is matched on the raw line. */
const NODE_IMPORT = /\b(from|import|require)\s*\(?\s*["']node:/;
const WORKER_RUNTIME = [
  [/\bBuffer\b/, "no Buffer in code that runs in workerd (use Uint8Array)"],
  [/(^|[^.\w])eval\s*\(/, "no eval"],
  [/\bnew\s+Function\b/, "no new Function"],
  [/(^|[^.\w])process\s*\./, "no process.* in code that runs in workerd (read configuration from env)"],
];

// Built from a string so this file does not match its own rule.
const DEBUGGER = new RegExp("(^|[^.\\w$])" + "debug" + "ger\\b");

/** Findings for one file: `{ line, rule, message }`. */
export function lintText(path, text) {
  const findings = [];
  const add = (line, rule, message) => findings.push({ line, rule, message });
  const { code, comments } = splitCode(text);
  const codeLines = code.split("\n");
  const rawLines = text.split("\n");
  const commentLines = comments.split("\n");
  const inSrc = path.startsWith("src/");
  const isTest = /\.test\.ts$/.test(path) || path.startsWith("test/");
  const runsInWorker = inSrc && !/\.test\.ts$/.test(path);

  codeLines.forEach((line, i) => {
    const n = i + 1;
    const raw = rawLines[i] ?? "";
    if (runsInWorker) {
      if (NODE_IMPORT.test(raw) && /\b(from|import|require)\b/.test(line))
        add(n, "worker-runtime", "no node: imports in code that runs in workerd");
      for (const [pattern, message] of WORKER_RUNTIME) if (pattern.test(line)) add(n, "worker-runtime", message);
      if (/\bconsole\.log\s*\(/.test(line) && path !== LOGGER)
        add(n, "console-log", `console.log only in ${LOGGER} (use console.error for diagnostics)`);
    }
    if (isTest && /\b(it|test|describe|suite|bench)\s*\.\s*only\s*\(/.test(line))
      add(n, "focused-test", "no .only( in tests");
    if (DEBUGGER.test(line)) add(n, "debugger", "no debugger statements");
    const comment = commentLines[i] ?? "";
    if (/\b(TODO|FIXME|XXX)\b/.test(comment) && !/\b(TODO|FIXME|XXX)\b\s*\(?\s*#\d+/.test(comment)) {
      add(n, "todo-issue", "a TODO names its issue: TODO(#12)");
    }
  });
  if (text.length > 0 && !text.endsWith("\n"))
    add(rawLines.length, "final-newline", "the file does not end with a newline");
  return findings;
}

/** Findings about the import graph: one per cycle under the CYCLE_FREE folders, `{ file, line, rule, message }`. */
export function cycleFindings(root = ROOT, dirs = CYCLE_FREE) {
  return dirs.flatMap((dir) =>
    importCycles(root, dir).map((cycle) => ({
      file: cycle[0],
      line: 1,
      rule: "import-cycle",
      message: `modules import each other: ${cycle.join(" -> ")}`,
    })),
  );
}

/** Documentation links that lead nowhere, `{ file, line, rule, message }`. */
export function docLinkFindings(root = ROOT) {
  return docPages(root).flatMap((page) =>
    brokenLinks(root, page, readFileSync(join(root, page), "utf8")).map((f) => ({
      file: page,
      line: f.line,
      rule: "doc-link",
      message: f.message,
    })),
  );
}

function main() {
  const files = sourceFiles();
  let count = 0;
  for (const file of files) {
    for (const f of lintText(file, readFileSync(join(ROOT, file), "utf8"))) {
      console.log(`${file}:${f.line}: ${f.rule}: ${f.message}`);
      count++;
    }
  }
  for (const f of [...cycleFindings(), ...layerFindings(ROOT), ...docLinkFindings()]) {
    console.log(`${f.file}:${f.line}: ${f.rule}: ${f.message}`);
    count++;
  }
  if (count) {
    console.log(`\n${count} finding${count === 1 ? "" : "s"} in ${files.length} files.`);
    process.exit(1);
  }
  console.log(`lint: ${files.length} files, no findings.`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
