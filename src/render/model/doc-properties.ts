/**
 * Document property fields (DOCPROPERTY, AUTHOR, TITLE ...) and the document's own properties
 * (docProps/core.xml, app.xml, custom.xml).
 *
 * A field keeps the result Word cached when it was last updated: that is what Word and LibreOffice
 * show on opening the document (Word updates these fields only on F9, or on printing when "update
 * fields before printing" is on), so it is what the people signing it have read. Only a field whose
 * cached result is empty (never updated) shows the property, as LibreOffice does and as Word shows
 * it once updated. Numeric and date picture switches (\# \@) keep the cached result, and
 * statistics (Words, Pages ...), edit times and dates are not read: they depend on the application
 * and the reader's time zone.
 */
import { LIMITS } from "../../limits";
import type { DocxPackage } from "../../docx/package";
import type { XNode } from "./xml-tree";

/** Property values by upper-case name (Word's DOCPROPERTY names; custom properties by their own). */
export type DocProperties = ReadonlyMap<string, string>;

/** core.xml element → DOCPROPERTY name. */
const CORE: Record<string, string> = {
  title: "TITLE",
  subject: "SUBJECT",
  creator: "AUTHOR",
  keywords: "KEYWORDS",
  description: "COMMENTS",
  category: "CATEGORY",
  lastModifiedBy: "LASTSAVEDBY",
  revision: "REVISIONNUMBER",
};

/** app.xml element → DOCPROPERTY name. */
const APP: Record<string, string> = {
  Company: "COMPANY",
  Manager: "MANAGER",
  HyperlinkBase: "HYPERLINKBASE",
  Application: "NAMEOFAPPLICATION",
};

/** Fields named after a property (AUTHOR ...) → the property; LASTSAVEDBY and REVNUM as Word names them. */
const FIELD_PROPERTY: Record<string, string> = {
  AUTHOR: "AUTHOR",
  TITLE: "TITLE",
  SUBJECT: "SUBJECT",
  KEYWORDS: "KEYWORDS",
  COMMENTS: "COMMENTS",
  LASTSAVEDBY: "LASTSAVEDBY",
  REVNUM: "REVISIONNUMBER",
};

/**
 * Reads the document's properties. `read` parses a part (undefined when missing or unreadable);
 * parts are found through the package relationships, falling back to the usual names.
 */
export function readDocProperties(pkg: DocxPackage, read: (name: string) => XNode | undefined): DocProperties {
  const out = new Map<string, string>();
  const rels = pkg.relationships("").filter((r) => !r.external);
  const part = (suffix: string, fallback: string) =>
    read(rels.find((r) => r.type.endsWith(suffix))?.target ?? fallback);
  const budget = LIMITS.render.docProperties;
  const put = (name: string, value: string) => {
    const v = value.trim();
    if (v && out.size < budget.maxProperties && !out.has(name)) out.set(name, v.slice(0, budget.maxValueLength));
  };

  const core = part("/metadata/core-properties", "docProps/core.xml");
  for (const [el, name] of Object.entries(CORE)) put(name, core?.child(el)?.text() ?? "");
  const app = part("/extended-properties", "docProps/app.xml");
  for (const [el, name] of Object.entries(APP)) put(name, app?.child(el)?.text() ?? "");
  const custom = part("/custom-properties", "docProps/custom.xml");
  for (const prop of custom?.all("property") ?? []) {
    const name = prop.attr("name");
    // The value is the property's one vt:* child (lpwstr, i4, bool, filetime ...), as written.
    const value = prop.children[0]?.text();
    if (name && value !== undefined) put(name.toUpperCase(), value);
  }
  return out;
}

/**
 * The property a document property field names, formatted by its text-case switch; undefined when
 * the field is not one, has a picture switch, or the document does not state the property.
 */
export function documentPropertyField(instr: string, props: DocProperties): string | undefined {
  // A numeric (\#) or date (\@) picture reformats the value as Word does: not done here.
  if (/\\[#@]/.test(instr)) return undefined;
  const m = /^\s*(\S+)\s*(?:"([^"]*)"|([^\s\\]+))?/.exec(instr);
  if (!m) return undefined;
  const field = m[1]!.toUpperCase();
  const name = field === "DOCPROPERTY" ? (m[2] ?? m[3])?.toUpperCase() : FIELD_PROPERTY[field];
  const value = name ? props.get(name) : undefined;
  return value === undefined ? undefined : applyCase(value, instr);
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
