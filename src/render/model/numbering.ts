/**
 * word/numbering.xml: abstract numbering definitions, num instances with level overrides, and the
 * running counters that turn (numId, ilvl) into a label ("1.2.", "iv.", "•") as Word does:
 * counters are shared by every num of one abstract definition, a startOverride restarts them
 * the first time its num is used, and using a level resets the deeper ones (per w:lvlRestart).
 */
import type { XNode } from "./xml-tree";
import type { NumberFormat } from "./types";
import { emptyPara, type ParaProps, type ReadEnv, readParaProps, readRunProps, type RunProps } from "./properties";
import { formatNumber, fullWidthDigits, toNumberFormat } from "./number-format";
import { int, val } from "./units";
import type { Styles } from "./styles";

export interface Level {
  start: number;
  format: NumberFormat;
  text: string;
  /** 1-based level whose use restarts this one; 0 = never; undefined = any shallower level. */
  restart?: number;
  isLgl: boolean;
  suffix: "tab" | "space" | "nothing";
  align: "left" | "center" | "right";
  rPr: RunProps;
  pPr: ParaProps;
  /** Picture bullet id (w:lvlPicBulletId), resolved to an image by the body reader. */
  picBulletId?: string;
  /** Paragraph style linked to this level (w:pStyle): a paragraph of that style is at this level. */
  pStyle?: string;
}

interface AbstractNum {
  id: string;
  levels: (Level | undefined)[];
  numStyleLink?: string;
}

interface NumInstance {
  abstractId: string;
  starts: Map<number, number>;
  levels: Map<number, Level>;
}

export interface NumberingLabel {
  text: string;
  /** The label with its full-width decimal numbers in full-width digits, when it has any (see hasNativeDigits). */
  native?: string;
  level: Level;
}

const MAX_LEVELS = 9;

function readLevel(l: XNode, env: ReadEnv): Level {
  const jc = val(l, "lvlJc");
  const suff = val(l, "suff");
  const restart = int(val(l, "lvlRestart"));
  const format = val(l, "numFmt") ?? l.child("numFmt")?.attr("format");
  return {
    start: int(val(l, "start")) ?? 0,
    format: toNumberFormat(format),
    text: l.child("lvlText")?.attr("val") ?? "",
    restart: restart === undefined ? undefined : Math.max(0, restart),
    isLgl: l.child("isLgl") !== undefined && l.child("isLgl")!.attr("val") !== "0",
    suffix: suff === "space" ? "space" : suff === "nothing" ? "nothing" : "tab",
    align: jc === "center" ? "center" : jc === "right" || jc === "end" ? "right" : "left",
    rPr: readRunProps(l.child("rPr"), env),
    pPr: readParaProps(l.child("pPr"), env),
    picBulletId: val(l, "lvlPicBulletId"),
    pStyle: val(l, "pStyle"),
  };
}

const MISSING_LEVELS: Level[] = [];
/**
 * A level the definition lacks (ilvl 1 of a single-level list): LibreOffice fills its list with
 * default levels, numbered "%N." in decimal, indented 0.5" and 0.25" more a level, with a 0.25"
 * hanging label (measured at levels 1 and 2).
 */
function missingLevel(ilvl: number): Level | undefined {
  if (!(ilvl >= 0 && ilvl < MAX_LEVELS)) return undefined;
  return (MISSING_LEVELS[ilvl] ??= {
    start: 1,
    format: "decimal",
    text: `%${ilvl + 1}.`,
    isLgl: false,
    suffix: "tab",
    align: "left",
    rPr: {},
    pPr: { ...emptyPara(), ind: { left: 36 + 18 * ilvl, firstLine: -18 } },
  });
}

export class Numbering {
  private readonly abstracts = new Map<string, AbstractNum>();
  private readonly nums = new Map<string, NumInstance>();
  /** Picture bullets: numPicBullet id → the drawing/pict node holding the image. */
  readonly picBullets = new Map<string, XNode>();
  private readonly counters = new Map<string, (number | undefined)[]>();
  private readonly startedNums = new Set<string>();

  constructor(
    root: XNode | undefined,
    env: ReadEnv,
    private readonly styles: Styles,
  ) {
    if (!root) return;
    for (const b of root.all("numPicBullet")) {
      const id = b.attr("numPicBulletId");
      const holder = b.child("drawing") ?? b.child("pict");
      if (id !== undefined && holder) this.picBullets.set(id, holder);
    }
    for (const a of root.all("abstractNum")) {
      const id = a.attr("abstractNumId");
      if (id === undefined) continue;
      const levels: (Level | undefined)[] = new Array(MAX_LEVELS).fill(undefined);
      for (const l of a.all("lvl")) {
        const ilvl = int(l.attr("ilvl"));
        if (ilvl !== undefined && ilvl >= 0 && ilvl < MAX_LEVELS) levels[ilvl] = readLevel(l, env);
      }
      this.abstracts.set(id, { id, levels, numStyleLink: val(a, "numStyleLink") });
    }
    for (const n of root.all("num")) {
      const id = n.attr("numId");
      const abstractId = val(n, "abstractNumId");
      if (id === undefined || abstractId === undefined) continue;
      const inst: NumInstance = { abstractId, starts: new Map(), levels: new Map() };
      for (const o of n.all("lvlOverride")) {
        const ilvl = int(o.attr("ilvl"));
        if (ilvl === undefined || ilvl < 0 || ilvl >= MAX_LEVELS) continue;
        const start = int(val(o, "startOverride"));
        if (start !== undefined) inst.starts.set(ilvl, start);
        const lvl = o.child("lvl");
        if (lvl) inst.levels.set(ilvl, readLevel(lvl, env));
      }
      this.nums.set(id, inst);
    }
  }

  /** The abstract definition of a num, following numStyleLink through a numbering style (one hop per link, cycle-safe). */
  private abstractOf(numId: string): AbstractNum | undefined {
    let abs = this.abstracts.get(this.nums.get(numId)?.abstractId ?? "");
    const seen = new Set<string>();
    while (abs?.numStyleLink && !seen.has(abs.id)) {
      seen.add(abs.id);
      const linkedNum = this.styles.paraProps(abs.numStyleLink).numId;
      const next = linkedNum !== undefined ? this.abstracts.get(this.nums.get(linkedNum)?.abstractId ?? "") : undefined;
      if (!next) break;
      abs = next;
    }
    return abs;
  }

  /** The level definition for (numId, ilvl), overrides applied; undefined when not a list. */
  level(numId: string | undefined, ilvl: number): Level | undefined {
    if (numId === undefined || numId === "0") return undefined;
    const inst = this.nums.get(numId);
    if (!inst) return undefined;
    return inst.levels.get(ilvl) ?? this.abstractOf(numId)?.levels[ilvl] ?? missingLevel(ilvl);
  }

  /** The level a paragraph style is linked to (w:lvl/w:pStyle) in this num's definition. */
  levelOfStyle(numId: string | undefined, styleId: string): number | undefined {
    if (numId === undefined || !styleId) return undefined;
    const levels = this.abstractOf(numId)?.levels ?? [];
    const i = levels.findIndex((l) => l?.pStyle === styleId);
    return i >= 0 ? i : undefined;
  }

  /** Advances the counters for a paragraph of (numId, ilvl) and returns its label. */
  next(numId: string | undefined, ilvl: number): NumberingLabel | undefined {
    const level = this.level(numId, ilvl);
    if (!level || numId === undefined) return undefined;
    const inst = this.nums.get(numId)!;
    const abs = this.abstractOf(numId);
    const key = abs?.id ?? `num:${numId}`;
    let counters = this.counters.get(key);
    if (!counters) {
      counters = new Array(MAX_LEVELS).fill(undefined);
      this.counters.set(key, counters);
    }
    const levelAt = (i: number) => inst.levels.get(i) ?? abs?.levels[i] ?? missingLevel(i);
    const startAt = (i: number) => inst.starts.get(i) ?? levelAt(i)?.start ?? 0;
    if (!this.startedNums.has(numId)) {
      this.startedNums.add(numId);
      // A num with startOverride begins its list anew the first time it is used.
      for (const i of inst.starts.keys()) counters[i] = undefined;
    }
    const current = counters[ilvl];
    counters[ilvl] = current === undefined ? startAt(ilvl) : current + 1;
    for (let d = ilvl + 1; d < MAX_LEVELS; d++) {
      const r = levelAt(d)?.restart;
      if (r === undefined || (r > 0 && ilvl < r)) counters[d] = undefined;
    }
    let fullWidth = false;
    const label = (native: boolean) =>
      level.text.replace(/%([1-9])/g, (_m, digit: string) => {
        const i = Number(digit) - 1;
        const n = counters[i] ?? startAt(i);
        const fmt = level.isLgl && i !== ilvl ? "decimal" : i === ilvl ? level.format : (levelAt(i)?.format ?? "decimal");
        const number = formatNumber(n, fmt === "bullet" ? "decimal" : fmt);
        if (fmt !== "decimalFullWidth") return number;
        fullWidth = true;
        return native ? fullWidthDigits(number) : number;
      });
    const text = label(false);
    return fullWidth ? { text, native: label(true), level } : { text, level };
  }
}

export const NO_NUMBERING_PARA: ParaProps = emptyPara();
