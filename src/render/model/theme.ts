/**
 * The theme part (word/theme/theme1.xml): major/minor fonts and the colour scheme, so theme
 * references in runs (w:asciiTheme, w:themeColor) resolve to names and hex values.
 */
import type { XNode } from "./xml-tree";
import { hexColor, tintShade } from "./units";

export interface Theme {
  majorLatin?: string;
  minorLatin?: string;
  majorEastAsia?: string;
  minorEastAsia?: string;
  majorComplex?: string;
  minorComplex?: string;
  colors: Map<string, string>;
}

export const EMPTY_THEME: Theme = { colors: new Map() };

function fontOf(node: XNode | undefined, child: string): string | undefined {
  const t = node?.child(child)?.attr("typeface");
  return t ? t : undefined;
}

/** Language tag (w:themeFontLang) → the theme's script name (a:font script="…"). */
function scriptOf(lang: string | undefined): string | undefined {
  if (!lang) return undefined;
  const l = lang.toLowerCase();
  if (l.startsWith("ja")) return "Jpan";
  if (l.startsWith("ko")) return "Hang";
  if (l === "zh-tw" || l === "zh-hk" || l === "zh-mo" || l.startsWith("zh-hant")) return "Hant";
  if (l.startsWith("zh")) return "Hans";
  if (l.startsWith("he") || l.startsWith("yi")) return "Hebr";
  if (l.startsWith("ar") || l.startsWith("fa") || l.startsWith("ur")) return "Arab";
  if (l.startsWith("th")) return "Thai";
  return undefined;
}

/** The typeface of `slot` (ea, cs), else the per-script font for `lang`. */
function fontFor(node: XNode | undefined, slot: string, lang: string | undefined): string | undefined {
  const direct = fontOf(node, slot);
  if (direct) return direct;
  const script = scriptOf(lang);
  if (!script || !node) return undefined;
  for (const c of node.children)
    if (c.name === "font" && c.attr("script") === script) return c.attr("typeface") || undefined;
  return undefined;
}

export function readTheme(root: XNode | undefined, lang: { eastAsia?: string; bidi?: string } = {}): Theme {
  if (!root) return EMPTY_THEME;
  const elements = root.child("themeElements");
  const fonts = elements?.child("fontScheme");
  const major = fonts?.child("majorFont");
  const minor = fonts?.child("minorFont");
  const colors = new Map<string, string>();
  for (const c of elements?.child("clrScheme")?.children ?? []) {
    const spec = c.children[0];
    const hex =
      spec?.name === "srgbClr"
        ? hexColor(spec.attr("val"))
        : spec?.name === "sysClr"
          ? hexColor(spec.attr("lastClr"))
          : undefined;
    if (hex) colors.set(c.name, hex);
  }
  return {
    majorLatin: fontOf(major, "latin"),
    minorLatin: fontOf(minor, "latin"),
    majorEastAsia: fontFor(major, "ea", lang.eastAsia),
    minorEastAsia: fontFor(minor, "ea", lang.eastAsia),
    majorComplex: fontFor(major, "cs", lang.bidi),
    minorComplex: fontFor(minor, "cs", lang.bidi),
    colors,
  };
}

/**
 * The family of a theme reference the theme leaves empty: a name no font has, so font choice takes
 * the generic face and, for right-to-left text, the face for its script (text-pieces' stand-in).
 */
export const UNNAMED_FONT = "(unnamed theme font)";

/** w:asciiTheme="minorHAnsi" etc. → a typeface name. */
export function themeFont(theme: Theme, ref: string | undefined): string | undefined {
  if (!ref) return undefined;
  const major = ref.startsWith("major");
  if (ref.endsWith("EastAsia")) return major ? theme.majorEastAsia : theme.minorEastAsia;
  if (ref.endsWith("Bidi")) return major ? theme.majorComplex : theme.minorComplex;
  return major ? theme.majorLatin : theme.minorLatin;
}

/** Word's w:themeColor names → scheme slots (text1 = dk1 ...). */
const SLOT: Record<string, string> = {
  text1: "dk1",
  text2: "dk2",
  background1: "lt1",
  background2: "lt2",
  dark1: "dk1",
  dark2: "dk2",
  light1: "lt1",
  light2: "lt2",
  hyperlink: "hlink",
  followedHyperlink: "folHlink",
};

export function themeColor(theme: Theme, name: string | undefined, tint?: string, shade?: string): string | undefined {
  if (!name) return undefined;
  const hex = theme.colors.get(SLOT[name] ?? name);
  return hex ? tintShade(hex, tint, shade) : undefined;
}
