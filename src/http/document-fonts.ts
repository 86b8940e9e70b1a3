import type { Env } from "../config";
import { assetFontSource } from "../render/fonts/asset-source";
import type { FontSource } from "../render/fonts/types";

/** The renderer's fonts come from the static-assets binding (wrangler.toml [assets]); undefined when it is missing. */
export function documentFonts(env: Env): FontSource | undefined {
  return env.ASSETS ? assetFontSource(env.ASSETS) : undefined;
}
