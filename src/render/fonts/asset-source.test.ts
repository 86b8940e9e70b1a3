/**
 * The worker reads the renderer's fonts through the static-assets binding (wrangler.toml [assets],
 * filled by scripts/dev-setup.mjs): the bytes arrive, parse, and only catalog files are reachable.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { assetFontSource } from "./asset-source";
import { faceFromBytes } from "./font-face";

const assets = env.ASSETS as Fetcher;

describe("assetFontSource", () => {
  it("loads Carlito through env.ASSETS as a TrueType font that measures text", async () => {
    const bytes = await assetFontSource(assets).load("Carlito-Regular.ttf");
    expect(bytes).not.toBeNull();
    expect([...bytes!.subarray(0, 4)]).toEqual([0, 1, 0, 0]); // sfnt version 1.0: TrueType outlines
    const face = faceFromBytes("Carlito-Regular.ttf", bytes!);
    // Carlito is metric-compatible with Calibri: 11 pt single line = (1950 + 550) / 2048 em, 13.43 pt,
    // in LibreOffice's whole twips 13.45.
    expect(face.lineHeight(11)).toBeCloseTo(13.45, 5);
    expect(face.widthOf("Signet", 11)).toBeGreaterThan(20);
    expect(face.covers("Я".codePointAt(0)!)).toBe(true);
  });

  it("serves every catalog file, the Hebrew and Arabic fallbacks included", async () => {
    const source = assetFontSource(assets);
    for (const file of [
      "Caladea-BoldItalic.ttf",
      "NotoSansHebrew-Bold.ttf",
      "NotoSansArabic-Regular.ttf",
      "Cousine-Italic.ttf",
    ]) {
      const bytes = await source.load(file);
      expect(bytes?.byteLength, file).toBeGreaterThan(10_000);
    }
  });

  it("answers null for names outside the catalog, without reaching other assets", async () => {
    const source = assetFontSource(assets);
    expect(await source.load("Calibri.ttf")).toBeNull();
    expect(await source.load("../wrangler.toml")).toBeNull();
    expect(await source.load("")).toBeNull();
  });
});
