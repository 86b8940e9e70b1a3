/**
 * HarfBuzz shaping in workerd: wasm/harfbuzz.wasm imported as the worker bundles it (a compiled
 * module), the test fonts imported as Data modules (wrangler.toml's *.ttf rule).
 */
import carlito from "../../../node_modules/@expo-google-fonts/carlito/400Regular/Carlito_400Regular.ttf";
import devanagari from "../../../node_modules/@expo-google-fonts/noto-sans-devanagari/400Regular/NotoSansDevanagari_400Regular.ttf";
import hebrew from "../../../node_modules/@expo-google-fonts/noto-sans-hebrew/400Regular/NotoSansHebrew_400Regular.ttf";
import dejaVuSans from "../../../node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf";
import { describeShaping } from "../../../test/support/shaping-cases";
import { workerShaper } from "./worker-module";

describeShaping("workerd", workerShaper, async () => ({
  carlito: new Uint8Array(carlito),
  dejaVuSans: new Uint8Array(dejaVuSans),
  notoSansHebrew: new Uint8Array(hebrew),
  notoSansDevanagari: new Uint8Array(devanagari),
}));
