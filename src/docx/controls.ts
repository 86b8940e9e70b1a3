/**
 * Content-control discovery: one pass of the tokenizer over a part finds every `w:sdt` (nested
 * ones too) with the byte ranges of its properties and content and the level it sits at (inside a
 * paragraph, between paragraphs, around table rows or cells). Then each control's `w:sdtPr` (a
 * small fragment) is read for what matching and filling need: id, tag (plain or SuperDoc JSON),
 * alias, SuperDoc's `w:fieldTypeShort`, checkbox, date and picture settings.
 */
import { UnprocessableContent } from "../errors";
import { LIMITS } from "../limits";
import { W_NAMESPACES } from "./package";
import { attrByLocal, localName, parseElements, readAttributes, tokenize, type XmlElement } from "./xml";

/** What a control's content holds: runs, paragraphs/tables, rows or cells. */
export type ControlLevel = "inline" | "block" | "row" | "cell";

export type ControlKind =
  | "richText"
  | "text"
  | "picture"
  | "checkbox"
  | "date"
  | "dropDownList"
  | "comboBox"
  | "docPart"
  | "group"
  | "repeatingSection"
  | "other";

export interface Range {
  start: number;
  end: number;
  openEnd: number;
  closeStart: number;
  selfClosing: boolean;
}

export interface Control {
  part: string;
  index: number;
  /** Qualified-name prefix of the `sdt` element (`w`). */
  prefix: string;
  start: number;
  end: number;
  pr: Range | null;
  content: Range | null;
  level: ControlLevel;
  /** Enclosing control in the same part, or -1. */
  parent: number;
  id?: string;
  tag?: string;
  /** The tag parsed as a JSON object (SuperDoc), when it is one. */
  tagJson?: Record<string, unknown>;
  alias?: string;
  fieldTypeShort?: string;
  kind: ControlKind;
  showingPlaceholder: boolean;
  checkbox?: {
    checked: boolean;
    checkedChar: string;
    checkedFont?: string;
    uncheckedChar: string;
    uncheckedFont?: string;
  };
  date?: { format?: string; lid?: string };
}

const BLOCK_PARENTS = new Set([
  "body",
  "tc",
  "txbxContent",
  "hdr",
  "ftr",
  "footnote",
  "endnote",
  "comment",
  "docPartBody",
  "document",
]);
const INLINE_PARENTS = new Set([
  "p",
  "hyperlink",
  "smartTag",
  "fldSimple",
  "ins",
  "del",
  "moveFrom",
  "moveTo",
  "dir",
  "bdo",
]);

interface Frame {
  name: string;
  /** What an `sdt` directly inside this element holds. */
  ctx: ControlLevel;
  /** For `sdt` frames: the control being built. */
  control?: Control;
  /** `sdtPr`/`sdtContent` directly inside an sdt frame. */
  role?: "pr" | "content";
  decls?: Map<string, string>;
  start?: number;
  openEnd?: number;
}

/** Finds the content controls of one part. */
export function scanControls(xml: string, part: string): Control[] {
  const controls: Control[] = [];
  const frames: Frame[] = [];
  const declStack: Map<string, string>[] = [];
  const resolve = (prefix: string): string | undefined => {
    for (let i = declStack.length - 1; i >= 0; i--) {
      const v = declStack[i]!.get(prefix);
      if (v !== undefined) return v;
    }
    return undefined;
  };
  const openControls: Control[] = [];

  tokenize(xml, part, {
    open(name, start, attrStart, attrEnd, openEnd, selfClosing, hasXmlns) {
      let decls: Map<string, string> | undefined;
      if (hasXmlns) {
        decls = new Map();
        for (const [k, v] of readAttributes(xml, { attrStart, attrEnd })) {
          if (k === "xmlns") decls.set("", v);
          else if (k.startsWith("xmlns:")) decls.set(k.slice(6), v);
        }
        declStack.push(decls);
      }
      const colon = name.indexOf(":");
      const prefix = colon < 0 ? "" : name.slice(0, colon);
      const local = colon < 0 ? name : name.slice(colon + 1);
      const parent = frames[frames.length - 1];
      const parentCtx: ControlLevel = parent ? parent.ctx : "block";
      const isW = W_NAMESPACES.has(resolve(prefix) ?? "");
      let ctx = parentCtx;
      let control: Control | undefined;
      let role: Frame["role"];
      if (isW) {
        if (BLOCK_PARENTS.has(local)) ctx = "block";
        else if (INLINE_PARENTS.has(local)) ctx = "inline";
        else if (local === "tbl") ctx = "row";
        else if (local === "tr") ctx = "cell";
        else if (local === "sdt" && !selfClosing) {
          if (controls.length >= LIMITS.docx.maxControls) {
            throw new UnprocessableContent(
              "docx_invalid",
              `The document has more than ${LIMITS.docx.maxControls} content controls.`,
            );
          }
          control = {
            part,
            index: controls.length,
            prefix,
            start,
            end: -1,
            pr: null,
            content: null,
            level: parentCtx,
            parent: openControls.length ? openControls[openControls.length - 1]!.index : -1,
            kind: "richText",
            showingPlaceholder: false,
          };
          controls.push(control);
          openControls.push(control);
        } else if ((local === "sdtPr" || local === "sdtContent") && parent?.control) {
          role = local === "sdtPr" ? "pr" : "content";
          ctx = parent.control.level;
          if (selfClosing) {
            const range = { start, end: openEnd, openEnd, closeStart: openEnd, selfClosing: true };
            if (role === "pr") parent.control.pr = range;
            else parent.control.content = range;
          }
        }
      }
      if (selfClosing) {
        if (decls) declStack.pop();
        return;
      }
      frames.push({ name, ctx, control, role, decls, start, openEnd });
    },
    close(_name, start, end) {
      const frame = frames.pop()!;
      if (frame.decls) declStack.pop();
      if (frame.control) {
        frame.control.end = end;
        openControls.pop();
      } else if (frame.role) {
        const owner = frames[frames.length - 1]!.control!;
        const range = { start: frame.start!, end, openEnd: frame.openEnd!, closeStart: start, selfClosing: false };
        if (frame.role === "pr") owner.pr = range;
        else owner.content = range;
      }
    },
  });

  for (const c of controls) readProperties(xml, c);
  return controls;
}

const KINDS: Record<string, ControlKind> = {
  text: "text",
  picture: "picture",
  checkbox: "checkbox",
  date: "date",
  dropDownList: "dropDownList",
  comboBox: "comboBox",
  docPartObj: "docPart",
  docPartList: "docPart",
  group: "group",
  repeatingSection: "repeatingSection",
  repeatingSectionItem: "repeatingSection",
  equation: "other",
  citation: "other",
  bibliography: "other",
};

function readProperties(xml: string, c: Control): void {
  if (!c.pr || c.pr.selfClosing) return;
  const [pr] = parseElements(xml, c.part, c.pr.start, c.pr.end);
  if (!pr) return;
  for (const el of pr.children) {
    const local = localName(el.name);
    const attrs = () => readAttributes(xml, el);
    switch (local) {
      case "id":
        c.id = attrByLocal(attrs(), "val");
        break;
      case "tag": {
        const tag = attrByLocal(attrs(), "val");
        c.tag = tag;
        const t = tag?.trim();
        if (t && t.startsWith("{") && t.endsWith("}")) {
          try {
            const parsed = JSON.parse(t) as unknown;
            if (parsed && typeof parsed === "object" && !Array.isArray(parsed))
              c.tagJson = parsed as Record<string, unknown>;
          } catch {
            // a plain tag that happens to look like JSON
          }
        }
        break;
      }
      case "alias":
        c.alias = attrByLocal(attrs(), "val");
        break;
      case "fieldTypeShort":
        c.fieldTypeShort = attrByLocal(attrs(), "val") ?? "";
        break;
      case "showingPlcHdr": {
        const v = attrByLocal(attrs(), "val");
        c.showingPlaceholder = v === undefined || !/^(0|false|off)$/i.test(v);
        break;
      }
      case "date":
        c.kind = "date";
        c.date = {};
        for (const d of el.children) {
          const v = attrByLocal(readAttributes(xml, d), "val");
          if (localName(d.name) === "dateFormat") c.date.format = v;
          if (localName(d.name) === "lid") c.date.lid = v;
        }
        break;
      case "checkbox":
        c.kind = "checkbox";
        c.checkbox = readCheckbox(xml, el);
        break;
      default: {
        const kind = KINDS[local];
        if (kind) c.kind = kind;
      }
    }
  }
}

function readCheckbox(xml: string, el: XmlElement): NonNullable<Control["checkbox"]> {
  const box: NonNullable<Control["checkbox"]> = { checked: false, checkedChar: "\u2612", uncheckedChar: "\u2610" };
  const charOf = (hex: string | undefined, fallback: string) => {
    const n = hex ? parseInt(hex, 16) : NaN;
    return Number.isFinite(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : fallback;
  };
  for (const d of el.children) {
    const a = readAttributes(xml, d);
    switch (localName(d.name)) {
      case "checked": {
        const v = attrByLocal(a, "val");
        box.checked = v === "1" || v === "true" || v === "on";
        break;
      }
      case "checkedState":
        box.checkedChar = charOf(attrByLocal(a, "val"), box.checkedChar);
        box.checkedFont = attrByLocal(a, "font");
        break;
      case "uncheckedState":
        box.uncheckedChar = charOf(attrByLocal(a, "val"), box.uncheckedChar);
        box.uncheckedFont = attrByLocal(a, "font");
        break;
    }
  }
  return box;
}

/** Interface.md's matching rules. */
/** The ids a field's `id` selects this control by: its w:id, and its JSON tag's fieldId or else its plain tag. */
export function idKeys(c: Control): string[] {
  const keys: string[] = [];
  if (c.id !== undefined) keys.push(c.id);
  // A plain tag: Word-authored controls, and SuperDoc's legacy annotations (tag + w:fieldTypeShort).
  const second = c.tagJson ? jsonKey(c.tagJson.fieldId) : c.tag;
  if (second !== undefined && second !== c.id) keys.push(second);
  return keys;
}

/** The group a field's `group` selects this control by: its JSON tag's group, or else its plain tag. */
export function groupKey(c: Control): string | undefined {
  return c.tagJson ? jsonKey(c.tagJson.group) : c.tag;
}

function jsonKey(v: unknown): string | undefined {
  return v === undefined || v === null ? undefined : String(v);
}

export function matchesId(c: Control, id: string): boolean {
  return idKeys(c).includes(id);
}

export function matchesGroup(c: Control, group: string): boolean {
  return groupKey(c) === group;
}
