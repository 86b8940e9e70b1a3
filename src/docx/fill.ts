/**
 * Filling one content control: the new content of its `w:sdtContent` and the few edits to its
 * `w:sdtPr` (placeholder flag dropped, data binding dropped so Word does not put the old value
 * back, checkbox state, date value). Everything is returned as splices on the part's text; the
 * control wrapper, its id, alias and tag stay, so a filled document can be filled again.
 */
import type { Control } from "./controls";
import { inlineDrawingXml, pictureExtent, type DrawingNamespaces, type Extent, type ImageInfo } from "./images";
import { formatDate, fullDateValue, DEFAULT_DATE_FORMAT, type ParsedDate } from "./values";
import {
  applySplices,
  attrByLocal,
  escapeAttr,
  escapeText,
  localName,
  parseElements,
  readAttributes,
  type Splice,
  type XmlElement,
} from "./xml";

export interface PreparedImage {
  key: string;
  bytes: Uint8Array;
  info: ImageInfo;
}

export type FillValue =
  | { kind: "text"; text: string; signature?: boolean }
  | { kind: "checkbox"; checked: boolean }
  | { kind: "date"; date: ParsedDate; format?: string }
  | { kind: "image"; image: PreparedImage; width?: number; height?: number }
  | { kind: "table"; rows: string[][] };

export interface FillOptions {
  /** Keep the first run's formatting (default true). */
  keepStyles: boolean;
  /** Caption under a signature. */
  bottomLabel?: string;
}

export interface FillContext {
  xml: string;
  part: string;
  /** The WordprocessingML namespace URI of the document (for elements we write without a prefix in scope). */
  wNamespace: string;
  drawing: DrawingNamespaces;
  maxWidthEmu: number;
  embedImage(image: PreparedImage): string;
  nextDocPrId(): number;
}

/** Run properties in schema order (CT_RPr), so inserted properties land where Word expects them. */
const RPR_ORDER = [
  "rStyle",
  "rFonts",
  "b",
  "bCs",
  "i",
  "iCs",
  "caps",
  "smallCaps",
  "strike",
  "dstrike",
  "outline",
  "shadow",
  "emboss",
  "imprint",
  "noProof",
  "snapToGrid",
  "vanish",
  "webHidden",
  "color",
  "spacing",
  "w",
  "kern",
  "position",
  "sz",
  "szCs",
  "highlight",
  "u",
  "effect",
  "bdr",
  "shd",
  "fitText",
  "vertAlign",
  "rtl",
  "cs",
  "em",
  "lang",
  "eastAsianLayout",
  "specVanish",
  "oMath",
];

const SIGNATURE_FONT = "Brush Script MT";

function firstDescendant(els: XmlElement[], local: string): XmlElement | null {
  for (const el of els) {
    if (localName(el.name) === local) return el;
    const inner = firstDescendant(el.children, local);
    if (inner) return inner;
  }
  return null;
}

function childByLocal(el: XmlElement, local: string): XmlElement | undefined {
  return el.children.find((c) => localName(c.name) === local);
}

class Names {
  readonly p: string;
  readonly decl: string;
  constructor(prefix: string, ns: string) {
    this.p = prefix || "w";
    this.decl = prefix ? "" : ` xmlns:w="${ns}"`;
  }
  el(local: string): string {
    return `${this.p}:${local}`;
  }
}

/**
 * Edits run properties: removes the named properties and inserts new ones in schema order.
 * `rPr` is the element text (`<w:rPr>...</w:rPr>`, possibly self-closing) or "".
 */
export function editRunProperties(
  rPr: string,
  n: { el(local: string): string },
  remove: string[],
  insert: { local: string; xml: string }[],
): string {
  let children: { local: string; xml: string }[] = [];
  if (rPr) {
    const [root] = parseElements(rPr, "rPr");
    if (root && !root.selfClosing) {
      children = root.children.map((c) => ({ local: localName(c.name), xml: rPr.slice(c.start, c.end) }));
    }
  }
  children = children.filter((c) => !remove.includes(c.local));
  for (const ins of insert) {
    const rank = RPR_ORDER.indexOf(ins.local);
    const at = children.findIndex((c) => {
      const r = RPR_ORDER.indexOf(c.local);
      return r < 0 || r > rank;
    });
    if (at < 0) children.push(ins);
    else children.splice(at, 0, ins);
  }
  if (!children.length) return "";
  return `<${n.el("rPr")}>${children.map((c) => c.xml).join("")}</${n.el("rPr")}>`;
}

function runText(n: Names, text: string): string {
  const lines = text.split(/\r\n|\r|\n/);
  const t = (s: string) => `<${n.el("t")} xml:space="preserve">${escapeText(s)}</${n.el("t")}>`;
  const parts = lines.map((line) =>
    line
      .split("\t")
      .map((s, i) => (i ? `<${n.el("tab")}/>` : "") + (s ? t(s) : ""))
      .join(""),
  );
  const inner = parts.join(`<${n.el("br")}/>`);
  return inner || t("");
}

function run(n: Names, rPr: string, inner: string): string {
  return `<${n.el("r")}${n.decl}>${rPr}${inner}</${n.el("r")}>`;
}

/** The splices that fill control `c` with `value`. */
export function fillControl(ctx: FillContext, c: Control, value: FillValue, opts: FillOptions): Splice[] {
  const { xml } = ctx;
  const n = new Names(c.prefix, ctx.wNamespace);
  const splices: Splice[] = [];
  const content =
    c.content && !c.content.selfClosing ? parseElements(xml, ctx.part, c.content.openEnd, c.content.closeStart) : [];
  const pr = c.pr && !c.pr.selfClosing ? (parseElements(xml, ctx.part, c.pr.start, c.pr.end)[0] ?? null) : null;

  // The formatting the value takes: the first run's, or the control's own when it shows its placeholder.
  let rPr = "";
  if (opts.keepStyles) {
    const firstRun = firstDescendant(content, "r");
    const runProps = firstRun ? childByLocal(firstRun, "rPr") : undefined;
    const controlProps = pr ? childByLocal(pr, "rPr") : undefined;
    if (c.showingPlaceholder && controlProps) rPr = xml.slice(controlProps.start, controlProps.end);
    else if (runProps) rPr = xml.slice(runProps.start, runProps.end);
    if (rPr && /PlaceholderText/.test(rPr)) rPr = removePlaceholderStyle(rPr);
  }

  // --- sdtPr edits
  if (pr) {
    for (const el of pr.children) {
      const local = localName(el.name);
      if (local === "showingPlcHdr" || local === "dataBinding")
        splices.push({ start: el.start, end: el.end, text: "" });
      if (local === "checkbox" && value.kind === "checkbox")
        splices.push(...checkboxStateSplices(xml, el, value.checked));
      if (local === "date" && value.kind === "date")
        splices.push(setAttribute(xml, el, "fullDate", fullDateValue(value.date)));
      // A plain-text control takes line breaks only when it is multi-line.
      if (local === "text" && value.kind === "text" && /[\r\n]/.test(value.text))
        splices.push(setAttribute(xml, el, "multiLine", "1"));
    }
  }

  // --- the runs of the value
  let runs: string;
  let table: string[][] | null = null;
  switch (value.kind) {
    case "text": {
      let props = rPr;
      if (value.signature) {
        props = editRunProperties(
          rPr,
          n,
          ["rFonts", "i", "iCs"],
          [
            {
              local: "rFonts",
              xml: `<${n.el("rFonts")} ${n.p}:ascii="${SIGNATURE_FONT}" ${n.p}:hAnsi="${SIGNATURE_FONT}" ${n.p}:cs="${SIGNATURE_FONT}"/>`,
            },
            { local: "i", xml: `<${n.el("i")}/>` },
            { local: "iCs", xml: `<${n.el("iCs")}/>` },
            ...(/:sz\b/.test(rPr) ? [] : [{ local: "sz", xml: `<${n.el("sz")} ${n.p}:val="32"/>` }]),
          ],
        );
      }
      runs = run(n, props, runText(n, value.text));
      break;
    }
    case "date": {
      const picture = c.date?.format || value.format || DEFAULT_DATE_FORMAT;
      runs = run(n, rPr, runText(n, formatDate(value.date, picture, c.date?.lid)));
      break;
    }
    case "checkbox": {
      if (c.checkbox) {
        const ch = value.checked ? c.checkbox.checkedChar : c.checkbox.uncheckedChar;
        const font = value.checked ? c.checkbox.checkedFont : c.checkbox.uncheckedFont;
        const props = font
          ? editRunProperties(
              rPr,
              n,
              ["rFonts"],
              [
                {
                  local: "rFonts",
                  xml: `<${n.el("rFonts")} ${n.p}:ascii="${escapeAttr(font)}" ${n.p}:eastAsia="${escapeAttr(font)}" ${n.p}:hAnsi="${escapeAttr(font)}" ${n.p}:hint="eastAsia"/>`,
                },
              ],
            )
          : rPr;
        runs = run(n, props, runText(n, ch));
      } else {
        runs = run(n, rPr, runText(n, value.checked ? "\u2612" : "\u2610"));
      }
      break;
    }
    case "image": {
      const box = existingExtent(xml, content);
      const extent = pictureExtent(value.image.info, {
        width: value.width,
        height: value.height,
        box,
        maxWidthEmu: ctx.maxWidthEmu,
      });
      const docPrId = ctx.nextDocPrId();
      const drawing = inlineDrawingXml((l) => n.el(l), {
        relId: ctx.embedImage(value.image),
        extent,
        docPrId,
        name: `Picture ${docPrId}`,
        description: c.alias,
        ns: ctx.drawing,
      });
      runs = run(n, rPr, drawing);
      break;
    }
    case "table":
      table = value.rows;
      runs = run(n, rPr, runText(n, value.rows.map((r) => r.join("\t")).join("\n")));
      break;
  }
  if (opts.bottomLabel !== undefined && (value.kind === "image" || (value.kind === "text" && value.signature))) {
    const captionProps = editRunProperties(
      rPr,
      n,
      ["i", "iCs", "sz", "szCs", "rFonts"],
      [
        { local: "sz", xml: `<${n.el("sz")} ${n.p}:val="16"/>` },
        { local: "szCs", xml: `<${n.el("szCs")} ${n.p}:val="16"/>` },
      ],
    );
    runs += run(n, captionProps, `<${n.el("br")}/>${runText(n, opts.bottomLabel)}`);
  }

  // --- the new content, by level
  if (table && (c.level === "block" || c.level === "row")) {
    const tableSplices = fillTable(ctx, n, c, content, table);
    if (tableSplices) return [...splices, ...tableSplices];
  }
  // Row- and cell-level controls keep their table structure: each row or cell is rebuilt in place
  // (through nested row/cell controls), the first cell taking the value, the others emptied.
  if (c.level === "row" || c.level === "cell") {
    const wrapper = { children: content } as XmlElement;
    const targets = c.level === "row" ? rowsOf(wrapper) : cellsOf(wrapper);
    targets.forEach((el, i) => {
      const text =
        c.level === "row"
          ? rebuildRow(xml, n, el, i === 0 ? runs : null)
          : rebuildCell(xml, n, el, i === 0 ? runs : null);
      splices.push({ start: el.start, end: el.end, text });
    });
    return splices;
  }
  const inner = c.level === "inline" ? runs : paragraph(xml, n, firstDescendant(content, "p"), runs);
  splices.push(contentSplice(xml, c, n, inner));
  return splices;
}

function removePlaceholderStyle(rPr: string): string {
  const [root] = parseElements(rPr, "rPr");
  if (!root) return rPr;
  const style = root.children.find(
    (ch) => localName(ch.name) === "rStyle" && /PlaceholderText/.test(rPr.slice(ch.start, ch.end)),
  );
  if (!style) return rPr;
  const out = rPr.slice(0, style.start) + rPr.slice(style.end);
  return /^<[^>]*>\s*<\/[^>]*>$/.test(out) ? "" : out;
}

function contentSplice(xml: string, c: Control, n: Names, inner: string): Splice {
  if (c.content && !c.content.selfClosing) return { start: c.content.openEnd, end: c.content.closeStart, text: inner };
  const el = `<${n.el("sdtContent")}${n.decl}>${inner}</${n.el("sdtContent")}>`;
  if (c.content) return { start: c.content.start, end: c.content.end, text: el };
  const at = c.pr ? c.pr.end : xml.lastIndexOf("</", c.end - 1);
  return { start: at, end: at, text: el };
}

function paragraph(xml: string, n: Names, p: XmlElement | null, runs: string): string {
  const pPr = p ? childByLocal(p, "pPr") : undefined;
  return `<${n.el("p")}${n.decl}>${pPr ? xml.slice(pPr.start, pPr.end) : ""}${runs}</${n.el("p")}>`;
}

/** A cell with its properties kept and its content replaced by one paragraph (empty when runs is null). */
function rebuildCell(xml: string, n: Names, tc: XmlElement, runs: string | null): string {
  if (tc.selfClosing) return `<${n.el("tc")}>${paragraph(xml, n, null, runs ?? "")}</${n.el("tc")}>`;
  const tcPr = childByLocal(tc, "tcPr");
  const bodyStart = tcPr ? tcPr.end : tc.openEnd;
  return (
    xml.slice(tc.start, bodyStart) +
    paragraph(xml, n, firstDescendant(tc.children, "p"), runs ?? "") +
    xml.slice(tc.closeStart, tc.end)
  );
}

/** Cells of a row, including cells wrapped in cell-level controls. */
function cellsOf(tr: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (els: XmlElement[]) => {
    for (const el of els) {
      const l = localName(el.name);
      if (l === "tc") out.push(el);
      else if (l === "sdt" || l === "sdtContent" || l === "customXml") walk(el.children);
    }
  };
  walk(tr.children);
  return out;
}

function rebuildRow(xml: string, n: Names, tr: XmlElement, runs: string | null): string {
  const splices: Splice[] = cellsOf(tr).map((tc, i) => ({
    start: tc.start - tr.start,
    end: tc.end - tr.start,
    text: rebuildCell(xml, n, tc, i === 0 ? runs : null),
  }));
  return dropDataBindings(applySplices(xml.slice(tr.start, tr.end), splices));
}

/** Nested controls kept around rebuilt cells must not pull their old value back from custom XML. */
function dropDataBindings(fragment: string): string {
  return fragment.replace(/<(?:[A-Za-z_][\w.-]*:)?dataBinding\b[^>]*\/>/g, "");
}

/** Rows of a table, including rows wrapped in row-level controls. */
function rowsOf(tbl: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (els: XmlElement[]) => {
    for (const el of els) {
      const l = localName(el.name);
      if (l === "tr") out.push(el);
      else if (l === "sdt" || l === "sdtContent" || l === "customXml") walk(el.children);
    }
  };
  walk(tbl.children);
  return out;
}

/**
 * `table` values: the last row of the first table in the control is the template row; it is
 * replaced by one row per value row, each cell keeping the template cell's properties and the
 * formatting of its first paragraph and run. Earlier rows (headers) stay.
 */
function fillTable(ctx: FillContext, n: Names, c: Control, content: XmlElement[], rows: string[][]): Splice[] | null {
  const { xml } = ctx;
  let templateRows: XmlElement[];
  if (c.level === "row") {
    templateRows = rowsOf({ children: content } as XmlElement);
  } else {
    const tbl = firstDescendant(content, "tbl");
    if (!tbl) return null;
    templateRows = rowsOf(tbl);
  }
  const template = templateRows[templateRows.length - 1];
  if (!template) return null;
  const cells = cellsOf(template);
  const generated = rows
    .map((values) => {
      const splices: Splice[] = cells.map((tc, i) => {
        const r = firstDescendant(tc.children, "r");
        const rp = r ? childByLocal(r, "rPr") : undefined;
        const rPr = rp ? xml.slice(rp.start, rp.end) : "";
        return {
          start: tc.start - template.start,
          end: tc.end - template.start,
          text: rebuildCell(xml, n, tc, run(n, rPr, runText(n, values[i] ?? ""))),
        };
      });
      return dropDataBindings(applySplices(xml.slice(template.start, template.end), splices));
    })
    .join("");
  return [{ start: template.start, end: template.end, text: generated }];
}

/** The extent of a picture already in the control (picture content controls), if any. */
function existingExtent(xml: string, content: XmlElement[]): Extent | null {
  const ext = firstDescendant(content, "extent");
  if (!ext || !ext.parent || !["inline", "anchor"].includes(localName(ext.parent.name))) return null;
  const a = readAttributes(xml, ext);
  const cx = Number(a.get("cx"));
  const cy = Number(a.get("cy"));
  return cx > 0 && cy > 0 ? { cx, cy } : null;
}

/** Sets (or adds) the attribute with this local name on an element's start tag, with the element's prefix. */
function setAttribute(xml: string, el: XmlElement, local: string, value: string): Splice {
  const attrs = xml.slice(el.attrStart, el.attrEnd);
  const re = new RegExp(`(\\s)((?:[A-Za-z_][\\w.-]*:)?${local})(\\s*=\\s*)("[^"]*"|'[^']*')`);
  const m = re.exec(attrs);
  if (m) {
    const at = el.attrStart + m.index + m[1]!.length + m[2]!.length + m[3]!.length;
    return { start: at, end: at + m[4]!.length, text: `"${escapeAttr(value)}"` };
  }
  const colon = el.name.indexOf(":");
  const prefix = colon < 0 ? "" : el.name.slice(0, colon + 1);
  return { start: el.attrEnd, end: el.attrEnd, text: ` ${prefix}${local}="${escapeAttr(value)}"` };
}

function checkboxStateSplices(xml: string, box: XmlElement, checked: boolean): Splice[] {
  const v = checked ? "1" : "0";
  const state = box.children.find((ch) => localName(ch.name) === "checked");
  if (state) {
    const current = attrByLocal(readAttributes(xml, state), "val");
    if (current === v) return [];
    return [setAttribute(xml, state, "val", v)];
  }
  const colon = box.name.indexOf(":");
  const p = colon < 0 ? "" : box.name.slice(0, colon + 1);
  const el = `<${p}checked ${p}val="${v}"/>`;
  if (box.selfClosing)
    return [
      {
        start: box.start,
        end: box.end,
        text: `<${box.name}${xml.slice(box.attrStart, box.attrEnd)}>${el}</${box.name}>`,
      },
    ];
  return [{ start: box.openEnd, end: box.openEnd, text: el }];
}
