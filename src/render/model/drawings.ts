/**
 * Drawings: DrawingML (w:drawing with wp:inline / wp:anchor holding a picture, a shape with a
 * text box, or a group) and VML (w:pict / w:object with v:imagedata or v:textbox), as image or
 * box inlines. Charts are read by charts.ts into their box; SmartArt and other graphics keep their
 * space as an empty box.
 */
import type { Anchor, Block, Border, Color, GroupPart, Inline, RunStyle } from "./types";
import type { XNode } from "./xml-tree";
import type { ParseContext, Story } from "./context";
import { emu, hexColor, measure } from "./units";
import { themeColor } from "./theme";
import { readChart } from "./charts";

export type BlocksReader = (container: XNode, story: Story) => Block[];

const MAX_SIDE = 14_400; // pt (200 in): Word's own maximum page size

function clampSize(n: number | undefined): number {
  return n === undefined || !Number.isFinite(n) || n < 0 ? 0 : Math.min(n, MAX_SIDE);
}

/** The image part a relationship id points at, loaded into the model; undefined when missing. */
export function imageFromRel(ctx: ParseContext, story: Story, rId: string | undefined): string | undefined {
  if (!rId) return undefined;
  const rel = story.rels.get(rId);
  if (!rel || rel.external || !rel.target) return undefined;
  return ctx.loadImage(rel.target);
}

const H_REL: Record<string, Anchor["x"]["relativeTo"]> = {
  page: "page",
  margin: "margin",
  column: "column",
  character: "character",
  leftMargin: "leftMargin",
  rightMargin: "rightMargin",
  insideMargin: "insideMargin",
  outsideMargin: "outsideMargin",
  text: "column",
  char: "character",
};
const V_REL: Record<string, Anchor["y"]["relativeTo"]> = {
  page: "page",
  margin: "margin",
  paragraph: "paragraph",
  line: "line",
  topMargin: "topMargin",
  bottomMargin: "bottomMargin",
  insideMargin: "margin",
  outsideMargin: "margin",
  text: "paragraph",
};

function readAnchor(a: XNode): Anchor {
  const ph = a.child("positionH");
  const pv = a.child("positionV");
  const x: Anchor["x"] = { relativeTo: H_REL[ph?.attr("relativeFrom") ?? "column"] ?? "column" };
  const y: Anchor["y"] = { relativeTo: V_REL[pv?.attr("relativeFrom") ?? "paragraph"] ?? "paragraph" };
  const hAlign = ph?.child("align")?.text().trim();
  const vAlign = pv?.child("align")?.text().trim();
  if (hAlign === "left" || hAlign === "center" || hAlign === "right" || hAlign === "inside" || hAlign === "outside")
    x.align = hAlign;
  else x.offset = emu(ph?.child("posOffset")?.text().trim()) ?? 0;
  if (vAlign === "top" || vAlign === "center" || vAlign === "bottom" || vAlign === "inside" || vAlign === "outside")
    y.align = vAlign;
  else y.offset = emu(pv?.child("posOffset")?.text().trim()) ?? 0;
  if (a.attr("simplePos") === "1") {
    const sp = a.child("simplePos");
    return {
      ...baseAnchor(a),
      x: { relativeTo: "page", offset: emu(sp?.attr("x")) ?? 0 },
      y: { relativeTo: "page", offset: emu(sp?.attr("y")) ?? 0 },
    };
  }
  return { ...baseAnchor(a), x, y };
}

function baseAnchor(a: XNode): Anchor {
  let wrap: Anchor["wrap"] = "none";
  let wrapSide: Anchor["wrapSide"] | undefined;
  for (const c of a.children) {
    if (c.name === "wrapSquare" || c.name === "wrapTight" || c.name === "wrapThrough") {
      wrap = c.name === "wrapSquare" ? "square" : c.name === "wrapTight" ? "tight" : "through";
      const side = c.attr("wrapText");
      wrapSide = side === "left" || side === "right" || side === "largest" ? side : "both";
    } else if (c.name === "wrapTopAndBottom") wrap = "topAndBottom";
  }
  const behind = a.attr("behindDoc");
  const anchor: Anchor = {
    x: { relativeTo: "column", offset: 0 },
    y: { relativeTo: "paragraph", offset: 0 },
    wrap,
    distance: {
      top: emu(a.attr("distT")) ?? 0,
      bottom: emu(a.attr("distB")) ?? 0,
      left: emu(a.attr("distL")) ?? 0,
      right: emu(a.attr("distR")) ?? 0,
    },
    behindText: behind === "1" || behind === "true",
  };
  if (wrapSide) anchor.wrapSide = wrapSide;
  return anchor;
}

function solidFill(spPr: XNode | undefined, ctx: ParseContext): Color | null | undefined {
  const fill = spPr?.child("solidFill");
  if (!fill) return spPr?.child("noFill") ? null : undefined;
  const c = fill.children[0];
  if (c?.name === "srgbClr") return hexColor(c.attr("val")) ?? undefined;
  if (c?.name === "schemeClr") return themeColor(ctx.env.theme, c.attr("val")) ?? undefined;
  return undefined;
}

function lineOf(spPr: XNode | undefined, ctx: ParseContext): Border | null | undefined {
  const ln = spPr?.child("ln");
  if (!ln) return undefined;
  if (ln.child("noFill")) return null;
  const color = solidFill(ln, ctx);
  if (color === undefined && !ln.child("solidFill")) return undefined;
  return { style: "single", width: emu(ln.attr("w")) ?? 0.75, color: color ?? null, space: 0 };
}

/**
 * A w:drawing element → its inline: an image or a box (a group's box holding its parts, see
 * `groupParts`); none when it holds nothing we read.
 */
export function readDrawing(
  drawing: XNode,
  ctx: ParseContext,
  story: Story,
  style: RunStyle,
  readBlocks: BlocksReader,
): Inline[] {
  const holder = drawing.child("inline") ?? drawing.child("anchor");
  if (!holder) return [];
  const ext = holder.child("extent");
  const width = clampSize(emu(ext?.attr("cx")));
  const height = clampSize(emu(ext?.attr("cy")));
  const anchor = holder.name === "anchor" ? readAnchor(holder) : undefined;
  const data = holder.child("graphic")?.child("graphicData");
  if (!data) return [];
  if (anchor && anchor.wrap !== "none" && anchor.x.align === "right" && (data.child("wsp") || data.child("wgp")))
    anchor.rightDistanceInside = true;
  const group = data.child("wgp");
  const parts = group ? groupParts(group, { width, height }, ctx, story, style, readBlocks) : undefined;
  const one: Inline | undefined = parts
    ? { type: "box", blocks: [], width, height, style, parts, ...(anchor ? { anchor } : {}) }
    : readGraphic(data, width, height, anchor, ctx, story, style, readBlocks);
  return one ? [one] : [];
}

/** A picture, chart, shape, group or canvas (a:graphicData) as one image or box of `width` × `height` pt. */
function readGraphic(
  data: XNode,
  width: number,
  height: number,
  anchor: Anchor | undefined,
  ctx: ParseContext,
  story: Story,
  style: RunStyle,
  readBlocks: BlocksReader,
): Inline | undefined {
  const withAnchor = <T extends Inline>(i: T): T => (anchor ? { ...i, anchor } : i);
  const pic = data.child("pic");
  if (pic) {
    const blip = pic.first("blip");
    const image = imageFromRel(ctx, story, blip?.attr("embed"));
    if (image) return withAnchor({ type: "image", image, width, height, style });
    return withAnchor({ type: "box", blocks: [], width, height, style });
  }
  if (data.child("chart")) {
    const chart = readChart(data, ctx, story, style);
    return withAnchor(
      chart
        ? { type: "box", blocks: [], width, height, style, chart }
        : { type: "box", blocks: [], width, height, style },
    );
  }
  // A shape, a group or a canvas: gather its text boxes; a lone picture inside a group is an image.
  const texts = data.find("txbxContent");
  const blocks: Block[] = [];
  ctx.nested(() => {
    for (const t of texts) blocks.push(...readBlocks(t, story));
  });
  if (!texts.length) {
    const blip = data.first("blip");
    const image = blip ? imageFromRel(ctx, story, blip.attr("embed")) : undefined;
    if (image) return withAnchor({ type: "image", image, width, height, style });
  }
  const spPr = data.first("spPr");
  const box: Inline = { type: "box", blocks, width, height, style, ...textBoxLayout(data.first("bodyPr")) };
  const fill = solidFill(spPr, ctx);
  const border = lineOf(spPr, ctx);
  if (fill !== undefined) box.fill = fill;
  if (border !== undefined) box.border = border;
  return withAnchor(box);
}

/** Where a group's child coordinates land: pt = (child − chOff) × scale + origin, per axis. */
interface GroupFrame {
  x: number;
  y: number;
  scaleX: number;
  scaleY: number;
  chX: number;
  chY: number;
}

/** Parts of a group, nested groups included, at most this many (a hostile group of thousands is drawn as one box). */
const MAX_GROUP_PARTS = 200;

/**
 * The parts of a group, each at its own place in it: text boxes with their text, insets and
 * rectangle fill and line, pictures as images (the other shapes are not drawn).
 * LibreOffice places a group's children by the group's transform (the box around the children
 * fitted to the group's extent; in a nested group, its chOff and chExt mapped onto its own box), so
 * text boxes stacked in one group keep their order on the page, whatever their order in the XML.
 * Undefined (the group is read as one box) when a part is rotated or the group has too many parts
 * or none: checked before any text is read, as reading it counts list numbers and notes.
 */
function groupParts(
  group: XNode,
  size: { width: number; height: number },
  ctx: ParseContext,
  story: Story,
  style: RunStyle,
  readBlocks: BlocksReader,
): GroupPart[] | undefined {
  const out: GroupPart[] = [];
  let count = 0;
  /** The frame mapping child units `from` (a box in them) onto `box` (pt). */
  const childFrame = (from: Rect, box: Rect): GroupFrame => ({
    x: box.x,
    y: box.y,
    scaleX: from.w > 0 ? box.w / from.w : 1,
    scaleY: from.h > 0 ? box.h / from.h : 1,
    chX: from.x,
    chY: from.y,
  });
  const place = (xfrm: XNode | undefined, f: GroupFrame): Rect => {
    const off = xfrm?.child("off");
    const ext = xfrm?.child("ext");
    // Offsets as far as a page is wide either way (a child unit of 1 EMU scales without bound).
    const within = (n: number) => (Number.isFinite(n) ? Math.max(-MAX_SIDE, Math.min(MAX_SIDE, n)) : 0);
    return {
      x: within(f.x + ((emu(off?.attr("x")) ?? 0) - f.chX) * f.scaleX),
      y: within(f.y + ((emu(off?.attr("y")) ?? 0) - f.chY) * f.scaleY),
      w: clampSize((emu(ext?.attr("cx")) ?? 0) * f.scaleX),
      h: clampSize((emu(ext?.attr("cy")) ?? 0) * f.scaleY),
    };
  };
  const isPart = (c: XNode) => c.name === "wsp" || c.name === "pic" || c.name === "grpSp";
  const xfrmOf = (c: XNode) => c.child(c.name === "grpSp" ? "grpSpPr" : "spPr")?.child("xfrm");
  // Every part, nested ones included: none rotated, not too many.
  const drawable = (g: XNode): boolean => {
    for (const c of g.children) {
      if (!isPart(c)) continue;
      if (++count > MAX_GROUP_PARTS || Number(xfrmOf(c)?.attr("rot") ?? 0) !== 0) return false;
      if (c.name === "grpSp" && !drawable(c)) return false;
    }
    return true;
  };
  if (!drawable(group) || count === 0) return undefined;
  const walk = (g: XNode, f: GroupFrame): void => {
    for (const c of g.children) {
      if (!isPart(c)) continue;
      const spPr = c.child(c.name === "grpSp" ? "grpSpPr" : "spPr");
      const xfrm = spPr?.child("xfrm");
      const at = place(xfrm, f);
      if (c.name === "grpSp") walk(c, childFrame(childSpace(xfrm), at));
      else if (c.name === "pic") {
        const image = imageFromRel(ctx, story, c.first("blip")?.attr("embed"));
        if (image) out.push({ x: at.x, y: at.y, inline: { type: "image", image, width: at.w, height: at.h, style } });
      } else {
        const text = c.child("txbx")?.child("txbxContent");
        const blocks: Block[] = [];
        if (text) ctx.nested(() => blocks.push(...readBlocks(text, story)));
        const rect = (spPr?.child("prstGeom")?.attr("prst") ?? "rect") === "rect";
        const box: Extract<Inline, { type: "box" }> = {
          type: "box",
          blocks,
          width: at.w,
          height: at.h,
          style,
          ...textBoxLayout(c.child("bodyPr")),
        };
        const fill = rect ? solidFill(spPr, ctx) : undefined;
        const border = rect ? lineOf(spPr, ctx) : undefined;
        if (fill !== undefined) box.fill = fill;
        if (border !== undefined) box.border = border;
        if (text || fill || border) out.push({ x: at.x, y: at.y, inline: box });
      }
    }
  };
  const top = childFrame(childBounds(group) ?? childSpace(group.child("grpSpPr")?.child("xfrm")), {
    x: 0,
    y: 0,
    w: size.width,
    h: size.height,
  });
  walk(group, top);
  return out;
}

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A group's child coordinate space (a:chOff, a:chExt), pt. */
function childSpace(xfrm: XNode | undefined): Rect {
  const chOff = xfrm?.child("chOff");
  const chExt = xfrm?.child("chExt");
  return {
    x: emu(chOff?.attr("x")) ?? 0,
    y: emu(chOff?.attr("y")) ?? 0,
    w: emu(chExt?.attr("cx")) ?? 0,
    h: emu(chExt?.attr("cy")) ?? 0,
  };
}

/**
 * The box around a top-level group's children, in their units: LibreOffice fits it to the
 * group's extent, whatever the group's chOff and chExt say (measured: with a chExt twice the
 * children's span they still fill the extent; a nested group keeps its own). Word writes them equal.
 */
function childBounds(group: XNode): Rect | undefined {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const c of group.children) {
    const xfrm = c.child(c.name === "grpSp" ? "grpSpPr" : "spPr")?.child("xfrm");
    const off = xfrm?.child("off");
    const ext = xfrm?.child("ext");
    if (!off || !ext) continue;
    const [x, y, w, h] = [off.attr("x"), off.attr("y"), ext.attr("cx"), ext.attr("cy")].map((v) => emu(v) ?? 0);
    x0 = Math.min(x0, x!);
    y0 = Math.min(y0, y!);
    x1 = Math.max(x1, x! + Math.max(0, w!));
    y1 = Math.max(y1, y! + Math.max(0, h!));
  }
  return x1 > x0 && y1 > y0 ? { x: x0, y: y0, w: x1 - x0, h: y1 - y0 } : undefined;
}

/**
 * A DrawingML text box's insets and vertical anchor (wps:bodyPr): LibreOffice places the text
 * inside the insets at the top, middle or bottom (measured on minimal documents).
 */
function textBoxLayout(bodyPr: XNode | undefined): Pick<Extract<Inline, { type: "box" }>, "insets" | "textAnchor"> {
  if (!bodyPr) return {};
  const insetPt = (name: string, fallback: number) => {
    const v = Number(bodyPr.attr(name));
    return bodyPr.attr(name) !== undefined && Number.isFinite(v) && v >= 0 ? Math.min(v / 12700, 1584) : fallback;
  };
  const out: Pick<Extract<Inline, { type: "box" }>, "insets" | "textAnchor"> = {};
  if (["lIns", "tIns", "rIns", "bIns"].some((n) => bodyPr.attr(n) !== undefined))
    out.insets = {
      left: insetPt("lIns", 7.2),
      top: insetPt("tIns", 3.6),
      right: insetPt("rIns", 7.2),
      bottom: insetPt("bIns", 3.6),
    };
  const anchor = bodyPr.attr("anchor");
  if (anchor === "ctr") out.textAnchor = "middle";
  else if (anchor === "b") out.textAnchor = "bottom";
  return out;
}

/** CSS-like VML style ("width:100pt;height:2in;position:absolute") → map. */
function vmlStyle(style: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const decl of (style ?? "").split(";")) {
    const colon = decl.indexOf(":");
    if (colon > 0) out.set(decl.slice(0, colon).trim().toLowerCase(), decl.slice(colon + 1).trim());
  }
  return out;
}

function vmlLength(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (/^-?\d*\.?\d+px$/.test(v)) return parseFloat(v) * 0.75;
  // Bare numbers in VML style are pixels too (96 dpi).
  if (/^-?\d*\.?\d+$/.test(v)) return parseFloat(v) * 0.75;
  return measure(v, 1);
}

const VML_SHAPES = new Set(["shape", "rect", "roundrect", "oval", "line", "polyline", "arc", "image", "group"]);

/** w:pict / w:object (VML) → image or box; best effort (absolute positions read as anchors). */
export function readVml(
  pict: XNode,
  ctx: ParseContext,
  story: Story,
  style: RunStyle,
  readBlocks: BlocksReader,
): Inline | undefined {
  const shape = pict.children.find((c) => VML_SHAPES.has(c.name));
  if (!shape) return undefined;
  const css = vmlStyle(shape.attr("style"));
  if (css.get("visibility") === "hidden" || css.get("display") === "none") return undefined;
  const width = clampSize(vmlLength(css.get("width")));
  const height = clampSize(vmlLength(css.get("height")));
  let anchor: Anchor | undefined;
  if (css.get("position") === "absolute") {
    const wrapType = shape.child("wrap")?.attr("type");
    const hRel = css.get("mso-position-horizontal-relative") ?? "text";
    const vRel = css.get("mso-position-vertical-relative") ?? "text";
    const hAlign = css.get("mso-position-horizontal");
    const vAlign = css.get("mso-position-vertical");
    anchor = {
      x: { relativeTo: H_REL[hRel] ?? "column" },
      y: { relativeTo: V_REL[vRel] ?? "paragraph" },
      wrap:
        wrapType === "square"
          ? "square"
          : wrapType === "tight"
            ? "tight"
            : wrapType === "through"
              ? "through"
              : wrapType === "topAndBottom"
                ? "topAndBottom"
                : "none",
      distance: { top: 0, bottom: 0, left: 9, right: 9 },
      behindText: (parseInt(css.get("z-index") ?? "0", 10) || 0) < 0,
    };
    if (hAlign === "left" || hAlign === "center" || hAlign === "right" || hAlign === "inside" || hAlign === "outside")
      anchor.x.align = hAlign;
    else anchor.x.offset = vmlLength(css.get("margin-left") ?? css.get("left")) ?? 0;
    if (vAlign === "top" || vAlign === "center" || vAlign === "bottom" || vAlign === "inside" || vAlign === "outside")
      anchor.y.align = vAlign;
    else anchor.y.offset = vmlLength(css.get("margin-top") ?? css.get("top")) ?? 0;
  }
  const withAnchor = <T extends Inline>(i: T): T => (anchor ? { ...i, anchor } : i);
  const imagedata = shape.first("imagedata");
  if (imagedata) {
    const image = imageFromRel(ctx, story, imagedata.attr("id") ?? imagedata.attr("relid"));
    if (image) return withAnchor({ type: "image", image, width, height, style });
  }
  const texts = shape.find("txbxContent");
  if (!texts.length && !width && !height) return undefined;
  const blocks: Block[] = [];
  ctx.nested(() => {
    for (const t of texts) blocks.push(...readBlocks(t, story));
  });
  const box: Inline = { type: "box", blocks, width, height, style };
  const filled = shape.attr("filled");
  const fill = hexColor(shape.attr("fillcolor")?.replace(/\s.*$/, ""));
  if (filled !== "f" && filled !== "false" && fill) box.fill = fill;
  return withAnchor(box);
}
