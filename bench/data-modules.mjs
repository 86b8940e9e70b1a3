// Node module hooks for what wrangler bundles as modules: `*.ttf` as Data (bytes) and `*.wasm` as a
// compiled WebAssembly.Module, so bench/memory.ts can run the worker's own app in Node.
// Use: node --import tsx --import ./bench/data-modules.mjs bench/memory.ts
import { registerHooks } from "node:module";
import { fileURLToPath } from "node:url";

registerHooks({
  load(url, context, nextLoad) {
    const path = url.startsWith("file:") ? fileURLToPath(url) : "";
    // The bytes are read when the module runs (outside V8's heap), never inlined in its source.
    const read = `new Uint8Array((await import("node:fs")).readFileSync(${JSON.stringify(path)}))`;
    if (path.endsWith(".ttf")) return { format: "module", shortCircuit: true, source: `export default ${read};` };
    if (path.endsWith(".wasm"))
      return { format: "module", shortCircuit: true, source: `export default new WebAssembly.Module(${read});` };
    return nextLoad(url, context);
  },
});
