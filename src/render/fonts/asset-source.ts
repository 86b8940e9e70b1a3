/**
 * FontSource for the worker: reads /fonts/<file> through the Workers static-assets binding
 * (wrangler.toml [assets], filled by scripts/dev-setup.mjs). The fonts are too large to bundle in
 * the script (about 25 MB for the whole catalog), and a document needs only a few of them.
 */
import { NODE_FONT_PACKAGE_PATHS } from "./catalog";
import type { FontSource } from "./types";
import { workerShaper } from "../shaping/worker-module";

export interface AssetsBinding {
  fetch(req: Request | string): Promise<Response>;
}

/** Font bytes per file name, per isolate: every request after the first one reads from memory. */
const cache = new Map<string, Promise<Uint8Array | null>>();

/** The asset host is never contacted over the network: the binding resolves the path locally. */
const ASSET_ORIGIN = "https://assets.local";

export function assetFontSource(assets: AssetsBinding): FontSource {
  return {
    load(file) {
      // Only catalog files: the name comes from our code, but never let it address other assets.
      if (!NODE_FONT_PACKAGE_PATHS.has(file)) return Promise.resolve(null);
      let hit = cache.get(file);
      if (!hit) {
        hit = fetchFont(assets, file);
        cache.set(file, hit);
        // A failed load is not cached: the next request tries again.
        hit.then(
          (b) => b ?? cache.delete(file),
          () => cache.delete(file),
        );
      }
      return hit;
    },
    shaper: workerShaper,
  };
}

async function fetchFont(assets: AssetsBinding, file: string): Promise<Uint8Array | null> {
  const res = await assets.fetch(new Request(`${ASSET_ORIGIN}/fonts/${encodeURIComponent(file)}`));
  if (!res.ok) {
    await res.body?.cancel();
    return null;
  }
  return new Uint8Array(await res.arrayBuffer());
}
