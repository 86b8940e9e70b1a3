/** HarfBuzz shaping in Node: wasm/harfbuzz.wasm compiled from disk, as the fidelity harness loads it. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { HARFBUZZ_WASM_PATH, nodeShaper } from "../../scripts/lib/node-harfbuzz";
import { describeShaping } from "../support/shaping-cases";

const fontFile = (path: string) => new Uint8Array(readFileSync(new URL(`../../node_modules/${path}`, import.meta.url)));

describeShaping("Node", nodeShaper, async () => ({
  carlito: fontFile("@expo-google-fonts/carlito/400Regular/Carlito_400Regular.ttf"),
  dejaVuSans: fontFile("dejavu-fonts-ttf/ttf/DejaVuSans.ttf"),
  notoSansHebrew: fontFile("@expo-google-fonts/noto-sans-hebrew/400Regular/NotoSansHebrew_400Regular.ttf"),
  notoSansDevanagari: fontFile("@expo-google-fonts/noto-sans-devanagari/400Regular/NotoSansDevanagari_400Regular.ttf"),
}));

describe("the bundled HarfBuzz", () => {
  it("is harfbuzzjs's harfbuzz.wasm byte for byte (upgrade through npm, then copy it to wasm/)", () => {
    const bundled = readFileSync(HARFBUZZ_WASM_PATH);
    const packaged = readFileSync(new URL("../../node_modules/harfbuzzjs/dist/harfbuzz.wasm", import.meta.url));
    expect(bundled.equals(packaged)).toBe(true);
  });
});
