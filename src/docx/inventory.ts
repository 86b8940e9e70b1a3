/**
 * The fields of a template as a template builder sees them (POST /v1/fields): every content
 * control in document order (body, then headers, footers and notes as the main part names them),
 * with what a backend needs to map its data before calling annotate: the selectors that reach it
 * (id, tag, SuperDoc fieldId and group), its type, its current value and where it sits.
 */
import type { Control, ControlKind } from "./controls";
import { relTypeName } from "./package";
import { DocxTemplate } from "./template";
import { attrByLocal, localName, parseElements, readAttributes, textOf, type XmlElement } from "./xml";

export type FieldLocation = "body" | "table" | "header" | "footer" | "note";

export interface TemplateFieldInfo {
  /** `w:id` of the control (SuperDoc structured content and template-builder fields use it). */
  id: string | null;
  /** The plain tag, or the raw JSON text of a SuperDoc tag. */
  tag: string | null;
  alias: string | null;
  /** SuperDoc's `group` (JSON tag), else null. */
  group: string | null;
  /** SuperDoc's `fieldId` (JSON tag or legacy `w:fieldTypeShort` annotation), else null. */
  fieldId: string | null;
  /** text, date, checkbox, picture, dropdown, combobox, group, repeatingSection, docPart, other; SuperDoc's own type when its tag says one. */
  type: string;
  /** Current text (placeholder text included), checkbox state, or null for a picture. */
  value: string | boolean | null;
  /** The control still shows its placeholder. */
  placeholder: boolean;
  /** Choices of a drop-down or combo box. */
  options: { text: string; value: string }[] | null;
  /** The control's date format (`w:dateFormat`), when it has one. */
  dateFormat: string | null;
  location: FieldLocation;
  /** The part it is in, e.g. `word/header1.xml`. */
  part: string;
  /** What the control wraps: runs (inline), paragraphs (block), table rows or cells. */
  level: Control["level"];
  /** `id` (or tag) of the control this one sits in, if any. */
  parent: string | null;
  /** The SuperDoc JSON tag, parsed, when the tag is one. */
  superdoc: Record<string, unknown> | null;
}

const TYPE_OF_KIND: Record<ControlKind, string> = {
  richText: "text",
  text: "text",
  picture: "picture",
  checkbox: "checkbox",
  date: "date",
  dropDownList: "dropdown",
  comboBox: "combobox",
  docPart: "docPart",
  group: "group",
  repeatingSection: "repeatingSection",
  other: "other",
};

const LOCATION_OF_PART: Record<string, FieldLocation> = {
  header: "header",
  footer: "footer",
  footnotes: "note",
  endnotes: "note",
};

export function listTemplateFields(bytes: Uint8Array): TemplateFieldInfo[] {
  const template = DocxTemplate.open(bytes);
  const partKinds = new Map<string, FieldLocation>();
  for (const rel of template.pkg.relationships(template.pkg.mainPart)) {
    const type = relTypeName(rel.type);
    const entry = rel.external ? undefined : template.pkg.entry(rel.target);
    if (type && entry && LOCATION_OF_PART[type]) partKinds.set(entry.name, LOCATION_OF_PART[type]!);
  }
  const out: TemplateFieldInfo[] = [];
  for (const part of template.parts) {
    const cells = tableCellRanges(part.xml);
    for (const c of part.controls) {
      const partLocation = partKinds.get(part.name) ?? "body";
      const inTable = cells.some(([s, e]) => s < c.start && c.end <= e) || c.level === "row" || c.level === "cell";
      const json = c.tagJson ?? null;
      const parent = c.parent >= 0 ? part.controls[c.parent] : undefined;
      out.push({
        id: c.id ?? null,
        tag: c.tag ?? null,
        alias: c.alias ?? null,
        group: json && json.group !== undefined && json.group !== null ? String(json.group) : null,
        fieldId:
          json && json.fieldId !== undefined && json.fieldId !== null
            ? String(json.fieldId)
            : c.fieldTypeShort !== undefined
              ? (c.tag ?? null)
              : null,
        type: superdocType(json, c) ?? TYPE_OF_KIND[c.kind],
        value: currentValue(part.xml, part.name, c),
        placeholder: c.showingPlaceholder,
        options: choices(part.xml, part.name, c),
        dateFormat: c.date?.format ?? null,
        location: partLocation === "body" && inTable ? "table" : partLocation,
        part: part.name,
        level: c.level,
        parent: parent ? (parent.id ?? parent.tag ?? null) : null,
        superdoc: json,
      });
    }
  }
  return out;
}

/** SuperDoc's field annotations name their type in the JSON tag or in `w:fieldTypeShort`. */
function superdocType(json: Record<string, unknown> | null, c: Control): string | null {
  const t = json?.fieldTypeShort ?? json?.type ?? json?.fieldType ?? c.fieldTypeShort;
  return typeof t === "string" && t ? t : null;
}

function currentValue(xml: string, part: string, c: Control): string | boolean | null {
  if (c.kind === "checkbox" && c.checkbox) return c.checkbox.checked;
  if (c.kind === "picture") return null;
  if (!c.content || c.content.selfClosing) return "";
  const els = parseElements(xml, part, c.content.openEnd, c.content.closeStart);
  const paragraphs: string[] = [];
  let current = "";
  const walk = (list: XmlElement[]) => {
    for (const el of list) {
      const local = localName(el.name);
      if (local === "p") {
        if (current) paragraphs.push(current);
        current = textOf(xml, [el]);
        paragraphs.push(current);
        current = "";
      } else if (
        local === "t" ||
        local === "r" ||
        local === "sdt" ||
        local === "sdtContent" ||
        local === "hyperlink" ||
        local === "ins" ||
        local === "smartTag"
      ) {
        current += textOf(xml, [el]);
      } else walk(el.children);
    }
  };
  walk(els);
  if (current) paragraphs.push(current);
  return paragraphs.join("\n");
}

function choices(xml: string, part: string, c: Control): TemplateFieldInfo["options"] {
  if ((c.kind !== "dropDownList" && c.kind !== "comboBox") || !c.pr || c.pr.selfClosing) return null;
  const out: { text: string; value: string }[] = [];
  const walk = (list: XmlElement[]) => {
    for (const el of list) {
      if (localName(el.name) === "listItem") {
        const a = readAttributes(xml, el);
        const value = attrByLocal(a, "value") ?? "";
        out.push({ text: attrByLocal(a, "displayText") ?? value, value });
      } else walk(el.children);
    }
  };
  walk(parseElements(xml, part, c.pr.openEnd, c.pr.closeStart));
  return out;
}

/** [start, end) offsets of every table cell of a part (nested ones too). */
function tableCellRanges(xml: string): [number, number][] {
  const out: [number, number][] = [];
  const open: number[] = [];
  for (const m of xml.matchAll(/<(\/?)(?:[A-Za-z_][\w.-]*:)?tc(?=[\s>/])([^>]*?)(\/?)>/g)) {
    if (m[1]) {
      const s = open.pop();
      if (s !== undefined) out.push([s, m.index! + m[0].length]);
    } else if (!m[3]) open.push(m.index!);
  }
  return out;
}
