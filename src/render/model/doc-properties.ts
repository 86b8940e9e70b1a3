/**
 * Document property fields (DOCPROPERTY, AUTHOR, TITLE, EDITTIME ...) and the document's own
 * properties (docProps/core.xml, app.xml, custom.xml), as LibreOffice 7.4 shows them on opening a
 * DOCX (measured on minimal documents; docs/rendering.md, "Field results").
 *
 * LibreOffice imports each property field as one of two kinds, and the kind decides between the
 * result Word cached and the property:
 * - a document information field (DOCPROPERTY Title, Subject, Keywords, Comments, LastSavedBy,
 *   RevisionNumber, Template, TotalEditingTime, LastPrinted; the fields TITLE, SUBJECT, KEYWORDS,
 *   COMMENTS, REVNUM, TEMPLATE, EDITTIME) always shows the property, empty when the document does not
 *   state it, whatever the cached result and without text-case switches;
 * - AUTHOR, LASTSAVEDBY and a DOCPROPERTY naming a user-defined property (custom.xml, and app.xml's
 *   Company, Manager and HyperlinkBase, which LibreOffice imports as user-defined) keep their
 *   cached result; only an empty one shows the property.
 * DOCPROPERTY names match case-sensitively, and a user-defined property wins over the built-in one
 * of the same name. Keywords show as a list joined with ", "; the last editor only when core.xml
 * also has the save date. Any other DOCPROPERTY keeps its cached result (empty stays empty). Not modelled
 * (the cached result stays): statistics (Words, Characters, Paragraphs: LibreOffice shows its own
 * live count), creation and save dates (their format follows the document's language), fields with a
 * numeric or date picture (\# \@).
 */
import { LIMITS } from "../../limits";
import type { DocxPackage } from "../../docx/package";
import type { XNode } from "./xml-tree";
import type { FieldResult } from "./field-results";

export interface DocProperties {
  /** core.xml values by the DOCPROPERTY name LibreOffice reads them under (Title, Author ...). */
  readonly info: ReadonlyMap<string, string>;
  /** User-defined properties by their exact name: custom.xml, then app.xml's Company, Manager, HyperlinkBase. */
  readonly user: ReadonlyMap<string, string>;
  /** app.xml TotalTime: minutes spent editing. */
  readonly editMinutes?: number;
  /** core.xml lastPrinted as written (W3CDTF). */
  readonly lastPrinted?: string;
}

export const NO_DOC_PROPERTIES: DocProperties = { info: new Map(), user: new Map() };

/** core.xml element → DOCPROPERTY name. */
const CORE: Record<string, string> = {
  title: "Title",
  subject: "Subject",
  creator: "Author",
  keywords: "Keywords",
  description: "Comments",
  lastModifiedBy: "LastSavedBy",
  revision: "RevisionNumber",
};

/** app.xml elements LibreOffice imports as user-defined properties. */
const APP_USER = ["Company", "Manager", "HyperlinkBase"];

/** A part the package's own relationships name by type (core, extended, custom properties), else the usual name. */
export function packagePartName(pkg: DocxPackage, typeSuffix: string, fallback: string): string {
  return pkg.relationships("").find((r) => !r.external && r.type.endsWith(typeSuffix))?.target ?? fallback;
}

/**
 * Reads the document's properties. `read` parses a part (undefined when missing or unreadable);
 * parts are found through the package relationships, falling back to the usual names.
 */
export function readDocProperties(pkg: DocxPackage, read: (name: string) => XNode | undefined): DocProperties {
  const part = (suffix: string, fallback: string) => read(packagePartName(pkg, suffix, fallback));
  const budget = LIMITS.render.docProperties;
  let kept = 0;
  const put = (map: Map<string, string>, name: string, value: string) => {
    const v = value.trim();
    if (v && kept < budget.maxProperties && !map.has(name)) {
      map.set(name, v.slice(0, budget.maxValueLength));
      kept++;
    }
  };

  const info = new Map<string, string>();
  const core = part("/metadata/core-properties", "docProps/core.xml");
  for (const [el, name] of Object.entries(CORE)) {
    let value = core?.child(el)?.text() ?? "";
    // LibreOffice reads keywords as a list (split at commas, semicolons and spaces) and joins them with ", ".
    if (name === "Keywords")
      value = value
        .split(/[,;\s]+/)
        .filter(Boolean)
        .join(", ");
    // It shows who saved the document last only alongside the save date (dcterms:modified).
    if (name === "LastSavedBy" && !core?.child("modified")?.text().trim()) continue;
    put(info, name, value);
  }
  const user = new Map<string, string>();
  const custom = part("/custom-properties", "docProps/custom.xml");
  for (const prop of custom?.all("property") ?? []) {
    const name = prop.attr("name");
    // The value is the property's one vt:* child (lpwstr, i4, bool, filetime ...), as written.
    const value = prop.children[0]?.text();
    if (name && value !== undefined) put(user, name, value);
  }
  const app = part("/extended-properties", "docProps/app.xml");
  for (const name of APP_USER) put(user, name, app?.child(name)?.text() ?? "");
  const minutes = Number(app?.child("TotalTime")?.text().trim() || NaN);
  const printed = core?.child("lastPrinted")?.text().trim();
  return {
    info,
    user,
    ...(Number.isInteger(minutes) && minutes >= 0 ? { editMinutes: minutes } : {}),
    ...(printed ? { lastPrinted: printed } : {}),
  };
}

/** Fields named after a document information property; they always show it. */
const INFO_FIELDS: Record<string, string> = {
  TITLE: "Title",
  SUBJECT: "Subject",
  KEYWORDS: "Keywords",
  COMMENTS: "Comments",
  REVNUM: "RevisionNumber",
};

/** Fields that keep their cached result and show the property only when it is empty. */
const FALLBACK_FIELDS: Record<string, string> = { AUTHOR: "Author", LASTSAVEDBY: "LastSavedBy" };

/** DOCPROPERTY names LibreOffice reads as document information (case-sensitive). */
const INFO_PROPERTIES = new Set(["Title", "Subject", "Keywords", "Comments", "LastSavedBy", "RevisionNumber"]);

/**
 * What a document property field shows (see the module comment); undefined for a field that is not
 * one, or whose cached result stays whatever it is.
 */
export function documentPropertyField(instr: string, props: DocProperties): FieldResult | undefined {
  // A numeric (\#) or date (\@) picture reformats the value: not done here.
  if (/\\[#@]/.test(instr)) return undefined;
  const m = /^\s*(\S+)\s*(?:"([^"]*)"|([^\s\\]+))?/.exec(instr);
  if (!m) return undefined;
  const field = m[1]!.toUpperCase();
  const always = (text: string | undefined): FieldResult => ({ text: text ?? "", keepCached: false });
  const fallback = (text: string | undefined): FieldResult | undefined =>
    text === undefined ? undefined : { text: applyCase(text, instr), keepCached: true };
  if (field === "DOCPROPERTY") {
    const name = m[2] ?? m[3] ?? "";
    if (props.user.has(name)) return fallback(props.user.get(name));
    if (INFO_PROPERTIES.has(name)) return always(props.info.get(name));
    if (name === "Template") return always("");
    if (name === "TotalEditingTime") return always(clockTime(props.editMinutes ?? 0));
    if (name === "LastPrinted") return always(props.lastPrinted ? printedTime(props.lastPrinted) : undefined);
    return undefined;
  }
  if (field in INFO_FIELDS) return always(props.info.get(INFO_FIELDS[field]!));
  if (field in FALLBACK_FIELDS) return fallback(props.info.get(FALLBACK_FIELDS[field]!));
  if (field === "TEMPLATE") return always("");
  if (field === "EDITTIME") return always(clockTime(props.editMinutes ?? 0));
  return undefined;
}

/** Minutes as LibreOffice shows an editing time: HH:MM on a 24-hour clock (1447 minutes: 00:07). */
function clockTime(minutes: number): string {
  const m = minutes % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
}

/** LibreOffice shows the print date's time of day only, HH:MM as written (UTC); empty when unreadable. */
function printedTime(w3cdtf: string): string {
  const t = /T(\d{2}):(\d{2})/.exec(w3cdtf);
  return t ? `${t[1]}:${t[2]}` : "";
}

/** The text-case format switch (\* Upper, Lower, Caps, FirstCap); MERGEFORMAT and others leave it. */
function applyCase(value: string, instr: string): string {
  for (const s of instr.matchAll(/\\\*\s*(\w+)/g)) {
    switch (s[1]!.toLowerCase()) {
      case "upper":
        return value.toUpperCase();
      case "lower":
        return value.toLowerCase();
      case "caps":
        return value.toLowerCase().replace(/(^|\s)(\p{L})/gu, (_, sp: string, c: string) => sp + c.toUpperCase());
      case "firstcap":
        return value.charAt(0).toUpperCase() + value.slice(1);
    }
  }
  return value;
}
