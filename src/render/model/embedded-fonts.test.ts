/**
 * Embedded fonts in the model: the font key as ECMA-376 Part 1 §17.8.1 gives it, de-obfuscation,
 * LibreOffice's fsType rule, and the caps that keep a hostile package from costing more than its
 * family's substitute (render-embedded-fonts-libreoffice.test.ts compares the drawing with LibreOffice's).
 */
import { describe, expect, it } from "vitest";
import carlito from "../../../node_modules/@expo-google-fonts/carlito/400Regular/Carlito_400Regular.ttf";
import { buildDocx, p, r, type EmbeddedFontPart } from "../../../test/support/docx-builder";
import { withFsType } from "../../../test/support/font-files";
import { LIMITS } from "../../limits";
import { deobfuscate, fontKey, isUsableTrueType } from "./embedded-fonts";
import { parseDocx } from "./parse-docx";

const CARLITO = new Uint8Array(carlito);
const KEY = "{62E79491-959F-41E9-B76B-6B32631DEA5C}";
const doc = (fonts: EmbeddedFontPart[]) =>
  parseDocx(buildDocx({ body: p([r("Text", { font: "Contoso" })]), embeddedFonts: fonts }));

describe("embedded fonts", () => {
  it("derives the key from the GUID's hex pairs, last first, and XORs the first 32 bytes with it twice over", () => {
    const key = fontKey(KEY)!;
    expect(Array.from(key.subarray(0, 4))).toEqual([0x5c, 0xea, 0x1d, 0x63]);
    expect(key[15]).toBe(0x62);
    const bytes = CARLITO.slice(0, 64);
    deobfuscate(bytes, key);
    expect(bytes[0]).toBe(CARLITO[0]! ^ 0x5c);
    expect(bytes[16]).toBe(CARLITO[16]! ^ 0x5c);
    expect(Array.from(bytes.subarray(32))).toEqual(Array.from(CARLITO.subarray(32, 64)));
    deobfuscate(bytes, key);
    expect(bytes).toEqual(CARLITO.slice(0, 64));
    expect(fontKey(undefined)).toEqual(new Uint8Array(0));
    expect(fontKey("{not-a-guid}")).toBeNull();
  });

  it("reads each embedded style of a family, de-obfuscated to the original file", () => {
    const model = doc([
      { family: "Contoso", style: "Regular", bytes: CARLITO, fontKey: KEY },
      { family: "Contoso", style: "Bold", bytes: CARLITO },
    ]);
    expect(model.embeddedFonts?.map((f) => [f.family, f.style])).toEqual([
      ["Contoso", "Regular"],
      ["Contoso", "Bold"],
    ]);
    expect(model.embeddedFonts![0]!.bytes).toEqual(CARLITO);
  });

  it("leaves out what LibreOffice would not use: preview-and-print or restricted fonts, files that are no TrueType", () => {
    expect(isUsableTrueType(CARLITO)).toBe(true);
    expect(isUsableTrueType(withFsType(CARLITO, 0x0008))).toBe(true); // editable
    expect(isUsableTrueType(withFsType(CARLITO, 0x0004))).toBe(false); // preview and print
    expect(isUsableTrueType(withFsType(CARLITO, 0x0002))).toBe(false); // restricted
    expect(isUsableTrueType(new Uint8Array(2048).fill(7))).toBe(false);
    const truncated = CARLITO.slice(0, 4096);
    expect(isUsableTrueType(truncated)).toBe(false); // its tables lie past the end
    const model = doc([
      { family: "Contoso", style: "Regular", bytes: withFsType(CARLITO, 0x0004), fontKey: KEY },
      { family: "Contoso", style: "Bold", bytes: truncated },
      { family: "Contoso", style: "Italic", bytes: CARLITO.map((b, i) => (i < 32 ? b ^ 0xa5 : b)) }, // obfuscated, its key lost
    ]);
    expect(model.embeddedFonts).toBeUndefined();
  });

  it("reads at most the configured number of faces and bytes, and never fails the document for them", () => {
    const many = Array.from({ length: LIMITS.render.embeddedFonts.maxFaces + 3 }, (_, i) => ({
      family: `F${i}`,
      style: "Regular" as const,
      bytes: CARLITO,
    }));
    expect(doc(many).embeddedFonts).toHaveLength(LIMITS.render.embeddedFonts.maxFaces);
    const big = new Uint8Array(LIMITS.render.embeddedFonts.maxFaceBytes + 1);
    big.set(CARLITO);
    expect(doc([{ family: "Contoso", style: "Regular", bytes: big }]).embeddedFonts).toBeUndefined();
  });
});
