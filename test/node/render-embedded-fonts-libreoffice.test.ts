/**
 * Fonts a document embeds (word/fonts/*.odttf) against LibreOffice: a family the font table names
 * "Contoso Sans", embedded obfuscated with a font key (ECMA-376 Part 1 §17.8.1), is drawn with its
 * own file by both, each glyph where LibreOffice puts it; a file whose fsType allows only preview and
 * print, and a file that is no font, are ignored by both (the family is substituted). The embedded
 * file is Noto Sans Devanagari, a face neither renderer has otherwise (a test-only package the
 * harness's fontconfig does not scan), so only the embedded copy can draw it.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { renderDocxToPdf } from "../../src/render/index";
import { nodeFontSource } from "../../scripts/lib/node-font-source";
import * as B from "../support/docx-builder";
import { withFsType } from "../support/font-files";
import { convertWithLibreOffice, glyphFonts, libreOfficeAvailable } from "./support/libreoffice";

const have = await libreOfficeAvailable();
const TOLERANCE = 1;
const font = (weight: string) =>
  new Uint8Array(
    readFileSync(
      new URL(
        `../../node_modules/@expo-google-fonts/noto-sans-devanagari/${weight}/NotoSansDevanagari_${weight}.ttf`,
        import.meta.url,
      ),
    ),
  );
const REGULAR = font("400Regular");
const BOLD = font("700Bold");
const KEY = "{3EEE3167-E5B8-4798-AE48-EA6B71E31D4D}";

const body = B.p([
  B.r("Contoso Sans is embedded in this agreement, ", { font: "Contoso Sans", sizePt: 11 }),
  B.r("with its bold face ", { font: "Contoso Sans", sizePt: 11, b: true }),
  B.r("and no italic one.", { font: "Contoso Sans", sizePt: 11, i: true }),
]);
const DOCS: Record<string, Uint8Array> = {
  obfuscated: B.buildDocx({
    body,
    embeddedFonts: [
      { family: "Contoso Sans", style: "Regular", bytes: REGULAR, fontKey: KEY },
      { family: "Contoso Sans", style: "Bold", bytes: BOLD, fontKey: KEY },
    ],
  }),
  // Google Docs writes plain .ttf files with an all-zero key.
  plain: B.buildDocx({
    body,
    embeddedFonts: [
      { family: "Contoso Sans", style: "Regular", bytes: REGULAR, fontKey: "{00000000-0000-0000-0000-000000000000}" },
    ],
  }),
  previewAndPrintOnly: B.buildDocx({
    body,
    embeddedFonts: [{ family: "Contoso Sans", style: "Regular", bytes: withFsType(REGULAR, 0x0004), fontKey: KEY }],
  }),
  notAFont: B.buildDocx({
    body,
    embeddedFonts: [{ family: "Contoso Sans", style: "Regular", bytes: new Uint8Array(4096).fill(0x5a), fontKey: KEY }],
  }),
};

const results = new Map<
  string,
  { lo: Awaited<ReturnType<typeof glyphFonts>>; ours: Awaited<ReturnType<typeof glyphFonts>> }
>();

beforeAll(async () => {
  if (!have) return;
  for (const [name, docx] of Object.entries(DOCS)) {
    results.set(name, {
      lo: await glyphFonts(await convertWithLibreOffice(docx)),
      ours: await glyphFonts(await renderDocxToPdf(docx, { fonts: nodeFontSource() })),
    });
  }
}, 300_000);

describe.skipIf(!have)("embedded fonts against LibreOffice", () => {
  for (const name of Object.keys(DOCS)) {
    it(`${name}: draws each glyph with LibreOffice's face, within ${TOLERANCE} pt of where LibreOffice puts it`, () => {
      const { lo, ours } = results.get(name)!;
      const faces = (glyphs: typeof lo) => [...new Set(glyphs.map((g) => g.font))].sort();
      expect(faces(ours)).toEqual(faces(lo));
      const pool = [...ours];
      const misplaced = lo.filter((g) => {
        const i = pool.findIndex(
          (o) =>
            o.c === g.c && o.font === g.font && Math.abs(o.x - g.x) <= TOLERANCE && Math.abs(o.y - g.y) <= TOLERANCE,
        );
        if (i >= 0) pool.splice(i, 1);
        return i < 0;
      });
      expect(misplaced.map((g) => `${g.c}@${g.x.toFixed(1)}`)).toEqual([]);
    });
  }

  it("uses the embedded face only where LibreOffice does", () => {
    expect(results.get("obfuscated")!.lo.some((g) => g.font.startsWith("NotoSansDevanagari"))).toBe(true);
    expect(results.get("previewAndPrintOnly")!.lo.some((g) => g.font.startsWith("NotoSansDevanagari"))).toBe(false);
  });
});
