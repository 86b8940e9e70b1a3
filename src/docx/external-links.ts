/**
 * External relationships a consumer follows on its own when it opens a document: a remote
 * attached template (`attachedTemplate`, a known macro-delivery route), linked pictures
 * (`r:link`), linked OLE objects, mail-merge data sources, subdocuments, frames, a chart's
 * external workbook. Annotate returns the template with every external relationship removed
 * except hyperlinks (followed only when the reader clicks one), and with what referred to them:
 * the element when it exists only for the reference (`w:attachedTemplate`, `w:subDoc`, a whole
 * `w:mailMerge`, `o:OLEObject` whose preview picture stays), else the referring attribute (a
 * picture's `r:link`; one that also embeds its bytes keeps showing them).
 */
import { DocxPackage, relTypeName } from "./package";
import { localName, prefixOf, readAttributes, tokenize, type Splice, applySplices } from "./xml";

const RELATIONSHIP_NAMESPACES = [
  "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
  "http://purl.oclc.org/ooxml/officeDocument/relationships",
];

/** Elements that only carry a reference: removed whole when their target goes. */
const REFERENCE_ELEMENTS = new Set([
  "attachedTemplate",
  "subDoc",
  "altChunk",
  "externalData",
  "userShapes",
  "sourceFileName",
  "OLEObject",
]);
/** Mail-merge references: the whole `mailMerge` settings element goes (a main document without its data source is not a merge). */
const MAIL_MERGE_REFERENCES = new Set(["dataSource", "headerSource", "recipientData"]);

/** Removes the package's external relationships other than hyperlinks; returns how many went. */
export function stripExternalRelationships(pkg: DocxPackage): number {
  let count = 0;
  const xmlParts = new Set(pkg.xmlPartNames().map((n) => n.toLowerCase()));
  for (const source of pkg.relationshipSources()) {
    const ids = new Set(
      pkg
        .relationships(source)
        .filter((r) => r.external && relTypeName(r.type) !== "hyperlink")
        .map((r) => r.id),
    );
    if (!ids.size) continue;
    count += ids.size;
    pkg.removeRelationships(source, ids);
    if (source !== "" && xmlParts.has(source.toLowerCase())) {
      const xml = pkg.readXml(source);
      const next = withoutReferences(xml, source, ids);
      if (next !== xml) pkg.setXml(source, next);
    }
  }
  return count;
}

interface Frame {
  name: string;
  start: number;
  remove: boolean;
}

/** `xml` without the elements and attributes that refer to relationship `ids`. */
export function withoutReferences(xml: string, part: string, ids: ReadonlySet<string>): string {
  const prefixes = relationshipPrefixes(xml);
  if (!prefixes.size) return xml;
  const splices: Splice[] = [];
  const stack: Frame[] = [];
  const removeWhole = (frame: Frame, end: number) => {
    // Edits inside an element that goes are moot.
    while (splices.length && splices[splices.length - 1]!.start >= frame.start) splices.pop();
    splices.push({ start: frame.start, end, text: "" });
  };
  tokenize(xml, part, {
    open(name, start, attrStart, attrEnd, openEnd, selfClosing) {
      const frame: Frame = { name, start, remove: false };
      const refs = referringAttributes(xml.slice(attrStart, attrEnd), prefixes, ids);
      if (refs.length) {
        const local = localName(name);
        const mailMerge = MAIL_MERGE_REFERENCES.has(local)
          ? stack.findLast((f) => localName(f.name) === "mailMerge")
          : undefined;
        if (mailMerge) mailMerge.remove = true;
        else if (REFERENCE_ELEMENTS.has(local)) frame.remove = true;
        else if (!stack.some((f) => f.remove))
          splices.push({
            start: attrStart,
            end: attrEnd,
            text: withoutAttributes(xml.slice(attrStart, attrEnd), refs),
          });
      }
      if (selfClosing) {
        if (frame.remove) removeWhole(frame, openEnd);
      } else stack.push(frame);
    },
    close(_name, _start, end) {
      const frame = stack.pop()!;
      if (frame.remove) removeWhole(frame, end);
    },
  });
  return applySplices(xml, splices);
}

/** Prefixes bound to the relationships namespace anywhere in the part. */
function relationshipPrefixes(xml: string): Set<string> {
  const out = new Set<string>();
  for (const m of xml.matchAll(/xmlns:([\w.-]+)\s*=\s*["']([^"']*)["']/g))
    if (RELATIONSHIP_NAMESPACES.includes(m[2]!.trim())) out.add(m[1]!);
  return out;
}

/** Qualified names of the attributes (in a relationships prefix) whose value is one of `ids`. */
function referringAttributes(attrText: string, prefixes: ReadonlySet<string>, ids: ReadonlySet<string>): string[] {
  if (!attrText.includes(":")) return [];
  const out: string[] = [];
  for (const [name, value] of readAttributes(attrText, { attrStart: 0, attrEnd: attrText.length })) {
    if (prefixes.has(prefixOf(name)) && ids.has(value.trim())) out.push(name);
  }
  return out;
}

function withoutAttributes(attrText: string, names: string[]): string {
  let out = attrText;
  for (const name of names)
    out = out.replace(new RegExp(`\\s+${name.replace(/[.]/g, "\\.")}\\s*=\\s*(?:"[^"]*"|'[^']*')`, "g"), "");
  return out;
}
