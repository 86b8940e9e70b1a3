/**
 * Office Math (OMML: m:oMath, m:oMathPara) read into a small tree layout/objects/math.ts can set: runs,
 * sub/superscripts, fractions, radicals, n-ary operators with limits, delimiters, matrices and
 * equation arrays. Other constructs keep their children in a row (their text stays readable).
 * Depth and node count are bounded (LIMITS.render.math), beyond which the rest is read as text.
 */
import { LIMITS } from "../../limits";
import type { Block, Inline, MathNode, ParagraphStyle, RunStyle } from "./types";
import type { XNode } from "./xml-tree";
import { plainParagraphStyle } from "./plain-styles";

/** The family equations are drawn in: LibreOffice sets OMML in Liberation Serif (Tinos here). */
export const MATH_FAMILY = "Times New Roman";

/** Characters of a run drawn upright even in math italic (digits, operators, punctuation). */
const LETTER = /\p{L}/u;

interface Budget {
  nodes: number;
}

/** An m:oMath (or each m:oMath of an m:oMathPara, side by side) as one math row. */
export function readMath(el: XNode): MathNode {
  const budget: Budget = { nodes: 0 };
  const maths = el.name === "oMathPara" ? el.all("oMath") : [el];
  const items = maths.map((m) => row(m, budget, 0));
  return items.length === 1 ? items[0]! : { kind: "row", items };
}

/** The plain text of an equation (used when the tree is cut short). */
function plainText(el: XNode): string {
  return el
    .find("t")
    .map((t) => t.text())
    .join("");
}

function row(container: XNode | undefined, budget: Budget, depth: number): MathNode {
  const items: MathNode[] = [];
  for (const c of container?.children ?? []) {
    const node = element(c, budget, depth + 1);
    if (node) items.push(node);
  }
  return items.length === 1 ? items[0]! : { kind: "row", items };
}

function arg(parent: XNode, name: string, budget: Budget, depth: number): MathNode {
  return row(parent.child(name), budget, depth);
}

function prop(parent: XNode, pr: string, name: string): string | undefined {
  return parent.child(pr)?.child(name)?.attr("val");
}

function element(el: XNode, budget: Budget, depth: number): MathNode | undefined {
  if (++budget.nodes > LIMITS.render.math.maxNodes || depth > LIMITS.render.math.maxDepth) {
    // Past the budget the rest of the equation is kept as text, not as structure.
    const text = plainText(el);
    return text ? { kind: "text", text, italic: false } : undefined;
  }
  switch (el.name) {
    case "r": {
      const text = el
        .all("t")
        .map((t) => t.text())
        .join("");
      if (!text) return undefined;
      const sty = el.child("rPr")?.child("sty")?.attr("val");
      const plain = el.child("rPr")?.child("nor") !== undefined || sty === "p" || sty === "b";
      // Math italic for letters, as Word and LibreOffice draw variables; words of 2+ letters from
      // a function name stay upright (m:fName).
      return {
        kind: "text",
        text,
        italic: !plain && LETTER.test(text),
        bold: sty === "b" || sty === "bi" ? true : undefined,
      };
    }
    case "sSub":
      return { kind: "script", base: arg(el, "e", budget, depth), sub: arg(el, "sub", budget, depth) };
    case "sSup":
      return { kind: "script", base: arg(el, "e", budget, depth), sup: arg(el, "sup", budget, depth) };
    case "sSubSup":
      return {
        kind: "script",
        base: arg(el, "e", budget, depth),
        sub: arg(el, "sub", budget, depth),
        sup: arg(el, "sup", budget, depth),
      };
    case "sPre":
      return {
        kind: "row",
        items: [
          {
            kind: "script",
            base: { kind: "row", items: [] },
            sub: arg(el, "sub", budget, depth),
            sup: arg(el, "sup", budget, depth),
          },
          arg(el, "e", budget, depth),
        ],
      };
    case "f": {
      const type = prop(el, "fPr", "type");
      const num = arg(el, "num", budget, depth);
      const den = arg(el, "den", budget, depth);
      if (type === "lin") return { kind: "row", items: [num, { kind: "text", text: "/", italic: false }, den] };
      return { kind: "fraction", num, den, bar: type !== "noBar" };
    }
    case "rad": {
      const hide = prop(el, "radPr", "degHide");
      const degree = hide === "1" || hide === "on" ? undefined : arg(el, "deg", budget, depth);
      const node: MathNode = { kind: "radical", body: arg(el, "e", budget, depth) };
      if (degree && !(degree.kind === "row" && degree.items.length === 0)) node.degree = degree;
      return node;
    }
    case "nary": {
      const op = prop(el, "naryPr", "chr") ?? "∫";
      const subHide = prop(el, "naryPr", "subHide");
      const supHide = prop(el, "naryPr", "supHide");
      const limLoc = prop(el, "naryPr", "limLoc");
      const node: MathNode = {
        kind: "nary",
        op,
        body: arg(el, "e", budget, depth),
        limitsUnder: limLoc ? limLoc === "undOvr" : op !== "∫" && op !== "∬" && op !== "∭" && op !== "∮",
      };
      if (subHide !== "1" && subHide !== "on") node.sub = arg(el, "sub", budget, depth);
      if (supHide !== "1" && supHide !== "on") node.sup = arg(el, "sup", budget, depth);
      return node;
    }
    case "d": {
      const open = prop(el, "dPr", "begChr") ?? "(";
      const close = prop(el, "dPr", "endChr") ?? ")";
      const sep = prop(el, "dPr", "sepChr") ?? "|";
      return { kind: "delimiter", open, close, separator: sep, items: el.all("e").map((e) => row(e, budget, depth)) };
    }
    case "m":
      return {
        kind: "matrix",
        rows: el
          .all("mr")
          .slice(0, LIMITS.render.math.maxNodes)
          .map((mr) => mr.all("e").map((e) => row(e, budget, depth))),
      };
    case "eqArr":
      return { kind: "matrix", rows: el.all("e").map((e) => [row(e, budget, depth)]) };
    case "func":
      return {
        kind: "row",
        items: [
          upright(arg(el, "fName", budget, depth)),
          { kind: "text", text: "\u2006", italic: false },
          arg(el, "e", budget, depth),
        ],
      };
    case "limLow":
      return { kind: "limit", base: arg(el, "e", budget, depth), under: arg(el, "lim", budget, depth) };
    case "limUpp":
      return { kind: "limit", base: arg(el, "e", budget, depth), over: arg(el, "lim", budget, depth) };
    case "bar": {
      const top = prop(el, "barPr", "pos") === "top";
      return { kind: "bar", base: arg(el, "e", budget, depth), over: top };
    }
    case "acc": {
      const chr = prop(el, "accPr", "chr") ?? "\u0302";
      return {
        kind: "limit",
        base: arg(el, "e", budget, depth),
        over: { kind: "text", text: accentSpacing(chr), italic: false },
      };
    }
    case "groupChr": {
      const chr = prop(el, "groupChrPr", "chr") ?? "⏟";
      const top = prop(el, "groupChrPr", "pos") === "top";
      const mark: MathNode = { kind: "text", text: chr, italic: false };
      return top
        ? { kind: "limit", base: arg(el, "e", budget, depth), over: mark }
        : { kind: "limit", base: arg(el, "e", budget, depth), under: mark };
    }
    case "box":
    case "borderBox":
    case "phant":
      return arg(el, "e", budget, depth);
    case "oMath":
      return row(el, budget, depth);
    case "rPr":
    case "ctrlPr":
    case "argPr":
      return undefined;
    default:
      // m:*Pr elements and anything we do not know: their math content, if any, in a row.
      if (el.name.endsWith("Pr")) return undefined;
      return el.children.length ? row(el, budget, depth) : undefined;
  }
}

/** Function names (sin, log) are upright. */
function upright(node: MathNode): MathNode {
  if (node.kind === "text") return { ...node, italic: false };
  if (node.kind === "row") return { kind: "row", items: node.items.map(upright) };
  return node;
}

/** Combining accents drawn above a base need a spacing form. */
function accentSpacing(chr: string): string {
  const map: Record<string, string> = {
    "\u0302": "^",
    "\u0303": "~",
    "\u0304": "¯",
    "\u0305": "¯",
    "\u0307": "˙",
    "\u0308": "¨",
    "\u20D7": "→",
    "\u0301": "´",
    "\u0300": "`",
    "\u0306": "˘",
    "\u030C": "ˇ",
  };
  return map[chr] ?? chr;
}

/**
 * The equation's runs as one plain paragraph, with the styles they are drawn in: the box's
 * blocks, so the font book loads the math faces (italic, fallbacks for operators) like any text.
 * Layout draws the set equation, never these blocks.
 */
export function mathTextBlocks(node: MathNode, style: RunStyle, intern: (s: RunStyle) => RunStyle): Block[] {
  const inlines: Inline[] = [];
  const walk = (n: MathNode): void => {
    switch (n.kind) {
      case "text": {
        const s = intern({ ...style, italic: n.italic, bold: !!n.bold });
        const last = inlines[inlines.length - 1];
        if (last?.type === "text" && last.style === s) last.text += n.text;
        else inlines.push({ type: "text", text: n.text, style: s });
        break;
      }
      case "row":
        n.items.forEach(walk);
        break;
      case "script":
        [n.base, n.sub, n.sup].forEach((c) => c && walk(c));
        break;
      case "fraction":
        [n.num, n.den].forEach(walk);
        break;
      case "radical":
        [n.degree, n.body].forEach((c) => c && walk(c));
        break;
      case "nary":
        walk({ kind: "text", text: n.op, italic: false });
        [n.sub, n.sup, n.body].forEach((c) => c && walk(c));
        break;
      case "delimiter":
        walk({ kind: "text", text: n.open + n.separator + n.close + "(", italic: false });
        n.items.forEach(walk);
        break;
      case "matrix":
        for (const r of n.rows) r.forEach(walk);
        break;
      case "limit":
        [n.base, n.over, n.under].forEach((c) => c && walk(c));
        break;
      case "bar":
        walk(n.base);
        break;
    }
  };
  walk(node);
  return [{ type: "paragraph", style: PLAIN_PARAGRAPH, inlines, markStyle: style }];
}

const PLAIN_PARAGRAPH: ParagraphStyle = plainParagraphStyle();
