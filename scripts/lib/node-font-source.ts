/**
 * FontSource for Node tools (tests, the fidelity harness, benchmarks): reads the catalog's font
 * files where they are in the repository (installed packages, src/render/fonts/vendor).
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { NODE_FONT_PACKAGE_PATHS } from "../../src/render/fonts/catalog";
import type { FontSource } from "../../src/render/fonts/types";
import { nodeShaper } from "./node-harfbuzz";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** Absolute path of a catalog file ("Carlito-Bold.ttf"), or null if not in the catalog. */
export function nodeFontPath(file: string): string | null {
  const rel = NODE_FONT_PACKAGE_PATHS.get(file);
  return rel ? repoRoot + rel : null;
}

export function nodeFontSource(): FontSource {
  const cache = new Map<string, Promise<Uint8Array | null>>();
  return {
    load(file) {
      let hit = cache.get(file);
      if (!hit) {
        const path = nodeFontPath(file);
        hit = path
          ? readFile(path).then((b) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength))
          : Promise.resolve(null);
        cache.set(file, hit);
      }
      return hit;
    },
    shaper: nodeShaper,
  };
}
