/**
 * The worker's way to HarfBuzz: wasm/harfbuzz.wasm imported as a compiled module (wrangler bundles
 * it beside the script; Workers cannot compile WebAssembly at run time) and instantiated once per
 * isolate. Node tools load the same file from disk (scripts/lib/node-harfbuzz.ts).
 */
import harfbuzzWasm from "../../../wasm/harfbuzz.wasm";
import { createShaper, type Shaper } from "./harfbuzz";

let shaper: Promise<Shaper> | undefined;

/** The isolate's shaper (instantiated on first use; a failed instantiation is retried next time). */
export function workerShaper(): Promise<Shaper> {
  shaper ??= createShaper(harfbuzzWasm).catch((e: unknown) => {
    shaper = undefined;
    throw e;
  });
  return shaper;
}
