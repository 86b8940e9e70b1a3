/**
 * Import cycles among the modules of a folder: the graph of relative imports (static, type-only,
 * re-exports and dynamic `import("…")`, since a type-only cycle still ties two modules together)
 * and one shortest cycle for each group of modules that reach each other. Used by scripts/lint.mjs.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { splitCode } from "./split-code.mjs";

const MODULE = /\.(ts|mts|mjs|js)$/;

/** Module specifiers `text` imports or re-exports, in order of appearance. */
export function importSpecifiers(text) {
  // `code` keeps the quotes and the offsets of `text` but blanks string contents and comments.
  const { code } = splitCode(text);
  const out = [];
  for (const m of code.matchAll(/\bfrom\s*(["'])|\bimport\s*(["'])|\bimport\s*\(\s*(["'])/g)) {
    const open = m.index + m[0].length;
    const close = code.indexOf(code[open - 1], open);
    if (close > open) out.push(text.slice(open, close));
  }
  return out;
}

/** Files of the module graph under `dir` (relative to `root`, with `/`), declaration files left out. */
export function moduleFiles(root, dir) {
  const out = [];
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (MODULE.test(name) && !/\.d\.m?ts$/.test(name)) out.push(relative(root, path).split(sep).join("/"));
    }
  };
  walk(join(root, dir));
  return out.sort();
}

/** The file a relative specifier of `from` names, if it exists (`./a` → `a.ts` or `a/index.ts`; `./a.js` → `a.ts`). */
export function resolveImport(root, from, spec) {
  const base = join(dirname(from), spec).split(sep).join("/");
  const candidates = [
    base,
    `${base}.ts`,
    `${base}.mts`,
    `${base}.mjs`,
    `${base}.js`,
    base.replace(/\.js$/, ".ts"),
    base.replace(/\.mjs$/, ".mts"),
    `${base}/index.ts`,
  ];
  return candidates.find((c) => MODULE.test(c) && existsSync(join(root, c)) && statSync(join(root, c)).isFile());
}

/**
 * Module → the modules under `dir` it imports, by relative specifier (packages and modules outside
 * `dir` are not followed).
 */
export function importGraph(root, dir) {
  const files = moduleFiles(root, dir);
  const inside = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const targets = new Set();
    for (const spec of importSpecifiers(readFileSync(join(root, file), "utf8"))) {
      if (!spec.startsWith(".")) continue;
      const target = resolveImport(root, file, spec);
      if (target && inside.has(target)) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/**
 * One shortest cycle for each strongly connected group of `graph` (Map of node → nodes), as
 * `[a, b, …, a]`, starting at the group's first node in sort order.
 */
export function findCycles(graph) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const groups = [];
  let next = 0;
  const connect = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const group = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    groups.push(group);
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v);

  const cycles = [];
  for (const group of groups) {
    const members = new Set(group);
    const start = [...group].sort()[0];
    if (group.length === 1 && !(graph.get(start) ?? []).includes(start)) continue;
    // Breadth-first from `start` inside the group, back to `start`.
    const parent = new Map();
    const queue = [start];
    let found = null;
    while (queue.length && !found) {
      const v = queue.shift();
      for (const w of graph.get(v) ?? []) {
        if (w === start) {
          found = v;
          break;
        }
        if (members.has(w) && !parent.has(w)) {
          parent.set(w, v);
          queue.push(w);
        }
      }
    }
    const path = [start];
    for (let v = found; v !== start; v = parent.get(v)) path.splice(1, 0, v);
    path.push(start);
    cycles.push(path);
  }
  return cycles.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** The import cycles among the modules under `dir` (relative to `root`). */
export function importCycles(root, dir) {
  return findCycles(importGraph(root, dir));
}
