/**
 * Sets an equation (model MathNode) into a box of paint items, best effort in the way TeX and
 * LibreOffice Math do it: scripts smaller and shifted, fractions stacked on the math axis with a
 * bar, radicals with a drawn sign and overline, big operators with limits, stretched delimiters,
 * matrices on the axis. Items are relative to the equation's origin: x from its left edge, y from
 * its baseline (downwards positive), as layout uses them.
 */
import type { FontBook } from "../../fonts/types";
import type { MathNode, RunStyle } from "../../model/types";
import { MATH_FAMILY } from "../../model/math";
import type { ObjectInline, PaintItem } from "../types";

/** LibreOffice's defaults: indexes at 60 % of the size, limits at 60 %, operators at 140 %. */
const SCRIPT_SCALE = 0.6;
const LIMIT_SCALE = 0.6;
const OPERATOR_SCALE = 1.4;
/** The math axis (where fraction bars sit) above the baseline, as a share of the size. */
const AXIS = 0.25;
/** Subscript drop and superscript rise of the script's baseline, shares of the base size. */
const SUB_DROP = 0.25;
const SUP_RISE = 0.42;
/** Room around a fraction bar and its thickness, shares of the size. */
const FRACTION_GAP = 0.07;
const RULE = 0.05;
/** Space between matrix columns and rows, shares of the size. */
const COLUMN_GAP = 0.8;
const ROW_GAP = 0.08;

export interface MathBox {
  width: number;
  /** Height above and depth below the baseline, pt. */
  ascent: number;
  descent: number;
  items: PaintItem[];
}

interface Env {
  fonts: FontBook;
  style: RunStyle;
}

/** Lays out an equation at the run's size. */
export function layoutMath(node: MathNode, style: RunStyle, fonts: FontBook): MathBox {
  const size = style.size > 0 ? style.size : 12;
  const box = set(node, size, { fonts, style });
  // LibreOffice's formula objects keep a little room on both sides (measured on stress007).
  const pad = size * EQUATION_PAD;
  return { ...place([], box, pad, 0), width: box.width + 2 * pad };
}

function empty(): MathBox {
  return { width: 0, ascent: 0, descent: 0, items: [] };
}

function set(node: MathNode, size: number, env: Env): MathBox {
  switch (node.kind) {
    case "text":
      return text(node.text, size, node.italic, !!node.bold, env);
    case "row":
      return row(node.items.map((n) => set(n, size, env)));
    case "script":
      return script(
        set(node.base, size, env),
        node.sub && set(node.sub, size * SCRIPT_SCALE, env),
        node.sup && set(node.sup, size * SCRIPT_SCALE, env),
        size,
      );
    case "fraction":
      return fraction(set(node.num, size, env), set(node.den, size, env), node.bar, size, env);
    case "radical":
      return radical(set(node.body, size, env), node.degree && set(node.degree, size * SCRIPT_SCALE, env), size, env);
    case "nary":
      return nary(node, size, env);
    case "delimiter":
      return delimiter(node, size, env);
    case "matrix":
      return matrix(
        node.rows.map((r) => r.map((c) => set(c, size, env))),
        size,
      );
    case "limit":
      return limit(
        set(node.base, size, env),
        node.over && set(node.over, size * LIMIT_SCALE, env),
        node.under && set(node.under, size * LIMIT_SCALE, env),
        size,
      );
    case "bar": {
      const base = set(node.base, size, env);
      const y = node.over ? -base.ascent - size * RULE : base.descent + size * RULE;
      const box = place([], base, 0, 0);
      box.items.push(rule(0, y, base.width, size, env));
      if (node.over) box.ascent += size * RULE * 2;
      else box.descent += size * RULE * 2;
      return box;
    }
  }
}

/**
 * Binary operators and relations get room around them, relations more (LibreOffice, measured on
 * stress007 and on E=mc²): shares of the size before and after.
 */
const BINARY = /^[+\-±∓×÷·∙∪∩−]$/u;
const RELATION = /^[=<>≤≥≠≈≡∼≃≅∝→←↔⇒⇔∈∉⊂⊃⊆⊇]$/u;
const OPERATOR_SPACE = { binary: [0.1, 0.15], relation: [0.2, 0.25] } as const;
/** Room after a sub/superscript, share of the base size. */
const SCRIPT_SPACE = 0.12;
/** Room between a base and its scripts, and around a whole equation, shares of the size. */
const SCRIPT_GAP = 0.07;
const EQUATION_PAD = 0.05;

/** A math run: letters in italic (when the run is), digits and signs upright, operators spaced. */
function text(value: string, size: number, italic: boolean, bold: boolean, env: Env): MathBox {
  const parts: MathBox[] = [];
  let pending = "";
  let pendingItalic = false;
  const flush = () => {
    if (pending) parts.push(glyphs(pending, size, pendingItalic, bold, env));
    pending = "";
  };
  for (const ch of value) {
    const space = BINARY.test(ch) ? OPERATOR_SPACE.binary : RELATION.test(ch) ? OPERATOR_SPACE.relation : undefined;
    if (space) {
      flush();
      parts.push({ ...empty(), width: size * space![0] }, glyphs(ch, size, false, bold, env), {
        ...empty(),
        width: size * space![1],
      });
      continue;
    }
    const slanted = italic && LETTER.test(ch);
    if (pending && slanted !== pendingItalic) flush();
    pendingItalic = slanted;
    pending += ch;
  }
  flush();
  return parts.length === 1 ? parts[0]! : parts.length ? row(parts) : glyphs("", size, italic, bold, env);
}

const LETTER = /\p{L}/u;

function glyphs(value: string, size: number, italic: boolean, bold: boolean, env: Env): MathBox {
  const out = empty();
  const req = { family: MATH_FAMILY, bold, italic };
  for (const part of env.fonts.split(value, req)) {
    const width = part.face.widthOf(part.text, size);
    out.items.push({
      kind: "text",
      x: out.width,
      y: 0,
      text: part.text,
      face: part.face,
      size,
      color: env.style.color,
      width,
    });
    out.width += width;
    out.ascent = Math.max(out.ascent, part.face.ascent(size));
    out.descent = Math.max(out.descent, part.face.descent(size));
  }
  if (!value) {
    const face = env.fonts.face(req);
    out.ascent = face.ascent(size);
    out.descent = face.descent(size);
  }
  return out;
}

/** Copies `box`'s items into `items` moved by (dx, dy) and returns the box around both. */
function place(items: PaintItem[], box: MathBox, dx: number, dy: number): MathBox {
  for (const it of box.items) items.push(move(it, dx, dy));
  return { width: dx + box.width, ascent: box.ascent - dy, descent: box.descent + dy, items };
}

function move(it: PaintItem, dx: number, dy: number): PaintItem {
  if (it.kind === "line") return { ...it, x1: it.x1 + dx, x2: it.x2 + dx, y1: it.y1 + dy, y2: it.y2 + dy };
  return { ...it, x: it.x + dx, y: it.y + dy };
}

/** Boxes side by side on one baseline. */
function row(boxes: MathBox[]): MathBox {
  const out = empty();
  for (const b of boxes) {
    for (const it of b.items) out.items.push(move(it, out.width, 0));
    out.width += b.width;
    out.ascent = Math.max(out.ascent, b.ascent);
    out.descent = Math.max(out.descent, b.descent);
  }
  return out;
}

/** Union of boxes already positioned in one coordinate system. */
function union(parts: { box: MathBox; dx: number; dy: number }[], width: number): MathBox {
  const out: MathBox = { width, ascent: 0, descent: 0, items: [] };
  for (const { box, dx, dy } of parts) {
    for (const it of box.items) out.items.push(move(it, dx, dy));
    out.ascent = Math.max(out.ascent, box.ascent - dy);
    out.descent = Math.max(out.descent, box.descent + dy);
  }
  return out;
}

function rule(x: number, y: number, width: number, size: number, env: Env): PaintItem {
  return {
    kind: "line",
    x1: x,
    y1: y,
    x2: x + width,
    y2: y,
    width: Math.max(0.4, size * RULE),
    color: env.style.color,
  };
}

function script(base: MathBox, sub: MathBox | undefined, sup: MathBox | undefined, size: number): MathBox {
  const parts = [{ box: base, dx: 0, dy: 0 }];
  const x = base.width + size * SCRIPT_GAP;
  let width = base.width;
  if (sub) {
    // Low enough to clear the base's baseline, high enough to stay near it.
    const drop = Math.max(size * SUB_DROP, sub.ascent - size * 0.45);
    parts.push({ box: sub, dx: x, dy: drop });
    width = Math.max(width, x + sub.width);
  }
  if (sup) {
    // A tall base (a fraction) lifts the superscript with its top.
    const rise = Math.max(size * SUP_RISE, base.ascent - size * 0.5);
    parts.push({ box: sup, dx: x, dy: -rise });
    width = Math.max(width, x + sup.width);
  }
  return union(parts, width + size * SCRIPT_SPACE);
}

function fraction(num: MathBox, den: MathBox, bar: boolean, size: number, env: Env): MathBox {
  const axis = -size * AXIS;
  const gap = size * FRACTION_GAP;
  const inner = Math.max(num.width, den.width);
  const pad = size * 0.1;
  const width = inner + 2 * pad;
  const numDy = axis - gap - num.descent;
  const denDy = axis + gap + den.ascent;
  const box = union(
    [
      { box: num, dx: pad + (inner - num.width) / 2, dy: numDy },
      { box: den, dx: pad + (inner - den.width) / 2, dy: denDy },
    ],
    width,
  );
  if (bar) box.items.push(rule(size * 0.05, axis, width - size * 0.1, size, env));
  return box;
}

function radical(body: MathBox, degree: MathBox | undefined, size: number, env: Env): MathBox {
  const top = -body.ascent - size * 0.12;
  const bottom = body.descent;
  const signWidth = size * 0.55;
  const lead = degree ? Math.max(0, degree.width - signWidth * 0.4) : 0;
  const w = Math.max(0.4, size * RULE);
  const c = env.style.color;
  const x0 = lead;
  const mid = (top + bottom) / 2 + (bottom - top) * 0.15;
  const items: PaintItem[] = [
    { kind: "line", x1: x0, y1: mid, x2: x0 + signWidth * 0.3, y2: bottom, width: w, color: c },
    { kind: "line", x1: x0 + signWidth * 0.3, y1: bottom, x2: x0 + signWidth * 0.8, y2: top, width: w, color: c },
    {
      kind: "line",
      x1: x0 + signWidth * 0.8,
      y1: top,
      x2: x0 + signWidth + body.width + size * 0.05,
      y2: top,
      width: w,
      color: c,
    },
  ];
  const parts = [{ box: body, dx: x0 + signWidth, dy: 0 }];
  if (degree) parts.push({ box: degree, dx: 0, dy: mid - degree.descent - size * 0.05 });
  const box = union(parts, x0 + signWidth + body.width + size * 0.1);
  box.items.push(...items);
  box.ascent = Math.max(box.ascent, -top + w);
  return box;
}

function nary(node: Extract<MathNode, { kind: "nary" }>, size: number, env: Env): MathBox {
  const opSize = size * OPERATOR_SCALE;
  const op = glyphs(node.op, opSize, false, false, env);
  // The larger operator is lowered so that it stays centred on the math axis.
  const opDy = (opSize - size) * 0.3;
  const opBox = union([{ box: op, dx: 0, dy: opDy }], op.width);
  const sub = node.sub && !isEmpty(node.sub) ? set(node.sub, size * LIMIT_SCALE, env) : undefined;
  const sup = node.sup && !isEmpty(node.sup) ? set(node.sup, size * LIMIT_SCALE, env) : undefined;
  const withLimits = node.limitsUnder ? limit(opBox, sup, sub, size) : script(opBox, sub, sup, size);
  return row([withLimits, { ...empty(), width: size * 0.1 }, set(node.body, size, env)]);
}

function isEmpty(node: MathNode): boolean {
  return node.kind === "row" && node.items.length === 0;
}

function limit(base: MathBox, over: MathBox | undefined, under: MathBox | undefined, size: number): MathBox {
  const width = Math.max(base.width, over?.width ?? 0, under?.width ?? 0);
  const gap = size * 0.08;
  const parts = [{ box: base, dx: (width - base.width) / 2, dy: 0 }];
  if (over) parts.push({ box: over, dx: (width - over.width) / 2, dy: -base.ascent - gap - over.descent });
  if (under) parts.push({ box: under, dx: (width - under.width) / 2, dy: base.descent + gap + under.ascent });
  return union(parts, width);
}

function delimiter(node: Extract<MathNode, { kind: "delimiter" }>, size: number, env: Env): MathBox {
  const items = node.items.map((n) => set(n, size, env));
  const parts: MathBox[] = [];
  items.forEach((b, i) => {
    if (i > 0 && node.separator) parts.push(text(node.separator, size, false, false, env));
    parts.push(b);
  });
  const content = row(parts);
  const plain = text("(", size, false, false, env);
  // Content no taller than a line keeps the font's delimiters; taller content gets drawn ones.
  if (content.ascent <= plain.ascent * 1.05 && content.descent <= plain.descent * 1.05) {
    return row([
      node.open ? text(node.open, size, false, false, env) : empty(),
      content,
      node.close ? text(node.close, size, false, false, env) : empty(),
    ]);
  }
  const top = -content.ascent - size * 0.05;
  const bottom = content.descent + size * 0.05;
  const w = size * 0.35;
  const open = drawnDelimiter(node.open, top, bottom, w, false, size, env);
  const close = drawnDelimiter(node.close, top, bottom, w, true, size, env);
  return row([open, content, close]);
}

/** A delimiter as strokes spanning [top, bottom] in a box `w` wide (mirrored for closing ones). */
function drawnDelimiter(
  chr: string,
  top: number,
  bottom: number,
  w: number,
  closing: boolean,
  size: number,
  env: Env,
): MathBox {
  const box: MathBox = { width: chr ? w : 0, ascent: -top, descent: bottom, items: [] };
  if (!chr) return box;
  const lw = Math.max(0.5, size * 0.05);
  const c = env.style.color;
  const x = (f: number) => (closing ? w * (1 - f) : w * f);
  const seg = (x1: number, y1: number, x2: number, y2: number) =>
    box.items.push({ kind: "line", x1, y1, x2, y2, width: lw, color: c });
  const h = bottom - top;
  if (chr === "[" || chr === "]" || chr === "⌈" || chr === "⌉" || chr === "⌊" || chr === "⌋") {
    seg(x(0.35), top, x(0.35), bottom);
    if (chr !== "⌊" && chr !== "⌋") seg(x(0.35), top, x(0.8), top);
    if (chr !== "⌈" && chr !== "⌉") seg(x(0.35), bottom, x(0.8), bottom);
  } else if (chr === "|" || chr === "‖") {
    seg(w / 2, top, w / 2, bottom);
    if (chr === "‖") seg(w / 2 + lw * 2, top, w / 2 + lw * 2, bottom);
  } else if (chr === "{" || chr === "}") {
    const m = top + h / 2;
    seg(x(0.8), top, x(0.5), top + h * 0.08);
    seg(x(0.5), top + h * 0.08, x(0.5), m - h * 0.06);
    seg(x(0.5), m - h * 0.06, x(0.2), m);
    seg(x(0.2), m, x(0.5), m + h * 0.06);
    seg(x(0.5), m + h * 0.06, x(0.5), bottom - h * 0.08);
    seg(x(0.5), bottom - h * 0.08, x(0.8), bottom);
  } else if (chr === "⟨" || chr === "⟩" || chr === "<" || chr === ">") {
    seg(x(0.8), top, x(0.2), top + h / 2);
    seg(x(0.2), top + h / 2, x(0.8), bottom);
  } else {
    // Parentheses (and anything else): a bow of short strokes.
    const steps = 8;
    let px = x(0.75);
    let py = top;
    for (let k = 1; k <= steps; k++) {
      const t = k / steps;
      const bow = Math.sin(t * Math.PI);
      const nx = x(0.75 - 0.5 * bow);
      const ny = top + h * t;
      seg(px, py, nx, ny);
      px = nx;
      py = ny;
    }
  }
  return box;
}

function matrix(rows: MathBox[][], size: number): MathBox {
  const cols = rows.reduce((n, r) => Math.max(n, r.length), 0);
  const colWidth: number[] = new Array(cols).fill(0);
  for (const r of rows) r.forEach((c, i) => (colWidth[i] = Math.max(colWidth[i]!, c.width)));
  const rowGap = size * ROW_GAP;
  const colGap = size * COLUMN_GAP;
  const heights = rows.map((r) => ({
    ascent: Math.max(0, ...r.map((c) => c.ascent)),
    descent: Math.max(0, ...r.map((c) => c.descent)),
  }));
  const total = heights.reduce((h, r) => h + r.ascent + r.descent, 0) + rowGap * Math.max(0, rows.length - 1);
  const width = colWidth.reduce((a, b) => a + b, 0) + colGap * Math.max(0, cols - 1);
  // Centred on the math axis.
  let y = -size * AXIS - total / 2;
  const parts: { box: MathBox; dx: number; dy: number }[] = [];
  rows.forEach((r, ri) => {
    const baseline = y + heights[ri]!.ascent;
    let x = 0;
    r.forEach((c, ci) => {
      parts.push({ box: c, dx: x + (colWidth[ci]! - c.width) / 2, dy: baseline });
      x += colWidth[ci]! + colGap;
    });
    y = baseline + heights[ri]!.descent + rowGap;
  });
  const box = union(parts, width);
  box.ascent = Math.max(box.ascent, size * AXIS + total / 2);
  box.descent = Math.max(box.descent, total / 2 - size * AXIS);
  return box;
}

/**
 * An inline object as it stands on a line: an equation's box takes its set width and height (its
 * ascent), and the set equation travels with it (on its piece) to be measured and painted.
 */
export function mathObject(inline: ObjectInline, fonts: FontBook): { object: ObjectInline; math?: MathBox } {
  if (inline.type !== "box" || !inline.math) return { object: inline };
  const math = layoutMath(inline.math.node, inline.style, fonts);
  return { object: { ...inline, width: math.width, height: math.ascent }, math };
}
