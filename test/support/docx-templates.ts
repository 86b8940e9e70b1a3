/**
 * Test support (not used by the service): DOCX templates with Word-style and SuperDoc-style content
 * controls, packaged by test/support/docx-builder.ts, and a sample contract with fields for every
 * control type. Shared by the engine tests in workerd, the HTTP tests and the LibreOffice tests in Node.
 */
import { escapeAttr, escapeText } from "../../src/docx/xml";
import { buildDocx, type DocxParts } from "./docx-builder";
import { base64Bytes, dataUri, makePng, PNG_1X1 } from "./png-images";

export const W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";

/** A template package: `buildDocx` with the 1×1 placeholder image wordPicture's controls show (rId9). */
export function templateDocx(t: Omit<DocxParts, "media">): Uint8Array {
  return buildDocx({ ...t, media: { rId9: { bytes: base64Bytes(PNG_1X1), name: "placeholder.png" } } });
}

// ---------------------------------------------------------------------------------------------
// Content controls as Word and SuperDoc write them.

interface Pr {
  id?: string | number;
  tag?: string;
  alias?: string;
  extra?: string;
  placeholder?: boolean;
}

function sdtPr(p: Pr, extra = ""): string {
  return (
    `<w:sdtPr>${p.placeholder ? `<w:rPr><w:rStyle w:val="Strong"/></w:rPr>` : ""}` +
    (p.alias !== undefined ? `<w:alias w:val="${escapeAttr(p.alias)}"/>` : "") +
    (p.tag !== undefined ? `<w:tag w:val="${escapeAttr(p.tag)}"/>` : "") +
    (p.id !== undefined ? `<w:id w:val="${p.id}"/>` : "") +
    (p.placeholder ? `<w:showingPlcHdr/>` : "") +
    extra +
    (p.extra ?? "") +
    `</w:sdtPr>`
  );
}

const placeholderRun = (text: string) =>
  `<w:r><w:rPr><w:rStyle w:val="PlaceholderText"/></w:rPr><w:t>${escapeText(text)}</w:t></w:r>`;
const styledRun = (text: string) =>
  `<w:r><w:rPr><w:b/><w:color w:val="1F4E79"/><w:sz w:val="24"/></w:rPr><w:t xml:space="preserve">${escapeText(text)}</w:t></w:r>`;

/** An inline plain-text control as Word writes it (tag, alias, placeholder). */
export function wordText(p: Pr & { text?: string }): string {
  const content = p.placeholder
    ? placeholderRun(p.text ?? "Click or tap here to enter text.")
    : styledRun(p.text ?? "value");
  return `<w:sdt>${sdtPr(p, "<w:text/>")}<w:sdtContent>${content}</w:sdtContent></w:sdt>`;
}

/** A block-level rich-text control around a paragraph. */
export function wordBlock(p: Pr & { text?: string }): string {
  return `<w:sdt>${sdtPr(p)}<w:sdtContent><w:p><w:pPr><w:jc w:val="center"/></w:pPr>${styledRun(p.text ?? "block value")}</w:p></w:sdtContent></w:sdt>`;
}

/** Word 2010 checkbox control (w14:checkbox) with MS Gothic ballot boxes. */
export function wordCheckbox(p: Pr & { checked?: boolean }): string {
  return (
    `<w:sdt>${sdtPr(p, `<w14:checkbox><w14:checked w14:val="${p.checked ? 1 : 0}"/><w14:checkedState w14:val="2612" w14:font="MS Gothic"/><w14:uncheckedState w14:val="2610" w14:font="MS Gothic"/></w14:checkbox>`)}` +
    `<w:sdtContent><w:r><w:rPr><w:rFonts w:ascii="MS Gothic" w:eastAsia="MS Gothic" w:hAnsi="MS Gothic" w:hint="eastAsia"/></w:rPr><w:t>${p.checked ? "\u2612" : "\u2610"}</w:t></w:r></w:sdtContent></w:sdt>`
  );
}

/** A date picker control. */
export function wordDate(p: Pr & { format?: string; lid?: string }): string {
  return (
    `<w:sdt>${sdtPr(p, `<w:date><w:dateFormat w:val="${escapeAttr(p.format ?? "M/d/yyyy")}"/><w:lid w:val="${p.lid ?? "en-US"}"/><w:storeMappedDataAs w:val="dateTime"/><w:calendar w:val="gregorian"/></w:date>`)}` +
    `<w:sdtContent>${placeholderRun("Click or tap to enter a date.")}</w:sdtContent></w:sdt>`
  );
}

/** A picture control holding a placeholder picture of the given size (EMU). */
export function wordPicture(p: Pr & { cx?: number; cy?: number }): string {
  const cx = p.cx ?? 1905000;
  const cy = p.cy ?? 952500;
  return (
    `<w:sdt>${sdtPr(p, "<w:picture/>")}<w:sdtContent><w:r><w:rPr><w:noProof/></w:rPr><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0">` +
    `<wp:extent cx="${cx}" cy="${cy}"/><wp:docPr id="1" name="Placeholder"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">` +
    `<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture">` +
    `<pic:nvPicPr><pic:cNvPr id="0" name="placeholder.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rId9"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
    `<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic>` +
    `</wp:inline></w:drawing></w:r></w:sdtContent></w:sdt>`
  );
}

/** A block control around a table: a header row and a template row. */
export function wordTable(p: Pr & { headers: string[] }): string {
  const cell = (text: string, bold: boolean) =>
    `<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr><w:p><w:r>${bold ? "<w:rPr><w:b/></w:rPr>" : "<w:rPr><w:i/></w:rPr>"}<w:t>${escapeText(text)}</w:t></w:r></w:p></w:tc>`;
  const grid = p.headers.map(() => `<w:gridCol w:w="2000"/>`).join("");
  return (
    `<w:sdt>${sdtPr(p)}<w:sdtContent><w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid>${grid}</w:tblGrid>` +
    `<w:tr>${p.headers.map((h) => cell(h, true)).join("")}</w:tr>` +
    `<w:tr>${p.headers.map(() => cell("row value", false)).join("")}</w:tr>` +
    `</w:tbl></w:sdtContent></w:sdt><w:p/>`
  );
}

/** SuperDoc field annotation: JSON tag with fieldId / fieldTypeShort (inline). */
export function superdocAnnotation(p: {
  fieldId: string;
  type: string;
  label?: string;
  group?: string;
  id?: number;
}): string {
  const tag = JSON.stringify({
    fieldId: p.fieldId,
    fieldTypeShort: p.type,
    displayLabel: p.label ?? p.fieldId,
    ...(p.group ? { group: p.group } : {}),
  });
  return (
    `<w:sdt><w:sdtPr><w:alias w:val="${escapeAttr(p.label ?? p.fieldId)}"/><w:tag w:val="${escapeAttr(tag)}"/>${p.id !== undefined ? `<w:id w:val="${p.id}"/>` : ""}</w:sdtPr>` +
    `<w:sdtContent><w:r><w:rPr><w:color w:val="C00000"/></w:rPr><w:t>{{${escapeText(p.label ?? p.fieldId)}}}</w:t></w:r></w:sdtContent></w:sdt>`
  );
}

/** SuperDoc legacy field annotation: plain tag (the fieldId) plus w:fieldTypeShort. */
export function superdocLegacyAnnotation(p: { fieldId: string; type: string; label?: string }): string {
  return (
    `<w:sdt><w:sdtPr><w:tag w:val="${escapeAttr(p.fieldId)}"/><w:alias w:val="${escapeAttr(p.label ?? p.fieldId)}"/>` +
    `<w:fieldType w:val="TEXTINPUT"/><w:fieldTypeShort w:val="${escapeAttr(p.type)}"/><w:fieldColor w:val="#980043"/></w:sdtPr>` +
    `<w:sdtContent><w:r><w:t>{{${escapeText(p.label ?? p.fieldId)}}}</w:t></w:r></w:sdtContent></w:sdt>`
  );
}

/** SuperDoc structured content (template-builder): numeric w:id, JSON tag with an optional group. */
export function superdocStructured(p: {
  id: number;
  alias?: string;
  group?: string;
  block?: boolean;
  text?: string;
}): string {
  const tag = p.group ? `<w:tag w:val="${escapeAttr(JSON.stringify({ group: p.group }))}"/>` : "";
  const pr = `<w:sdtPr><w:id w:val="${p.id}"/><w:alias w:val="${escapeAttr(p.alias ?? `Field ${p.id}`)}"/>${tag}</w:sdtPr>`;
  const r = `<w:r><w:rPr><w:i/></w:rPr><w:t>${escapeText(p.text ?? p.alias ?? `Field ${p.id}`)}</w:t></w:r>`;
  return p.block
    ? `<w:sdt>${pr}<w:sdtContent><w:p>${r}</w:p></w:sdtContent></w:sdt>`
    : `<w:sdt>${pr}<w:sdtContent>${r}</w:sdtContent></w:sdt>`;
}

export const para = (...inner: string[]) => `<w:p>${inner.join("")}</w:p>`;
export const text = (s: string) => `<w:r><w:t xml:space="preserve">${escapeText(s)}</w:t></w:r>`;
export const tableWith = (cells: string[]) =>
  `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid>${cells.map(() => `<w:gridCol w:w="3000"/>`).join("")}</w:tblGrid><w:tr>${cells
    .map((c) => `<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr>${c}</w:tc>`)
    .join("")}</w:tr></w:tbl><w:p/>`;

// ---------------------------------------------------------------------------------------------
// A sample contract used by the HTTP, LibreOffice and benchmark runs.

/** A contract-like template with Word and SuperDoc controls of every type in body, table, header and footer. */
function contractTemplateBytes(): Uint8Array {
  const body = [
    para(text("Client: "), wordText({ tag: "client_name", alias: "Client name", placeholder: true })),
    para(text("Accepts terms: "), wordCheckbox({ tag: "accept" })),
    para(text("Start date: "), wordDate({ tag: "start_date", format: "dd/MM/yyyy", placeholder: true })),
    para(text("Amount: "), superdocAnnotation({ fieldId: "amount", type: "text" })),
    para(text("Effective: "), superdocAnnotation({ fieldId: "effective", type: "date" })),
    para(text("Opt-in: "), superdocLegacyAnnotation({ fieldId: "optin", type: "checkbox" })),
    wordBlock({ tag: "notes", alias: "Notes" }),
    para(text("Party: "), superdocStructured({ id: 1324567890, alias: "Party", group: "party" })),
    wordTable({ tag: "items", headers: ["Item", "Qty", "Price"] }),
    tableWith([
      para(text("Signature: "), superdocAnnotation({ fieldId: "sig", type: "signature" })),
      para(wordPicture({ tag: "logo" })),
    ]),
    para(text("Initials: "), superdocStructured({ id: 55, alias: "Initials" })),
  ].join("");
  return templateDocx({
    body,
    header: para(text("Contract for "), superdocStructured({ id: 2001, group: "party" })),
    footer: para(text("Ref "), wordText({ tag: "ref" })),
  });
}

const contractFields = (png: Uint8Array) => [
  { id: "client_name", type: "text", value: "Ada & <Lovelace>\nAnalytical Engines" },
  { id: "accept", type: "checkbox", value: true },
  { id: "start_date", type: "date", value: "2025-05-05" },
  { id: "amount", type: "number", value: "1234.5", options: { decimals: 2 } },
  { id: "effective", type: "date", value: "2025-05-05T14:30:00+02:00", options: { format: "MMMM d, yyyy HH:mm" } },
  { id: "optin", type: "checkbox", value: "false" },
  { id: "notes", type: "text", value: null },
  { group: "party", type: "text", value: "Acme Corp" },
  {
    id: "items",
    type: "table",
    value: [
      ["Widget", "2", "10.00"],
      ["Gadget", 1, true],
    ],
  },
  {
    id: "sig",
    type: "signature",
    value: "Ada Lovelace",
    options: { bottomLabel: { text: "Signed electronically", color: "#999" } },
  },
  { id: "logo", type: "image", value: dataUri(png), options: { dimensions: { width: "240" } } },
  { id: "1324567890", type: "text", value: "Acme by id" },
  { id: 55, type: "text", value: "AL" },
  { id: "ref", type: "text", value: 42 },
  { id: "missing", type: "text", value: "x" },
  { group: "nobody", type: "text", value: "x" },
];

/**
 * A contract-like template with Word and SuperDoc controls of every type in body, table, header
 * and footer, and fields for all of them (two match nothing).
 */
export function sampleContract(): { template: () => Uint8Array; fields: Record<string, unknown>[]; png: Uint8Array } {
  const png = makePng(120, 60);
  return { template: contractTemplateBytes, fields: contractFields(png), png };
}
