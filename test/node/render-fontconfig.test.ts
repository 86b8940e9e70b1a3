/**
 * The renderer's font choice (src/render/fonts/fontconfig.ts, catalog.ts) against fontconfig itself:
 * `fc-match` under the fidelity harness's configuration (our fonts, the Office names' strong aliases,
 * Debian's conf.d), which is what LibreOffice asks (render-fonts-libreoffice.test.ts shows LibreOffice
 * drawing what fontconfig answers). A face fontconfig answers that we do not ship (URW's P052, Z003 ...
 * from fonts-urw-base35) must be one we know we lack, and we must draw its generic.
 */
import { describe, expect, it } from "vitest";
import { fallbackFamilies, fontFile, substituteFamily, type FamilyId } from "../../src/render/fonts/catalog";
import { faceFromBytes, type LoadedFace } from "../../src/render/fonts/font-face";
import { fontconfigName, fontconfigLanguage } from "../../src/render/fonts/fontconfig";
import { nodeFontSource } from "../../scripts/lib/node-font-source";
import { fontMatches, libreOfficeAvailable } from "./support/libreoffice";

const have = await libreOfficeAvailable();
const FAMILIES: FamilyId[] = [
  "Carlito",
  "Caladea",
  "Arimo",
  "Tinos",
  "Cousine",
  "NotoSans",
  "NotoSerif",
  "NotoSansHebrew",
  "NotoSansArabic",
  "NotoSansSymbols",
  "NotoSansSymbols2",
  "NotoSansMono",
  "DejaVuSans",
  "DejaVuSerif",
  "DejaVuSansMono",
  "DroidSansFallback",
];
const byFcName = new Map(FAMILIES.map((f) => [fontconfigName(f), f]));
/** Faces fontconfig finds on Debian that we do not ship (fonts-urw-base35, DejaVu's math face), with the generic we draw instead. */
const NOT_SHIPPED: Record<string, FamilyId> = {
  P052: "NotoSerif",
  C059: "NotoSerif",
  "URW Bookman": "NotoSerif",
  Z003: "NotoSans",
  D050000L: "NotoSans",
  "Nimbus Sans Narrow": "Arimo",
  "DejaVu Math TeX Gyre": "Caladea",
};

const NAMES = [
  // 45-latin.conf's generics
  "Georgia",
  "Garamond",
  "Constantia",
  "Elephant",
  "MS Serif",
  "Consolas",
  "Andale Mono",
  "Fixedsys",
  "Inconsolata",
  "Verdana",
  "Tahoma",
  "Trebuchet MS",
  "Century Gothic",
  "Candara",
  "Corbel",
  "Arial Unicode MS",
  "MS Sans Serif",
  // unknown to fontconfig (the corpus and other documents name them)
  "Book Antiqua",
  "Helvetica Neue",
  "Lucida Console",
  "Lucida Sans",
  "Gill Sans MT",
  "Segoe UI",
  "Aptos",
  "Open Sans",
  "Times New Roman Bold",
  "Minion Pro",
  "Baskerville",
  "Century",
  "Franklin Gothic Book",
  "Univers",
  "Mangal",
  "David",
  // URW lookalikes, metric aliases and our own faces by name
  "Palatino Linotype",
  "Century Schoolbook",
  "Bookman Old Style",
  "Comic Sans MS",
  "Impact",
  "Arial Narrow",
  "Cambria Math",
  "Calibri",
  "Cambria",
  "Arial",
  "Helvetica",
  "Times New Roman",
  "Times",
  "Courier New",
  "Courier",
  "Liberation Sans",
  "DejaVu Sans",
  "DejaVu Serif",
  "DejaVu Sans Mono",
  "Bitstream Vera Sans",
  "Bitstream Vera Serif",
  "Noto Sans",
  "Noto Serif",
];

describe.skipIf(!have)("font choice against fc-match under the harness's fontconfig", () => {
  it("draws each family with the face fontconfig answers (or, for a face we do not ship, the generic we draw instead)", async () => {
    const wrong: string[] = [];
    for (const name of NAMES) {
      const answer = (await fontMatches(`${name}:lang=en`))[0]!;
      const expected = byFcName.get(answer) ?? NOT_SHIPPED[answer];
      expect(
        expected,
        `fontconfig answers ${answer} for ${name}: a face we neither ship nor know we lack`,
      ).toBeDefined();
      if (substituteFamily(name) !== expected)
        wrong.push(`${name}: fontconfig ${answer}, we ${substituteFamily(name)}`);
    }
    expect(wrong).toEqual([]);
  });

  it("falls back for a missing character to the face fontconfig ranks first for its language", async () => {
    const source = nodeFontSource();
    const faces = new Map<FamilyId, LoadedFace>();
    for (const f of FAMILIES)
      faces.set(f, faceFromBytes(fontFile(f, false, false), (await source.load(fontFile(f, false, false)))!));
    const cases: [string, string, number][] = [];
    for (const name of [
      "Calibri",
      "Cambria",
      "Courier New",
      "Consolas",
      "Georgia",
      "Arial",
      "Times New Roman",
      "Verdana",
      "Never Heard Of",
      "Noto Serif",
    ])
      for (const [lang, cp] of [
        ["he", 0x5d0],
        ["ar", 0x5d0],
        ["en", 0x5d0],
        ["ar", 0x628],
        ["he", 0x628],
        ["fa", 0x6cc],
        ["en", 0x25a0],
        ["en", 0x2605],
        ["en", 0x2610],
        ["en", 0x3b1],
        ["ru", 0x44f],
        ["en", 0x1c5],
      ] as const)
        cases.push([name, lang, cp]);
    const wrong: string[] = [];
    for (const [name, lang, cp] of cases) {
      const answer = (await fontMatches(`${name}:lang=${lang}:charset=${cp.toString(16)}`))[0]!;
      const primary = substituteFamily(name);
      const ours = faces.get(primary)!.covers(cp)
        ? primary
        : (fallbackFamilies(primary, name, fontconfigLanguage(lang)).find((f) => faces.get(f)!.covers(cp)) ?? primary);
      if (fontconfigName(ours) !== answer)
        wrong.push(`${name} ${lang} U+${cp.toString(16)}: fontconfig ${answer}, we ${fontconfigName(ours)}`);
    }
    expect(wrong).toEqual([]);
  });
});
