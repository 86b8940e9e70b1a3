/**
 * Node's way to HarfBuzz (tests, the fidelity harness, benchmarks): the very file the worker bundles,
 * wasm/harfbuzz.wasm, compiled from disk. The worker imports it as a compiled module instead
 * (src/render/shaping/worker-module.ts); both go through createShaper.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createShaper, type Shaper } from "../../src/render/shaping/harfbuzz";

export const HARFBUZZ_WASM_PATH = fileURLToPath(new URL("../../wasm/harfbuzz.wasm", import.meta.url));

let shaper: Promise<Shaper> | undefined;

export function nodeHarfBuzzModule(): WebAssembly.Module {
  return new WebAssembly.Module(readFileSync(HARFBUZZ_WASM_PATH));
}

/** The process's shaper, instantiated once. */
export function nodeShaper(): Promise<Shaper> {
  shaper ??= createShaper(nodeHarfBuzzModule());
  return shaper;
}
