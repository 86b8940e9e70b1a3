/**
 * Readers of w:rPr / w:pPr / borders / shading into partial property sets, and the overlay that
 * stacks them (docDefaults → table style → paragraph style → character style → direct).
 * A partial set holds only what its element says; resolution fills the rest with defaults.
 */
import type {
  Border,
  Color,
  LineSpacing,
  ParagraphStyle,
  RunStyle,
  TabAlign,
  TabLeader,
  TabStop,
  UnderlineStyle,
  ParagraphFrame,
  DropCapFrame,
} from "./types";
import type { XNode } from "./xml-tree";
import { type Theme, themeColor, themeFont, UNNAMED_FONT } from "./theme";
import { eighths, flag, halfPoints, hexColor, highlightColor, int, measure, twips, val } from "./units";

/** Chinese, Japanese and Korean language tags (w:lang w:eastAsia). */
const CJK_LANGUAGE = /^(zh|ja|ko)\b/i;
const SIMPLIFIED_CHINESE = /^zh(-(cn|sg|hans)\b.*)?$/i;

/** Toggle properties: XOR-ed across style levels (ECMA-376 17.7.3), absolute in direct formatting. */
export const TOGGLES = ["bold", "italic", "caps", "smallCaps", "strike", "doubleStrike", "hidden"] as const;
export type Toggle = (typeof TOGGLES)[number];

export interface RunProps {
  rStyle?: string;
  font?: string;
  fontEastAsia?: string;
  fontComplex?: string;
  eastAsiaHint?: boolean;
  eastAsiaLang?: string;
  /** w:lang w:val and w:bidi: the language of Latin and of complex-script text. */
  latinLang?: string;
  complexLang?: string;
  size?: number;
  sizeComplex?: number;
  bold?: boolean;
  italic?: boolean;
  underline?: UnderlineStyle;
  underlineColor?: Color | null;
  strike?: boolean;
  doubleStrike?: boolean;
  color?: Color | null;
  highlight?: Color | null;
  shading?: Color | null;
  caps?: boolean;
  smallCaps?: boolean;
  vertAlign?: RunStyle["vertAlign"];
  charSpacing?: number;
  /** w:kern: pair kerning on (any non-zero value: LibreOffice ignores the size threshold). */
  kern?: boolean;
  position?: number;
  scale?: number;
  hidden?: boolean;
  rtl?: boolean;
  complexScript?: boolean;
}

export interface Indent {
  left?: number;
  right?: number;
  /** Signed: negative = hanging. */
  firstLine?: number;
}

export interface ParaProps {
  pStyle?: string;
  align?: ParagraphStyle["align"];
  ind: Indent;
  spaceBefore?: number;
  spaceAfter?: number;
  /** The space before/after came from w:beforeAutospacing/w:afterAutospacing (HTML-like 14 pt). */
  autoSpaceBefore?: boolean;
  autoSpaceAfter?: boolean;
  line?: LineSpacing;
  contextualSpacing?: boolean;
  snapToGrid?: boolean;
  suppressLineNumbers?: boolean;
  /** Tab stops as written, `clear` entries included (merged by position on resolution). */
  tabs?: TabStop[];
  keepNext?: boolean;
  keepLines?: boolean;
  widowControl?: boolean;
  pageBreakBefore?: boolean;
  bidi?: boolean;
  borders?: ParagraphStyle["borders"];
  shading?: Color | null;
  outlineLevel?: number;
  frame?: ParagraphFrame;
  /** w:framePr w:dropCap="drop": the paragraph is a drop cap for the next one (see blocks.ts). */
  dropCap?: DropCapFrame;
  numId?: string;
  ilvl?: number;
}

export const emptyPara = (): ParaProps => ({ ind: {} });

/** The reading context: theme plus the size used for *Chars indents. */
export interface ReadEnv {
  theme: Theme;
  /** Default font size (pt) for character-unit indents. */
  charUnit: number;
  /**
   * settings.xml w:doNotUseHTMLParagraphAutoSpacing: LibreOffice then ignores w:beforeAutospacing and
   * w:afterAutospacing and uses the w:before/w:after values written beside them (measured).
   */
  noAutoSpacing?: boolean;
}

function colorOf(
  node: XNode | undefined,
  env: ReadEnv,
  attr = "val",
  themeAttr = "themeColor",
): Color | null | undefined {
  if (!node) return undefined;
  // Word writes the resolved colour next to the theme reference; it is exact where our tint/shade
  // arithmetic (RGB, not Word's HSL) is approximate, so the theme is the fallback.
  const explicit = hexColor(node.attr(attr));
  if (typeof explicit === "string") return explicit;
  const fill = themeAttr !== "themeColor";
  const fromTheme = themeColor(
    env.theme,
    node.attr(themeAttr),
    node.attr(fill ? "themeFillTint" : "themeTint"),
    node.attr(fill ? "themeFillShade" : "themeShade"),
  );
  return fromTheme ?? explicit;
}

const UNDERLINES: Record<string, UnderlineStyle> = {
  single: "single",
  words: "words",
  double: "double",
  thick: "thick",
  dotted: "dotted",
  dottedHeavy: "dotted",
  dash: "dashed",
  dashedHeavy: "dashed",
  dashLong: "dashed",
  dashLongHeavy: "dashed",
  dotDash: "dashed",
  dashDotHeavy: "dashed",
  dotDotDash: "dashed",
  dashDotDotHeavy: "dashed",
  wave: "wave",
  wavyHeavy: "wave",
  wavyDouble: "wave",
  none: "none",
};

/**
 * w:beforeLines / w:afterLines (hundredths of a line) as LibreOffice reads them (measured): only
 * when w:before / w:after is absent, and a line is 12 pt whatever the font.
 */
function spacingLines(v: string | undefined): number | undefined {
  const n = int(v);
  return n === undefined ? undefined : (n / 100) * 12;
}

export function readRunProps(rPr: XNode | undefined, env: ReadEnv): RunProps {
  const p: RunProps = {};
  if (!rPr) return p;
  for (const c of rPr.children) {
    switch (c.name) {
      case "rStyle":
        p.rStyle = c.attr("val");
        break;
      case "rFonts": {
        // A theme reference wins over the explicit name, as in Word.
        const ascii =
          themeFont(env.theme, c.attr("asciiTheme")) ??
          c.attr("ascii") ??
          themeFont(env.theme, c.attr("hAnsiTheme")) ??
          c.attr("hAnsi");
        const ea = themeFont(env.theme, c.attr("eastAsiaTheme")) ?? c.attr("eastAsia");
        // A complex-script theme reference the theme leaves empty (an empty a:cs typeface and no
        // script font for w:themeFontLang's bidi language) is an empty name to LibreOffice, even
        // beside an explicit w:cs: fontconfig's face for the language draws the text, spaces too.
        const csTheme = c.attr("cstheme");
        const cs = csTheme ? (themeFont(env.theme, csTheme) ?? UNNAMED_FONT) : c.attr("cs");
        if (ascii) p.font = ascii;
        if (ea) p.fontEastAsia = ea;
        if (cs) p.fontComplex = cs;
        const hint = c.attr("hint");
        if (hint) p.eastAsiaHint = hint === "eastAsia";
        break;
      }
      case "sz":
        p.size = positive(halfPoints(c.attr("val")));
        break;
      case "szCs":
        p.sizeComplex = positive(halfPoints(c.attr("val")));
        break;
      case "b":
        p.bold = flag(rPr, "b");
        break;
      case "i":
        p.italic = flag(rPr, "i");
        break;
      case "caps":
      case "smallCaps":
      case "strike":
        p[c.name] = flag(rPr, c.name);
        break;
      case "dstrike":
        p.doubleStrike = flag(rPr, "dstrike");
        break;
      case "vanish":
      case "specVanish":
        p.hidden = flag(rPr, c.name);
        break;
      case "rtl":
        p.rtl = flag(rPr, "rtl");
        break;
      case "lang": {
        const ea = c.attr("eastAsia");
        if (ea) p.eastAsiaLang = ea;
        const latin = c.attr("val");
        if (latin) p.latinLang = latin;
        const complex = c.attr("bidi");
        if (complex) p.complexLang = complex;
        break;
      }
      case "cs":
        p.complexScript = flag(rPr, "cs");
        break;
      case "u": {
        const v = c.attr("val");
        if (v !== undefined) p.underline = UNDERLINES[v] ?? "single";
        const uc = colorOf(c, env);
        if (uc !== undefined) p.underlineColor = uc;
        break;
      }
      case "color": {
        const col = colorOf(c, env);
        if (col !== undefined) p.color = col;
        break;
      }
      case "highlight": {
        const h = highlightColor(c.attr("val"));
        if (h !== undefined) p.highlight = h;
        break;
      }
      case "shd": {
        const s = readShading(c, env);
        if (s !== undefined) p.shading = s;
        break;
      }
      case "vertAlign": {
        const v = c.attr("val");
        p.vertAlign = v === "superscript" ? "superscript" : v === "subscript" ? "subscript" : "baseline";
        break;
      }
      case "spacing":
        p.charSpacing = twips(c.attr("val"));
        break;
      case "kern": {
        // LibreOffice turns kerning on for any w:kern but 0, whatever the run's size (measured:
        // w:kern="28" kerns "AV" at 11 pt; w:kern="0" and no w:kern do not).
        const v = parseFloat(c.attr("val") ?? "0");
        p.kern = Number.isFinite(v) && v !== 0;
        break;
      }
      case "position":
        p.position = halfPoints(c.attr("val"));
        break;
      case "w": {
        const v = c.attr("val");
        const n = v === undefined ? undefined : parseFloat(v);
        if (n !== undefined && Number.isFinite(n) && n > 0 && n <= 600) p.scale = n;
        break;
      }
    }
  }
  return p;
}

function positive(n: number | undefined): number | undefined {
  return n !== undefined && n > 0 && n < 2000 ? n : undefined;
}

/** w:shd → fill colour (a solid pattern uses the pattern colour); null = none. */
export function readShading(shd: XNode | undefined, env: ReadEnv): Color | null | undefined {
  if (!shd) return undefined;
  const pattern = shd.attr("val");
  if (pattern === "nil") return null;
  if (pattern === "solid") {
    const c = colorOf(shd, env, "color");
    if (c) return c;
  }
  const fill = colorOf(shd, env, "fill", "themeFill");
  return fill ?? null;
}

export function readBorder(b: XNode | undefined, env: ReadEnv): Border | undefined {
  if (!b) return undefined;
  const style = b.attr("val") ?? "single";
  // A none border keeps its space: a paragraph's own between border of none still takes it (blocks.ts).
  if (style === "nil" || style === "none")
    return { style: "none", width: 0, color: null, space: measure(b.attr("space"), 1) ?? 0 };
  const width = eighths(b.attr("sz")) ?? 0.5;
  return {
    style,
    width: Math.max(0.25, Math.min(width, 12)),
    color: colorOf(b, env, "color") ?? null,
    space: measure(b.attr("space"), 1) ?? 0,
  };
}

/** Borders of a pBdr/tblBorders/tcBorders element; start/end read as left/right. */
export function readBorders(el: XNode | undefined, env: ReadEnv): Record<string, Border> {
  const out: Record<string, Border> = {};
  if (!el) return out;
  for (const c of el.children) {
    const side = c.name === "start" ? "left" : c.name === "end" ? "right" : c.name;
    const b = readBorder(c, env);
    if (b) out[side] = b;
  }
  return out;
}

// Kashida justification: LibreOffice 7.4 lays these out as start-aligned (measured), so do we.
const ALIGN: Record<string, ParagraphStyle["align"]> = {
  left: "left",
  start: "left",
  right: "right",
  end: "right",
  center: "center",
  both: "justify",
  justify: "justify",
  distribute: "distribute",
  highKashida: "left",
  lowKashida: "left",
  mediumKashida: "left",
  thaiDistribute: "distribute",
};

const TAB_ALIGN: Record<string, TabAlign> = {
  left: "left",
  start: "left",
  right: "right",
  end: "right",
  center: "center",
  decimal: "decimal",
  bar: "bar",
  clear: "clear",
  num: "left",
};
const TAB_LEADER: Record<string, TabLeader> = {
  none: "none",
  dot: "dot",
  hyphen: "hyphen",
  underscore: "underscore",
  middleDot: "middleDot",
  heavy: "heavy",
};

export function readTabs(tabs: XNode | undefined): TabStop[] | undefined {
  if (!tabs) return undefined;
  const out: TabStop[] = [];
  for (const t of tabs.all("tab")) {
    const pos = twips(t.attr("pos"));
    if (pos === undefined) continue;
    const stop: TabStop = {
      pos,
      align: TAB_ALIGN[t.attr("val") ?? "left"] ?? "left",
      leader: TAB_LEADER[t.attr("leader") ?? "none"] ?? "none",
    };
    if (t.attr("val") === "num") stop.list = true;
    out.push(stop);
  }
  return out;
}

export function readParaProps(pPr: XNode | undefined, env: ReadEnv): ParaProps {
  const p = emptyPara();
  if (!pPr) return p;
  for (const c of pPr.children) {
    switch (c.name) {
      case "pStyle":
        p.pStyle = c.attr("val");
        break;
      case "jc": {
        const a = ALIGN[c.attr("val") ?? ""];
        if (a) p.align = a;
        break;
      }
      case "ind": {
        const chars = (name: string) => {
          const n = int(c.attr(name));
          return n ? (n / 100) * env.charUnit : undefined;
        };
        // Word writes both a character count (w:firstLineChars ...) and its length in twips; the
        // twips value wins here, as in LibreOffice (measured: it ignores the *Chars attributes),
        // and the count is used only when it stands alone.
        const left = twips(c.attr("left") ?? c.attr("start")) ?? chars("leftChars") ?? chars("startChars");
        const right = twips(c.attr("right") ?? c.attr("end")) ?? chars("rightChars") ?? chars("endChars");
        const hanging = twips(c.attr("hanging")) ?? chars("hangingChars");
        const first = twips(c.attr("firstLine")) ?? chars("firstLineChars");
        if (left !== undefined) p.ind.left = left;
        if (right !== undefined) p.ind.right = right;
        if (hanging !== undefined) p.ind.firstLine = -hanging;
        else if (first !== undefined) p.ind.firstLine = first;
        break;
      }
      case "spacing": {
        const before = env.noAutoSpacing ? undefined : c.attr("beforeAutospacing");
        const after = env.noAutoSpacing ? undefined : c.attr("afterAutospacing");
        if (before === "1" || before === "true" || before === "on") {
          p.spaceBefore = 14;
          p.autoSpaceBefore = true;
        } else {
          const b = twips(c.attr("before")) ?? spacingLines(c.attr("beforeLines"));
          if (b !== undefined) {
            p.spaceBefore = Math.max(0, b);
            p.autoSpaceBefore = false;
          }
        }
        if (after === "1" || after === "true" || after === "on") {
          p.spaceAfter = 14;
          p.autoSpaceAfter = true;
        } else {
          const a = twips(c.attr("after")) ?? spacingLines(c.attr("afterLines"));
          if (a !== undefined) {
            p.spaceAfter = Math.max(0, a);
            p.autoSpaceAfter = false;
          }
        }
        const line = c.attr("line");
        if (line !== undefined) {
          // Without w:lineRule LibreOffice reads w:line as an exact height in twips (measured; Word: auto).
          const rule = c.attr("lineRule") ?? "exact";
          if (rule === "exact" || rule === "atLeast") {
            const v = twips(line);
            if (v !== undefined) p.line = { rule, value: Math.abs(v) };
          } else {
            const n = measure(line, 1);
            if (n !== undefined && n > 0) p.line = { rule: "auto", value: /[a-z]/.test(line) ? n / 12 : n / 240 };
          }
        }
        break;
      }
      case "snapToGrid":
      case "suppressLineNumbers":
      case "contextualSpacing":
      case "keepNext":
      case "keepLines":
      case "widowControl":
      case "pageBreakBefore":
      case "bidi":
        p[c.name] = flag(pPr, c.name);
        break;
      case "tabs":
        p.tabs = readTabs(c);
        break;
      case "pBdr":
        p.borders = readBorders(c, env);
        break;
      case "shd": {
        const s = readShading(c, env);
        if (s !== undefined) p.shading = s;
        break;
      }
      case "framePr": {
        // A drop cap frame: its letters go into the next paragraph (blocks.ts); a margin one stays in the flow.
        const dropCap = c.attr("dropCap");
        if (dropCap === "drop") {
          const lines = int(c.attr("lines")) ?? 1;
          p.dropCap = { lines: Math.min(Math.max(lines, 1), 10), distance: Math.max(0, twips(c.attr("hSpace")) ?? 0) };
        }
        if (dropCap && dropCap !== "none") break;
        const frame: ParagraphFrame = { x: twips(c.attr("x")) ?? 0, y: twips(c.attr("y")) ?? 0 };
        const xAlign = c.attr("xAlign");
        if (
          xAlign === "left" ||
          xAlign === "center" ||
          xAlign === "right" ||
          xAlign === "inside" ||
          xAlign === "outside"
        )
          frame.xAlign = xAlign;
        const width = twips(c.attr("w"));
        if (width !== undefined && width > 0) frame.width = width;
        frame.vAnchor = c.attr("vAnchor") === "text" ? "text" : c.attr("vAnchor") === "page" ? "page" : "margin";
        frame.hAnchor = c.attr("hAnchor") === "page" ? "page" : c.attr("hAnchor") === "margin" ? "margin" : "text";
        p.frame = frame;
        break;
      }
      case "outlineLvl": {
        const n = int(c.attr("val"));
        if (n !== undefined && n >= 0 && n < 9) p.outlineLevel = n;
        break;
      }
      case "numPr": {
        const id = val(c, "numId");
        if (id !== undefined) p.numId = id;
        const lvl = int(val(c, "ilvl"));
        if (lvl !== undefined) p.ilvl = Math.max(0, Math.min(8, lvl));
        break;
      }
    }
  }
  return p;
}

/** Overlays `top` on `base` (a new object; toggles overwrite, which is right for basedOn chains and direct formatting). */
export function overlayRun(base: RunProps, top: RunProps): RunProps {
  const out: RunProps = { ...base };
  for (const k in top) {
    const v = top[k as keyof RunProps];
    if (v !== undefined) (out as unknown as Record<string, unknown>)[k] = v;
  }
  return out;
}

export function overlayPara(base: ParaProps, top: ParaProps): ParaProps {
  const out: ParaProps = { ...base, ind: { ...base.ind } };
  for (const k in top) {
    if (k === "ind" || k === "tabs" || k === "borders") continue;
    const v = top[k as keyof ParaProps];
    if (v !== undefined) (out as unknown as Record<string, unknown>)[k] = v;
  }
  if (top.ind.left !== undefined) out.ind.left = top.ind.left;
  if (top.ind.right !== undefined) out.ind.right = top.ind.right;
  if (top.ind.firstLine !== undefined) out.ind.firstLine = top.ind.firstLine;
  if (top.tabs) out.tabs = [...(base.tabs ?? []), ...top.tabs];
  if (top.borders) out.borders = { ...base.borders, ...top.borders };
  return out;
}

/** Toggle values of one style level combined with the level below: XOR, as Word does between style kinds. */
export function xorToggles(acc: RunProps, level: RunProps): RunProps {
  const out: RunProps = { ...acc };
  for (const k in level) {
    const v = level[k as keyof RunProps];
    if (v === undefined) continue;
    if (TOGGLE_SET.has(k)) (out as Record<string, unknown>)[k] = (acc[k as Toggle] ?? false) !== v;
    else (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

const TOGGLE_SET = new Set<string>(TOGGLES);

/** Merges tab lists: later entries replace earlier ones at the same position; `clear` removes. */
export function resolveTabs(tabs: TabStop[] | undefined): TabStop[] {
  if (!tabs?.length) return [];
  const byPos = new Map<number, TabStop>();
  for (const t of tabs) {
    const key = Math.round(t.pos * 20);
    if (t.align === "clear") byPos.delete(key);
    else byPos.set(key, t);
  }
  return [...byPos.values()].sort((a, b) => a.pos - b.pos);
}

export const DEFAULT_FONT = "Times New Roman";

export function toRunStyle(p: RunProps): RunStyle {
  const complex = p.complexScript || p.rtl;
  const s: RunStyle = {
    font: p.font ?? DEFAULT_FONT,
    size: (complex ? (p.sizeComplex ?? p.size) : p.size) ?? 10,
    bold: p.bold ?? false,
    italic: p.italic ?? false,
    underline: p.underline ?? "none",
    strike: p.strike ?? false,
    doubleStrike: p.doubleStrike ?? false,
    color: p.color ?? null,
    highlight: p.highlight ?? p.shading ?? null,
    ...(p.shading && !p.highlight ? { shading: p.shading } : {}),
    caps: p.caps ?? false,
    smallCaps: p.smallCaps ?? false,
    vertAlign: p.vertAlign ?? "baseline",
    charSpacing: p.charSpacing ?? 0,
    position: p.position ?? 0,
    scale: p.scale ?? 100,
    hidden: p.hidden ?? false,
    rtl: p.rtl ?? false,
  };
  if (p.sizeComplex !== undefined && p.sizeComplex !== s.size) s.sizeComplex = p.sizeComplex;
  if (p.rtl && (p.size ?? 10) !== s.size) s.sizeLatin = p.size ?? 10;
  if (p.fontEastAsia && p.fontEastAsia !== s.font) s.fontEastAsia = p.fontEastAsia;
  if (p.fontComplex && p.fontComplex !== s.font) s.fontComplex = p.fontComplex;
  if (p.eastAsiaHint) s.eastAsiaHint = true;
  if (p.kern) s.kern = true;
  // A run whose East Asian language no level sets has LibreOffice's fallback Asian language,
  // simplified Chinese (MsLangId::resolveSystemLanguageByScriptType; measured: its ideographic full
  // stops hang at the line end as in a zh-CN or ja-JP run, not as with w:eastAsia="en-US").
  const eastAsiaLang = p.eastAsiaLang ?? "zh-CN";
  const cjk = CJK_LANGUAGE.exec(eastAsiaLang);
  if (cjk) {
    const lang = cjk[1]!.toLowerCase() as "zh" | "ja" | "ko";
    // Traditional Chinese (zh-TW, zh-HK, zh-MO) has other forbidden characters in LibreOffice.
    s.cjkTypography = lang === "zh" && !SIMPLIFIED_CHINESE.test(eastAsiaLang) ? "zh-Hant" : lang;
  }
  // fontconfig matches the East Asian face with this language (FontBook.eastAsianLineFace).
  if (p.eastAsiaLang) s.eastAsiaLang = p.eastAsiaLang;
  if (p.underlineColor !== undefined && p.underline && p.underline !== "none") s.underlineColor = p.underlineColor;
  return s;
}

export function toParagraphStyle(p: ParaProps, styleId: string): ParagraphStyle {
  const s: ParagraphStyle = {
    styleId,
    align: p.align ?? "left",
    indentLeft: p.ind.left ?? 0,
    indentRight: p.ind.right ?? 0,
    firstLine: p.ind.firstLine ?? 0,
    spaceBefore: p.spaceBefore ?? 0,
    spaceAfter: p.spaceAfter ?? 0,
    contextualSpacing: p.contextualSpacing ?? false,
    ...(p.snapToGrid === false ? { snapToGrid: false as const } : {}),
    ...(p.suppressLineNumbers ? { suppressLineNumbers: true as const } : {}),
    line: p.line ?? { rule: "auto", value: 1 },
    tabs: resolveTabs(p.tabs),
    keepNext: p.keepNext ?? false,
    keepLines: p.keepLines ?? false,
    // Word's own default (the spec's is off, but every Word template turns it on).
    widowControl: p.widowControl ?? true,
    pageBreakBefore: p.pageBreakBefore ?? false,
    bidi: p.bidi ?? false,
    borders: {},
    shading: p.shading ?? null,
  };
  for (const [side, b] of Object.entries(p.borders ?? {})) {
    if (side === "top" || side === "bottom" || side === "left" || side === "right" || side === "between")
      if (b.style !== "none") s.borders[side] = b;
  }
  if (p.borders?.between) s.bordersUnconnected = true;
  if (p.outlineLevel !== undefined) s.outlineLevel = p.outlineLevel;
  if (p.frame) s.frame = p.frame;
  if (p.dropCap) s.dropCapFrame = p.dropCap;
  if (p.autoSpaceBefore) s.autoSpaceBefore = true;
  if (p.autoSpaceAfter) s.autoSpaceAfter = true;
  return s;
}
