/**
 * Font choice as LibreOffice 7.4 on Debian gets it from fontconfig (2.14.1, Debian's conf.d) with the
 * fidelity harness's fonts (docs/measuring.md: our font files, the Office names bound to their metric
 * substitutes, Liberation hidden). LibreOffice asks fontconfig for every family it does not have
 * (vcl/unx/generic/fontmanager/fontconfig.cxx `PrintFontManager::Substitute`): a pattern of the
 * family name, the text's language and, for glyph fallback, the characters missing; fontconfig adds
 * its aliases and ranks the fonts it has. This module is that ranking over the faces we ship:
 *
 * 1. a face covering the character (glyph fallback only);
 * 2. the family asked for, or its strong alias (Calibri → Carlito: the catalog's KNOWN names);
 * 3. support for the text's language (fontconfig's orthographies: `fc-query -f '%{lang}'`);
 * 4. the family's generic, from its name (45-latin.conf; anything unknown is sans-serif by
 *    49-sansserif.conf), and that generic's preferred families in order (60-latin.conf: Noto Sans,
 *    DejaVu Sans / Noto Serif, DejaVu Serif / Noto Sans Mono, DejaVu Sans Mono);
 * 5. then the newer font (fontconfig's fontversion): Noto Sans Hebrew (2.0) before DejaVu Sans (2.37 is
 *    155320 in 16.16) only where neither is preferred.
 *
 * Measured with LibreOffice (test/node/render-fonts-libreoffice.test.ts) and checked against `fc-match`
 * under the harness's configuration (test/node/render-fontconfig.test.ts).
 */
import type { FamilyId } from "./family-id";

export type Generic = "serif" | "sans-serif" | "monospace" | "cursive" | "fantasy" | "math";

/** fontconfig's facts about a face we ship (its regular file). */
interface FcFace {
  /** fontconfig's family name. */
  name: string;
  /** head.fontRevision as fontconfig reads it (16.16). */
  version: number;
  /** Languages it supports among those that tell faces apart (DECISIVE_LANGUAGES); every face but Droid Sans Fallback also supports the Latin ones. */
  langs: string;
}

const FACES: Record<FamilyId, FcFace> = {
  Carlito: { name: "Carlito", version: 72352, langs: "el ru uk bg be mk sr" },
  Caladea: { name: "Caladea", version: 65601, langs: "" },
  Arimo: { name: "Arimo", version: 87884, langs: "he yi el ru uk bg be mk sr vi" },
  Tinos: { name: "Tinos", version: 87818, langs: "he yi el ru uk bg be mk sr vi" },
  Cousine: { name: "Cousine", version: 81330, langs: "he yi el ru uk bg be mk sr vi" },
  NotoSans: { name: "Noto Sans", version: 132055, langs: "el ru uk bg be mk sr hi mr ne sa bh bho kok vi" },
  NotoSerif: { name: "Noto Serif", version: 132055, langs: "el ru uk bg be mk sr vi" },
  NotoSansHebrew: { name: "Noto Sans Hebrew", version: 196674, langs: "he yi" },
  NotoSansArabic: {
    name: "Noto Sans Arabic",
    version: 131858,
    langs: "ar fa ur ps-af ps-pk ks ug sd ku-iq ku-ir az-ir ota pa-pk",
  },
  NotoSansSymbols: { name: "Noto Sans Symbols", version: 131269, langs: "" },
  NotoSansSymbols2: { name: "Noto Sans Symbols 2", version: 131596, langs: "" },
  NotoSansMono: { name: "Noto Sans Mono", version: 131990, langs: "el ru uk bg be mk sr vi" },
  DejaVuSans: {
    name: "DejaVu Sans",
    version: 155320,
    langs: "he yi ar fa ug sd ku-iq ku-ir az-ir ota el ru uk bg be mk sr hy ka vi",
  },
  DejaVuSerif: { name: "DejaVu Serif", version: 155320, langs: "el ru uk bg be mk sr hy ka vi" },
  DejaVuSansMono: { name: "DejaVu Sans Mono", version: 155320, langs: "ar fa az-ir el ru uk bg be mk sr hy ka" },
  DroidSansFallback: { name: "Droid Sans Fallback", version: 65536, langs: "ja zh-tw" },
  OpenSymbol: { name: "OpenSymbol", version: 6692536, langs: "" },
};

/** Faces used only where named, never in glyph fallback (OpenSymbol: LibreOffice's symbol-font recoding). */
const NAMED_ONLY: ReadonlySet<FamilyId> = new Set(["OpenSymbol"]);

/** Every face we ship answers to its own family name, as an installed font does in fontconfig. */
const BY_OWN_NAME: ReadonlyMap<string, FamilyId> = new Map(
  (Object.entries(FACES) as [FamilyId, FcFace][]).map(([id, face]) => [normalizeFamily(face.name), id]),
);

/** The family of ours named `name` (its own name, not an alias), if any. */
export function ownFamily(name: string): FamilyId | undefined {
  return BY_OWN_NAME.get(normalizeFamily(name));
}

/** Languages whose support differs between our faces (any other is a Latin language every text face supports). */
const DECISIVE_LANGUAGES = new Set(
  "he yi ar fa ur ps-af ps-pk ks ug sd ku-iq ku-ir az-ir ota pa-pk ja zh-cn zh-tw zh-hk zh-sg zh-mo ko el ru uk bg be mk sr hy ka hi mr ne sa bh bho kok th vi".split(
    " ",
  ),
);

/** 60-latin.conf's preferred families per generic, as far as we ship them (the rest LibreOffice does not find either). */
const PREFERRED: Record<Generic, FamilyId[]> = {
  "sans-serif": ["NotoSans", "DejaVuSans"],
  serif: ["NotoSerif", "DejaVuSerif"],
  monospace: ["NotoSansMono", "DejaVuSansMono"],
  // Z003 and D050000L (URW, 61-urw-fallback-generics.conf) are Debian's faces for these; we ship
  // neither, and fontconfig goes on to sans-serif's list.
  cursive: ["NotoSans", "DejaVuSans"],
  fantasy: ["NotoSans", "DejaVuSans"],
  math: ["NotoSans", "DejaVuSans"],
};

/**
 * 45-latin.conf and 45-generic.conf: families fontconfig marks with a generic (normalized names).
 * Metric aliases resolved before this (Arial, Times New Roman, Courier New ...) are in the catalog.
 */
const GENERIC_OF = new Map<string, Generic>();
const GENERICS: Record<Generic, string> = {
  serif:
    "Bitstream Vera Serif|Cambria|Constantia|DejaVu Serif|Elephant|Garamond|Georgia|Liberation Serif|Luxi Serif|MS Serif|Nimbus Roman No9 L|Nimbus Roman|Palatino Linotype|Thorndale AMT|Thorndale|Times New Roman|Times",
  "sans-serif":
    "Albany AMT|Albany|Arial Unicode MS|Arial|Bitstream Vera Sans|Britannic|Calibri|Candara|Century Gothic|Corbel|DejaVu Sans|Helvetica|Haettenschweiler|Liberation Sans|MS Sans Serif|Nimbus Sans L|Nimbus Sans|Luxi Sans|Tahoma|Trebuchet MS|Twentieth Century|Verdana",
  monospace:
    "Andale Mono|Bitstream Vera Sans Mono|Consolas|Courier New|Courier|Courier Std|Cumberland AMT|Cumberland|DejaVu Sans Mono|Fixedsys|Inconsolata|Liberation Mono|Luxi Mono|Nimbus Mono L|Nimbus Mono|Nimbus Mono PS|Terminal",
  fantasy: "Bauhaus Std|Cooper Std|Copperplate Gothic Std|Impact",
  cursive: "Comic Sans MS|ITC Zapf Chancery Std|Zapfino",
  math: "XITS Math|STIX Two Math|Cambria Math|Latin Modern Math|Minion Math|Lucida Math|Asana Math",
};
for (const [generic, names] of Object.entries(GENERICS) as [Generic, string][])
  for (const n of names.split("|")) GENERIC_OF.set(normalizeFamily(n), generic);

/**
 * Names fontconfig on Debian resolves to a URW face (30-metric-aliases.conf, 61-urw-*.conf:
 * fonts-urw-base35, which LibreOffice finds but we do not ship) → that face's generic, the closest we
 * have: Palatino Linotype → P052, Century Schoolbook → C059, Bookman Old Style → URW Bookman, Avant
 * Garde → URW Gothic, Zapf Chancery → Z003.
 */
const URW_LOOKALIKES: Record<string, Generic> = {
  "palatino linotype": "serif",
  palatino: "serif",
  "century schoolbook": "serif",
  "new century schoolbook": "serif",
  "century schoolbook l": "serif",
  "bookman old style": "serif",
  bookman: "serif",
  "itc bookman": "serif",
  "urw bookman": "serif",
  "urw bookman l": "serif",
  "itc avant garde gothic": "sans-serif",
  "avant garde": "sans-serif",
  "zapf chancery": "cursive",
  "itc zapf chancery": "cursive",
  c059: "serif",
  p052: "serif",
  z003: "cursive",
  d050000l: "fantasy",
};

export function normalizeFamily(name: string): string {
  return name.trim().replace(/\s+/g, " ").toLowerCase();
}

/** The generic fontconfig gives a family name (sans-serif when none: 49-sansserif.conf). */
export function genericOf(name: string): Generic {
  const key = normalizeFamily(name);
  return GENERIC_OF.get(key) ?? URW_LOOKALIKES[key] ?? "sans-serif";
}

/** The face LibreOffice draws a family with when it has neither the family nor a strong alias for it. */
export function genericFamily(name: string): FamilyId {
  return PREFERRED[genericOf(name)][0]!;
}

/**
 * fontconfig's language for a BCP 47 tag as LibreOffice maps it (`mapToFontConfigLangTag`): the whole
 * tag, then language-region, then the language; undefined when fontconfig does not know it.
 */
export function fontconfigLanguage(bcp47: string | undefined): string | undefined {
  if (!bcp47) return undefined;
  const tag = bcp47.toLowerCase().replace(/_/g, "-");
  const [lang, ...rest] = tag.split("-");
  const region = rest.find((p) => p.length === 2);
  for (const candidate of [tag, region ? `${lang}-${region}` : "", lang ?? ""])
    if (candidate && DECISIVE_LANGUAGES.has(candidate)) return candidate;
  return lang && /^[a-z]{2,3}$/.test(lang) ? lang : undefined;
}

/** Whether faces differ in supporting `lang` (then it orders them before their generic's preference). */
export function isDecisiveLanguage(lang: string | undefined): boolean {
  return lang !== undefined && DECISIVE_LANGUAGES.has(lang);
}

/** Whether fontconfig counts `family` as supporting the language of BCP 47 tag `tag` (only for the languages that tell faces apart). */
export function supportsLanguage(family: FamilyId, tag: string | undefined): boolean {
  const lang = fontconfigLanguage(tag);
  return lang !== undefined && DECISIVE_LANGUAGES.has(lang) && supports(family, lang);
}

function supports(family: FamilyId, lang: string | undefined): boolean {
  if (lang && DECISIVE_LANGUAGES.has(lang)) return FACES[family].langs.split(" ").includes(lang);
  return family !== "DroidSansFallback"; // a Latin language (or none)
}

/**
 * Our faces in fontconfig's order for glyph fallback from `primary` (asked for under a name of
 * generic `generic`), for text in fontconfig language `lang`: the caller takes the first that has the
 * character.
 */
export function fallbackOrder(primary: FamilyId, generic: Generic, lang: string | undefined): FamilyId[] {
  const preferred = PREFERRED[generic];
  const rank = (f: FamilyId) => {
    const i = preferred.indexOf(f);
    return i < 0 ? preferred.length : i;
  };
  return (Object.keys(FACES) as FamilyId[])
    .filter((f) => f !== primary && !NAMED_ONLY.has(f))
    .sort(
      (a, b) =>
        Number(supports(b, lang)) - Number(supports(a, lang)) ||
        rank(a) - rank(b) ||
        FACES[b].version - FACES[a].version,
    );
}

/** fontconfig's family name of a face we ship (for messages and tests). */
export function fontconfigName(family: FamilyId): string {
  return FACES[family].name;
}

/**
 * The language fontconfig is asked with for a character LibreOffice falls back for: the text's
 * language for its script (for Hebrew and Arabic letters the document's complex-script language),
 * or, when there is none, the script's exemplar language (`getExemplarLangTagForCodePoint`).
 */
export function fallbackLanguage(
  codePoint: number,
  languages: { latin?: string; complex?: string },
): string | undefined {
  if (isHebrew(codePoint)) return fontconfigLanguage(languages.complex) ?? "he";
  if (isArabic(codePoint)) return fontconfigLanguage(languages.complex) ?? "ar";
  return fontconfigLanguage(languages.latin);
}

export function isHebrew(cp: number): boolean {
  return (cp >= 0x0590 && cp <= 0x05ff) || (cp >= 0xfb1d && cp <= 0xfb4f);
}

export function isArabic(cp: number): boolean {
  return (
    (cp >= 0x0600 && cp <= 0x06ff) ||
    (cp >= 0x0750 && cp <= 0x077f) ||
    (cp >= 0x0870 && cp <= 0x08ff) ||
    (cp >= 0xfb50 && cp <= 0xfdff) ||
    (cp >= 0xfe70 && cp <= 0xfeff)
  );
}
