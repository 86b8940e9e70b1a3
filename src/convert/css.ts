/**
 * The CSS people put in documents: `<style>` rules with simple selectors (type, class, id, `*`,
 * compounds of those, descendant and child combinators, comma lists) and inline `style`
 * attributes, cascaded by specificity and order. `@media print` and `@media all` rules apply
 * (a document is printed); other at-rules (`@import`, `@font-face`, `@page`, screen media) are
 * skipped: no remote stylesheets, ever. Selectors with pseudo-classes, attributes or sibling
 * combinators are skipped whole rather than guessed.
 */
import { LIMITS } from "../limits";

export type Declarations = Map<string, string>;

interface Compound {
  tag?: string;
  id?: string;
  classes: string[];
}

interface Selector {
  /** Compounds left to right; `combinators[i]` joins parts[i] and parts[i + 1]. */
  parts: Compound[];
  combinators: (" " | ">")[];
  specificity: number;
}

export interface CssRule {
  selector: Selector;
  declarations: Declarations;
  order: number;
}

/** What selector matching needs of an element. */
export interface StyledElement {
  tag: string;
  id?: string;
  classes: string[];
  parent?: StyledElement;
}

/** Parses a stylesheet into rules (at most LIMITS.convert.maxCssRules selectors). */
export function parseStylesheet(text: string, rules: CssRule[] = []): CssRule[] {
  const css = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/<!--|-->/g, " ");
  let i = 0;
  while (i < css.length && rules.length < LIMITS.convert.maxCssRules) {
    const open = css.indexOf("{", i);
    if (open < 0) break;
    const prelude = css.slice(i, open).trim();
    if (prelude.startsWith("@")) {
      const end = matchingBrace(css, open);
      if (/^@media\b/i.test(prelude) && /\b(print|all)\b/i.test(prelude) && !/\bnot\b/i.test(prelude)) {
        parseStylesheet(css.slice(open + 1, end), rules);
      }
      i = end + 1;
      continue;
    }
    const close = css.indexOf("}", open);
    const body = css.slice(open + 1, close < 0 ? css.length : close);
    const declarations = parseDeclarations(body);
    for (const sel of prelude.split(",")) {
      const selector = parseSelector(sel.trim());
      if (selector) rules.push({ selector, declarations, order: rules.length });
    }
    i = close < 0 ? css.length : close + 1;
  }
  return rules;
}

function matchingBrace(css: string, open: number): number {
  let depth = 0;
  for (let j = open; j < css.length; j++) {
    if (css[j] === "{") depth++;
    else if (css[j] === "}" && --depth === 0) return j;
  }
  return css.length;
}

/** `a: b; c: d !important` → a map of lower-cased property → value (`!important` dropped). */
export function parseDeclarations(text: string): Declarations {
  const out: Declarations = new Map();
  for (const decl of text.split(";")) {
    const colon = decl.indexOf(":");
    if (colon < 0) continue;
    const prop = decl.slice(0, colon).trim().toLowerCase();
    const value = decl
      .slice(colon + 1)
      .replace(/!\s*important\s*$/i, "")
      .trim();
    if (prop && value) out.set(prop, value);
  }
  return out;
}

function parseSelector(text: string): Selector | null {
  if (!text || /[:[\]+~]/.test(text)) return null;
  const tokens = text.replace(/\s*>\s*/g, " > ").split(/\s+/);
  const parts: Compound[] = [];
  const combinators: (" " | ">")[] = [];
  let pending: " " | ">" = " ";
  let specificity = 0;
  for (const tok of tokens) {
    if (tok === ">") {
      pending = ">";
      continue;
    }
    const m = /^([a-zA-Z][a-zA-Z0-9-]*|\*)?((?:[.#][a-zA-Z_-][\w-]*)*)$/.exec(tok);
    if (!m) return null;
    const compound: Compound = { classes: [] };
    if (m[1] && m[1] !== "*") {
      compound.tag = m[1].toLowerCase();
      specificity += 1;
    }
    for (const piece of m[2]!.match(/[.#][\w-]+/g) ?? []) {
      if (piece[0] === "#") {
        compound.id = piece.slice(1);
        specificity += 10_000;
      } else {
        compound.classes.push(piece.slice(1));
        specificity += 100;
      }
    }
    if (parts.length) combinators.push(pending);
    parts.push(compound);
    pending = " ";
  }
  return parts.length ? { parts, combinators, specificity } : null;
}

function matchesCompound(c: Compound, el: StyledElement): boolean {
  if (c.tag && c.tag !== el.tag) return false;
  if (c.id && c.id !== el.id) return false;
  return c.classes.every((cls) => el.classes.includes(cls));
}

export function matches(sel: Selector, el: StyledElement): boolean {
  return matchFrom(sel, sel.parts.length - 1, el);
}

function matchFrom(sel: Selector, k: number, el: StyledElement): boolean {
  if (!matchesCompound(sel.parts[k]!, el)) return false;
  if (k === 0) return true;
  if (sel.combinators[k - 1] === ">") return el.parent ? matchFrom(sel, k - 1, el.parent) : false;
  for (let p = el.parent; p; p = p.parent) if (matchFrom(sel, k - 1, p)) return true;
  return false;
}

/** The declarations that apply to an element: matching rules by specificity then order, then its `style`. */
export function cascade(rules: readonly CssRule[], el: StyledElement, inline: string | undefined): Declarations {
  const matched = rules.filter((r) => matches(r.selector, el));
  matched.sort((a, b) => a.selector.specificity - b.selector.specificity || a.order - b.order);
  const out: Declarations = new Map();
  for (const r of matched) for (const [k, v] of r.declarations) out.set(k, v);
  if (inline) for (const [k, v] of parseDeclarations(inline)) out.set(k, v);
  return expandShorthands(out);
}

/** `margin`, `padding`, `border`, `font`-less shorthands people use, as their longhands. */
function expandShorthands(d: Declarations): Declarations {
  for (const box of ["margin", "padding"]) {
    const v = d.get(box);
    if (v === undefined) continue;
    const [t, r = t, b = t, l = r] = v.split(/\s+/);
    for (const [side, val] of [
      ["top", t],
      ["right", r],
      ["bottom", b],
      ["left", l],
    ] as const) {
      if (!d.has(`${box}-${side}`) || [...d.keys()].indexOf(`${box}-${side}`) < [...d.keys()].indexOf(box))
        d.set(`${box}-${side}`, val!);
    }
  }
  const border = d.get("border");
  if (border !== undefined) {
    for (const side of ["top", "right", "bottom", "left"]) {
      const key = `border-${side}`;
      if (!d.has(key) || [...d.keys()].indexOf(key) < [...d.keys()].indexOf("border")) d.set(key, border);
    }
  }
  const bg = d.get("background");
  if (bg !== undefined && !d.has("background-color")) {
    const color = bg.split(/\s+/).find((p) => parseColor(p) !== undefined);
    if (color) d.set("background-color", color);
  }
  return d;
}

// ---------------------------------------------------------------------------------------------
// Values

const NAMED_COLORS: Record<string, string> = {
  black: "000000",
  white: "FFFFFF",
  red: "FF0000",
  green: "008000",
  blue: "0000FF",
  yellow: "FFFF00",
  gray: "808080",
  grey: "808080",
  silver: "C0C0C0",
  maroon: "800000",
  navy: "000080",
  purple: "800080",
  teal: "008080",
  olive: "808000",
  lime: "00FF00",
  aqua: "00FFFF",
  fuchsia: "FF00FF",
  orange: "FFA500",
  darkgray: "A9A9A9",
  darkgrey: "A9A9A9",
  lightgray: "D3D3D3",
  lightgrey: "D3D3D3",
  darkblue: "00008B",
  darkred: "8B0000",
  darkgreen: "006400",
  whitesmoke: "F5F5F5",
  gainsboro: "DCDCDC",
  dimgray: "696969",
  dimgrey: "696969",
  steelblue: "4682B4",
  lightblue: "ADD8E6",
  lightyellow: "FFFFE0",
  beige: "F5F5DC",
};

/** `#abc`, `#aabbcc`, `rgb(1, 2, 3)`, a named colour → `RRGGBB`; `transparent`/unknown → undefined. */
export function parseColor(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const v = value.trim().toLowerCase();
  let m = /^#([0-9a-f]{3})$/.exec(v);
  if (m)
    return m[1]!
      .split("")
      .map((ch) => ch + ch)
      .join("")
      .toUpperCase();
  m = /^#([0-9a-f]{6})(?:[0-9a-f]{2})?$/.exec(v);
  if (m) return m[1]!.toUpperCase();
  m = /^rgba?\(\s*(\d+)[\s,]+(\d+)[\s,]+(\d+)(?:[\s,/]+([\d.]+%?))?\s*\)$/.exec(v);
  if (m) {
    if (m[4] !== undefined && parseFloat(m[4]) === 0) return undefined;
    return [m[1], m[2], m[3]]
      .map((n) => Math.min(255, Number(n)).toString(16).padStart(2, "0"))
      .join("")
      .toUpperCase();
  }
  return NAMED_COLORS[v];
}

/**
 * A CSS length in points. `em` and `%` are relative to `fontPt` (or `percentOf` for `%` when
 * given); unitless 0 is 0. Unknown → undefined.
 */
export function lengthPt(value: string | undefined, fontPt: number, percentOf?: number): number | undefined {
  if (value === undefined) return undefined;
  const m = /^(-?[\d.]+)(px|pt|em|rem|%|in|cm|mm|pc|ex|ch)?$/.exec(value.trim().toLowerCase());
  if (!m) return undefined;
  const n = parseFloat(m[1]!);
  if (!Number.isFinite(n)) return undefined;
  switch (m[2]) {
    case "px":
      return n * 0.75;
    case "pt":
      return n;
    case "em":
      return n * fontPt;
    case "rem":
      return n * 12;
    case "ex":
    case "ch":
      return n * fontPt * 0.5;
    case "%":
      return (n / 100) * (percentOf ?? fontPt);
    case "in":
      return n * 72;
    case "cm":
      return (n * 72) / 2.54;
    case "mm":
      return (n * 72) / 25.4;
    case "pc":
      return n * 12;
    default:
      return n === 0 ? 0 : undefined;
  }
}

const FONT_SIZE_KEYWORDS: Record<string, number> = {
  "xx-small": 7,
  "x-small": 7.5,
  small: 10,
  medium: 12,
  large: 13.5,
  "x-large": 18,
  "xx-large": 24,
  "xxx-large": 36,
};

/** `font-size` in points, from the parent's size. */
export function fontSizePt(value: string | undefined, parentPt: number): number | undefined {
  if (!value) return undefined;
  const v = value.trim().toLowerCase();
  if (v in FONT_SIZE_KEYWORDS) return FONT_SIZE_KEYWORDS[v];
  if (v === "smaller") return parentPt / 1.2;
  if (v === "larger") return parentPt * 1.2;
  const pt = lengthPt(v, parentPt);
  return pt !== undefined && pt > 0 && pt < 1000 ? pt : undefined;
}

/** The first family of a `font-family` list that is not a generic one, or the generic's Office face. */
export function fontFamily(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const families = value
    .split(",")
    .map((f) => f.trim().replace(/^["']|["']$/g, ""))
    .filter(Boolean);
  const GENERIC: Record<string, string> = {
    serif: "Times New Roman",
    "sans-serif": "Arial",
    monospace: "Courier New",
    "system-ui": "Arial",
    "ui-sans-serif": "Arial",
    "ui-serif": "Times New Roman",
    "ui-monospace": "Courier New",
    cursive: "Comic Sans MS",
    fantasy: "Arial",
  };
  const first = families[0];
  if (!first) return undefined;
  return GENERIC[first.toLowerCase()] ?? first;
}
