/**
 * Our open fonts and how a document's family names map onto them.
 *
 * Files are named "<Family>-<Style>.ttf" (e.g. "Carlito-BoldItalic.ttf"): that is their name under
 * /fonts/ in the static assets; files.json says where each comes from (a path from the repository
 * root: the @expo-google-fonts and dejavu-fonts-ttf packages, full TrueType files not split by
 * script, and src/render/fonts/vendor for Droid Sans Fallback).
 */
import type { FontTableEntry } from "../model/types";
import fontFiles from "./files.json";
import { fallbackOrder, genericFamily, genericOf, normalizeFamily, ownFamily, supportsLanguage } from "./fontconfig";
import type { FamilyId } from "./family-id";

export type { FamilyId };

export type StyleName = "Regular" | "Bold" | "Italic" | "BoldItalic";

interface FamilySpec {
  /** Whether the family has italic / bold files; a missing style uses the regular face (we synthesize nothing). */
  italics: boolean;
  bolds: boolean;
  serif: boolean;
}

const FAMILIES: Record<FamilyId, FamilySpec> = {
  Carlito: { italics: true, bolds: true, serif: false },
  Caladea: { italics: true, bolds: true, serif: true },
  Arimo: { italics: true, bolds: true, serif: false },
  Tinos: { italics: true, bolds: true, serif: true },
  Cousine: { italics: true, bolds: true, serif: false },
  NotoSans: { italics: true, bolds: true, serif: false },
  NotoSerif: { italics: true, bolds: true, serif: true },
  NotoSansHebrew: { italics: false, bolds: true, serif: false },
  NotoSansArabic: { italics: false, bolds: true, serif: false },
  // Dingbats, arrows, geometric shapes, math: Wingdings and Symbol bullets mapped to Unicode.
  NotoSansSymbols: { italics: false, bolds: true, serif: false },
  NotoSansSymbols2: { italics: false, bolds: false, serif: false },
  // fontconfig's first monospace face here (Consolas and other monospace names).
  NotoSansMono: { italics: false, bolds: true, serif: false },
  // fontconfig's second choice of each generic (60-latin.conf), first for what the Noto face lacks:
  // Hebrew and Arabic (DejaVu Sans), symbols, and the families named so.
  DejaVuSans: { italics: true, bolds: true, serif: false },
  DejaVuSerif: { italics: true, bolds: true, serif: true },
  DejaVuSansMono: { italics: true, bolds: true, serif: false },
  // Chinese, Japanese and Korean (see vendor/README.md): one weight, as LibreOffice has it.
  DroidSansFallback: { italics: false, bolds: false, serif: false },
  // LibreOffice's own symbol font: what it draws Symbol and Wingdings bullets and w:sym characters
  // with (see model/symbols.ts drawnWithOpenSymbol); never a glyph fallback here.
  OpenSymbol: { italics: false, bolds: false, serif: false },
};

export const FAMILY_IDS = Object.keys(FAMILIES) as FamilyId[];

export function styleName(bold: boolean, italic: boolean): StyleName {
  return bold ? (italic ? "BoldItalic" : "Bold") : italic ? "Italic" : "Regular";
}

/** The file holding `family` in this weight/style (a style the family lacks falls back to regular). */
export function fontFile(family: FamilyId, bold: boolean, italic: boolean): string {
  const spec = FAMILIES[family];
  return `${family}-${styleName(bold && spec.bolds, italic && spec.italics)}.ttf`;
}

export function isSerif(family: FamilyId): boolean {
  return FAMILIES[family].serif;
}

/**
 * Every file of the catalog → its path from the repository root. files.json is also
 * read by scripts/dev-setup.mjs, which copies these files into assets/fonts/.
 */
export const NODE_FONT_PACKAGE_PATHS: ReadonlyMap<string, string> = new Map(
  Object.entries(fontFiles as Record<string, string>),
);

// ---------------------------------------------------------------------------------------------
// Family substitution.

/**
 * Names with a metric-compatible open substitute, or our faces by name. Keys are normalized (lower
 * case, single spaces). Arial Narrow is best effort: LibreOffice on Debian draws it with URW's Nimbus
 * Sans Narrow, which we do not ship; Arimo is its design at full width.
 */
const KNOWN: Record<string, FamilyId> = {
  // The harness's strong aliases (test/node/support/libreoffice.ts FONT_ALIASES) and fontconfig's metric ones.
  calibri: "Carlito",
  "calibri light": "Carlito",
  carlito: "Carlito",
  cambria: "Caladea",
  "cambria math": "Caladea",
  caladea: "Caladea",
  arial: "Arimo",
  helvetica: "Arimo",
  "liberation sans": "Arimo",
  "arial narrow": "Arimo",
  arimo: "Arimo",
  "times new roman": "Tinos",
  times: "Tinos",
  "liberation serif": "Tinos",
  tinos: "Tinos",
  "courier new": "Cousine",
  courier: "Cousine",
  "liberation mono": "Cousine",
  cousine: "Cousine",
  // The Bitstream Vera names DejaVu answers to (57-dejavu-*.conf); our faces' own names are ownFamily's.
  "bitstream vera sans": "DejaVuSans",
  "bitstream vera serif": "DejaVuSerif",
  "bitstream vera sans mono": "DejaVuSansMono",
};

/**
 * Families we have no substitute for go to fontconfig's choice (fontconfig.ts): the first face of
 * their generic, by name only (45-latin.conf): Georgia, Garamond, Constantia → Noto Serif, Consolas →
 * Noto Sans Mono, anything unknown → Noto Sans (LibreOffice on Debian with the harness's fonts,
 * measured: "Times New Roman Bold", Book Antiqua, Helvetica Neue, Lucida Console → Noto Sans). The
 * font table's class, pitch and PANOSE are not read, as LibreOffice 7.4 does not read them: a family
 * of class roman is no serif to it ("inherit" and "Times New Roman Bold": Noto Sans).
 */
export const UNKNOWN_SANS: FamilyId = "NotoSans";

function normalize(name: string): string {
  return normalizeFamily(name);
}

/**
 * The catalog family that renders `name`: a known substitute, else fontconfig's generic choice. The
 * font table's alternate name (w:altName) is not followed: LibreOffice 7.4 ignores it for Latin text
 * ("inherit" with altName Times New Roman, "Bremen Bd BT" with altName Courier New come out in Noto Sans).
 */
export function substituteFamily(name: string, fontTable?: ReadonlyMap<string, FontTableEntry>): FamilyId {
  const direct = namedFamily(name);
  if (direct) return direct;
  const entry = fontTable?.get(name) ?? findEntry(fontTable, name);
  // An East Asian font's table entry describes its ideographs (a full-width "fixed" grid, Mincho
  // as roman): LibreOffice draws its Latin text in Noto Sans whatever the entry says (measured: MS
  // Mincho, MS Gothic, 宋体 with fixed pitch, roman or modern class and their PANOSE).
  if (entry && EAST_ASIAN_CHARSETS.has(entry.charset ?? "")) return UNKNOWN_SANS;
  return genericFamily(name);
}

/**
 * The family fontconfig finds `name` as (one of ours, or a strong or metric alias), or undefined when
 * it only gets a generic face: then LibreOffice's face for a run depends on the run's language.
 */
export function namedFamily(name: string): FamilyId | undefined {
  return KNOWN[normalize(name)] ?? ownFamily(name) ?? LATIN_OF_EAST_ASIAN[normalize(name)];
}

/** w:charset values of East Asian fonts: Shift-JIS, Hangul, Johab, GB2312, Big5. */
const EAST_ASIAN_CHARSETS = new Set(["80", "81", "82", "86", "88"]);

/**
 * Latin text in East Asian families that fontconfig (through LibreOffice) does not give the default
 * Noto Sans, measured with the harness's fonts: ＭＳ 明朝 and SimSun come out in Noto Serif, NSimSun in
 * Noto Sans Mono (宋体, MS Mincho, ＭＳ ゴシック, SimHei, MingLiU, Batang ... in Noto Sans). Their East
 * Asian text stays Droid Sans Fallback's (eastAsianFamily does not read this table).
 */
const LATIN_OF_EAST_ASIAN: Record<string, FamilyId> = {
  "ｍｓ 明朝": "NotoSerif",
  simsun: "NotoSerif",
  nsimsun: "NotoSansMono",
};

/**
 * The face for a run's East Asian text (ideographs, kana, Hangul, and with w:hint="eastAsia" the
 * shared punctuation): a family we know by name (a Latin font set as the East Asian one), else Droid
 * Sans Fallback — SimSun, MS Mincho, Malgun Gothic and every other CJK face come out in it, as in
 * LibreOffice, which asks fontconfig for them with the run's East Asian language.
 */
export function eastAsianFamily(name: string, fontTable?: ReadonlyMap<string, FontTableEntry>): FamilyId {
  return knownEastAsianFamily(name, fontTable) ?? "DroidSansFallback";
}

/** An East Asian font name we know (an alias or one of our faces by name, or through its w:altName). */
function knownEastAsianFamily(name: string, fontTable?: ReadonlyMap<string, FontTableEntry>): FamilyId | undefined {
  const known = (n: string) => KNOWN[normalize(n)] ?? ownFamily(n);
  const direct = known(name);
  if (direct) return direct;
  const entry = fontTable?.get(name) ?? findEntry(fontTable, name);
  for (const alt of entry?.altName?.split(/[,;]/) ?? []) {
    const viaAlt = known(alt);
    if (viaAlt) return viaAlt;
  }
  return undefined;
}

/**
 * The face whose line a run's East Asian text takes: the one fontconfig gives LibreOffice for the
 * East Asian font name and the run's East Asian language, whichever face then draws the ideographs.
 * A name we know is its face; an unknown one (SimSun, MS Mincho) is Droid Sans Fallback for a
 * language Droid supports (Japanese, zh-TW), else fontconfig's generic face (Noto Sans or Serif).
 * Measured at 12 pt: 15.7 pt lines in ja-JP and zh-TW, 16.3 pt in zh-CN, zh-HK, ko-KR, en-US or none
 * (LibreOffice's default zh-CN); "Noto Sans" named as the East Asian font 16.3 pt in ja-JP too.
 */
export function eastAsianLineFamily(
  name: string,
  lang: string | undefined,
  fontTable?: ReadonlyMap<string, FontTableEntry>,
): FamilyId {
  const known = knownEastAsianFamily(name, fontTable);
  if (known) return known;
  return supportsLanguage("DroidSansFallback", lang) ? "DroidSansFallback" : substituteFamily(name, fontTable);
}

function findEntry(
  fontTable: ReadonlyMap<string, FontTableEntry> | undefined,
  name: string,
): FontTableEntry | undefined {
  if (!fontTable) return undefined;
  const wanted = normalize(name);
  for (const [key, entry] of fontTable) if (normalize(key) === wanted) return entry;
  return undefined;
}

/**
 * Faces tried, in order, for characters the primary face lacks, when the primary was asked for as
 * `requested` and the character's text is in `lang` (fontconfig's language; fontconfig.ts
 * `fallbackLanguage`): fontconfig's ranking. For a sans-serif family DejaVu Sans comes before Noto
 * Sans Hebrew and Noto Sans Arabic (it is sans-serif's second preferred face and supports Hebrew
 * and Arabic); for a serif or monospace one the newer Noto Sans Hebrew wins where the language is
 * Hebrew (measured: Cambria with w:bidi he-IL, Consolas; with ar-SA DejaVu Sans).
 */
export function fallbackFamilies(primary: FamilyId, requested: string, lang: string | undefined): FamilyId[] {
  const order = fallbackOrder(primary, genericOf(requested), lang);
  // East Asian text drawn with Droid Sans Fallback (`eastAsianFamily`): the face fontconfig gives
  // the font's own name comes first (ＭＳ 明朝: Noto Serif, 宋体: Noto Sans). It is LibreOffice's Asian
  // font, Droid only its glyph fallback, so symbols Droid lacks are that face's where it has them
  // (measured: −, ※, …, —, ℃ after ideographs in ＭＳ 明朝 are Noto Serif's, in en-US and ja-JP).
  if (primary !== "DroidSansFallback") return order;
  const own = substituteFamily(requested);
  return own === primary ? order : [own, ...order.filter((f) => f !== own)];
}

/**
 * The symbol blocks LibreOffice draws with DejaVu Sans when the primary lacks a glyph (measured:
 * arrows, math operators, technical, enclosed numbers, box drawing, blocks, shapes, miscellaneous
 * symbols, dingbats, supplemental arrows and math).
 */
const SYMBOL_BLOCKS: [number, number][] = [
  [0x2190, 0x23ff],
  [0x2460, 0x27bf],
  [0x27f0, 0x2bff],
];

/** Whether `codePoint` is in one of those symbol blocks. */
export function isSymbolBlock(codePoint: number): boolean {
  return SYMBOL_BLOCKS.some(([lo, hi]) => codePoint >= lo && codePoint <= hi);
}

/** Script-specific fallbacks are worth loading only for characters of their script. */
const ARABIC: [number, number][] = [
  [0x0600, 0x06ff],
  [0x0750, 0x077f],
  [0x0870, 0x08ff],
  [0xfb50, 0xfdff],
  [0xfe70, 0xfeff],
];
const SCRIPT_RANGES: Partial<Record<FamilyId, [number, number][]>> = {
  NotoSansHebrew: [
    [0x0590, 0x05ff],
    [0xfb1d, 0xfb4f],
  ],
  NotoSansArabic: ARABIC,
  // Hangul Jamo, CJK radicals to ideographs (with kana, bopomofo, compatibility Jamo), Hangul
  // syllables, compatibility ideographs, vertical and small forms, full-width forms.
  DroidSansFallback: [
    [0x1100, 0x11ff],
    [0x2e80, 0x9fff],
    [0xa960, 0xa97f],
    [0xac00, 0xd7ff],
    [0xf900, 0xfaff],
    [0xfe10, 0xfe1f],
    [0xfe30, 0xfe4f],
    [0xff00, 0xffef],
    [0x20000, 0x2fa1f],
  ],
};

/** Whether `family` may have a glyph for `codePoint` (false only where we know it cannot). */
export function mayCover(family: FamilyId, codePoint: number): boolean {
  const ranges = SCRIPT_RANGES[family];
  return !ranges || ranges.some(([lo, hi]) => codePoint >= lo && codePoint <= hi);
}
