/**
 * The DOCX package (OPC) on top of the ZIP layer: parts by name, the main document part,
 * relationships and content types, and the write-back that rewrites only what changed.
 */
import { UnprocessableContent } from "../errors";
import { LIMITS } from "../limits";
import {
  applySplices,
  assertNoDtd,
  attrByLocal,
  escapeAttr,
  localName,
  parseElements,
  prefixOf,
  readAttributes,
  type Splice,
  type XmlElement,
} from "./xml";
import {
  carryEntry,
  InflateBudget,
  inflateEntry,
  makeEntry,
  readZipDirectory,
  writeZip,
  type ZipEntry,
  type ZipOutputEntry,
} from "./zip";

export const W_NAMESPACES = new Set([
  "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
  "http://purl.oclc.org/ooxml/wordprocessingml/main",
]);
export const STRICT_W = "http://purl.oclc.org/ooxml/wordprocessingml/main";

const REL_TYPE_BASES = [
  "http://schemas.openxmlformats.org/officeDocument/2006/relationships/",
  "http://purl.oclc.org/ooxml/officeDocument/relationships/",
];
const PACKAGE_RELS_NS = "http://schemas.openxmlformats.org/package/2006/relationships";

export interface Relationship {
  id: string;
  type: string;
  target: string;
  external: boolean;
}

const invalid = (msg: string) => new UnprocessableContent("docx_invalid", msg);
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
const encoder = new TextEncoder();

/** The short name of a relationship type (`header`, `image`, `officeDocument`), either namespace. */
export function relTypeName(type: string): string | null {
  for (const base of REL_TYPE_BASES) if (type.startsWith(base)) return type.slice(base.length);
  return null;
}

/**
 * The text of a part only scanned (never parsed): UTF-16 when it says so (a byte order mark, or
 * the zero bytes of `<?` / `<` written in UTF-16), else UTF-8 with bad sequences replaced, so no
 * encoding hides a `<!DOCTYPE` from the check.
 */
function decodeXmlForScan(bytes: Uint8Array): string {
  const [a, b] = [bytes[0], bytes[1]];
  const le = (a === 0xff && b === 0xfe) || (a === 0x3c && b === 0x00);
  if (!le && !((a === 0xfe && b === 0xff) || (a === 0x00 && b === 0x3c))) return new TextDecoder("utf-8").decode(bytes);
  // Code units are enough to find `<!` (surrogates never look like ASCII).
  const units = new Uint16Array(bytes.length >> 1);
  for (let i = 0; i < units.length; i++)
    units[i] = le ? bytes[2 * i]! | (bytes[2 * i + 1]! << 8) : (bytes[2 * i]! << 8) | bytes[2 * i + 1]!;
  const parts: string[] = [];
  for (let i = 0; i < units.length; i += 0x8000) parts.push(String.fromCharCode(...units.subarray(i, i + 0x8000)));
  return parts.join("");
}

function dirOf(part: string): string {
  const slash = part.lastIndexOf("/");
  return slash < 0 ? "" : part.slice(0, slash);
}

/** Resolves a relationship target against its source part; null for targets outside the package. */
export function resolveTarget(sourcePart: string, target: string): string | null {
  let t = target.trim();
  try {
    t = decodeURIComponent(t);
  } catch {
    // keep as is
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(t)) return null;
  const hash = t.indexOf("#");
  if (hash >= 0) t = t.slice(0, hash);
  const segs = t.startsWith("/") ? [] : dirOf(sourcePart).split("/").filter(Boolean);
  for (const s of t.split("/")) {
    if (s === "" || s === ".") continue;
    if (s === "..") {
      if (!segs.length) return null;
      segs.pop();
    } else segs.push(s);
  }
  return segs.length ? segs.join("/") : null;
}

/** The relative target from a source part to another part. */
export function relativeTarget(sourcePart: string, targetPart: string): string {
  const from = dirOf(sourcePart).split("/").filter(Boolean);
  const to = targetPart.split("/");
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  return [...Array(from.length - common).fill(".."), ...to.slice(common)].join("/");
}

export function relsPartOf(part: string): string {
  const dir = dirOf(part);
  const base = part.slice(dir.length ? dir.length + 1 : 0);
  return `${dir ? `${dir}/` : ""}_rels/${base}.rels`;
}

export class DocxPackage {
  readonly entries: ZipEntry[];
  private readonly byKey = new Map<string, ZipEntry>();
  private readonly texts = new Map<string, string>();
  private readonly changed = new Map<string, string | Uint8Array>();
  private readonly added: { name: string; bytes: Uint8Array; store: boolean }[] = [];
  private readonly relsCache = new Map<string, Relationship[]>();
  readonly budget = new InflateBudget();
  readonly mainPart: string;
  readonly strict: boolean;

  private constructor(readonly bytes: Uint8Array) {
    this.entries = readZipDirectory(bytes);
    for (const e of this.entries) this.byKey.set(e.name.toLowerCase(), e);
    if (!this.has("[Content_Types].xml")) throw invalid("The package has no [Content_Types].xml.");
    const rootRels = this.relationships("");
    const main = rootRels.find((r) => !r.external && relTypeName(r.type) === "officeDocument" && this.has(r.target));
    if (!main) throw invalid("The package has no main document part (officeDocument relationship).");
    this.mainPart = this.entry(main.target)!.name;
    this.strict = main.type.startsWith("http://purl.oclc.org/");
  }

  static open(bytes: Uint8Array): DocxPackage {
    return new DocxPackage(bytes);
  }

  has(name: string): boolean {
    return this.byKey.has(name.toLowerCase()) || this.added.some((a) => a.name.toLowerCase() === name.toLowerCase());
  }

  entry(name: string): ZipEntry | undefined {
    return this.byKey.get(name.toLowerCase());
  }

  /** The text of an XML part (UTF-8), with the DTD check. Cached. */
  readXml(name: string): string {
    const key = name.toLowerCase();
    const changed = this.changed.get(key);
    if (typeof changed === "string") return changed;
    const cached = this.texts.get(key);
    if (cached !== undefined) return cached;
    const e = this.byKey.get(key);
    if (!e) throw invalid(`The package has no part ${name}.`);
    const bytes = inflateEntry(this.bytes, e, this.budget, LIMITS.docx.maxXmlPartBytes);
    if ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe)) {
      throw invalid(`The part ${name} is UTF-16; Signet reads UTF-8 parts only.`);
    }
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      throw invalid(`The part ${name} is not valid UTF-8.`);
    }
    assertNoDtd(text, name);
    this.texts.set(key, text);
    return text;
  }

  /** The bytes of a binary part (an image), inflated within the package budget and `maxBytes`. */
  readBinary(name: string, maxBytes: number): Uint8Array {
    const e = this.byKey.get(name.toLowerCase());
    if (!e) throw invalid(`The package has no part ${name}.`);
    return inflateEntry(this.bytes, e, this.budget, maxBytes);
  }

  setXml(name: string, text: string): void {
    const key = name.toLowerCase();
    if (!this.byKey.has(key)) {
      const added = this.added.find((a) => a.name.toLowerCase() === key);
      if (added) added.bytes = encoder.encode(text);
      else this.added.push({ name, bytes: encoder.encode(text), store: false });
      this.texts.set(key, text);
      return;
    }
    this.changed.set(key, text);
  }

  addBinaryPart(name: string, bytes: Uint8Array): void {
    if (this.has(name)) throw new Error(`part ${name} exists`);
    this.added.push({ name, bytes, store: true });
  }

  get isChanged(): boolean {
    return this.changed.size > 0 || this.added.length > 0;
  }

  /** Relationships of a part (`""` for the package root). */
  relationships(part: string): Relationship[] {
    const relsName = part === "" ? "_rels/.rels" : relsPartOf(part);
    const cached = this.relsCache.get(relsName.toLowerCase());
    if (cached) return cached;
    const out: Relationship[] = [];
    if (this.has(relsName)) {
      const xml = this.readXml(relsName);
      for (const root of parseElements(xml, relsName)) {
        for (const el of root.children) {
          if (localName(el.name) !== "Relationship") continue;
          const a = readAttributes(xml, el);
          const external = (a.get("TargetMode") ?? "").toLowerCase() === "external";
          const raw = a.get("Target") ?? "";
          const target = external ? raw : (resolveTarget(part === "" ? "" : part, raw) ?? "");
          out.push({ id: a.get("Id") ?? "", type: a.get("Type") ?? "", target, external });
        }
      }
    }
    this.relsCache.set(relsName.toLowerCase(), out);
    return out;
  }

  /** Removes the relationships with these ids from `part`'s relationships part (`""` for the package root). */
  removeRelationships(part: string, ids: ReadonlySet<string>): void {
    const relsName = part === "" ? "_rels/.rels" : relsPartOf(part);
    if (!ids.size || !this.has(relsName)) return;
    const xml = this.readXml(relsName);
    const splices: Splice[] = [];
    for (const root of parseElements(xml, relsName)) {
      for (const el of root.children) {
        if (localName(el.name) === "Relationship" && ids.has(readAttributes(xml, el).get("Id") ?? ""))
          splices.push({ start: el.start, end: el.end, text: "" });
      }
    }
    this.setXml(relsName, applySplices(xml, splices));
    const cached = this.relsCache.get(relsName.toLowerCase());
    if (cached)
      this.relsCache.set(
        relsName.toLowerCase(),
        cached.filter((r) => !ids.has(r.id)),
      );
  }

  /** Parts (`""` for the package root) that have a relationships part. */
  relationshipSources(): string[] {
    const out: string[] = [];
    for (const e of this.entries) {
      const m = /^(.*?)_rels\/([^/]*)\.rels$/i.exec(e.name);
      if (m) out.push(m[2] === "" && m[1] === "" ? "" : `${m[1]}${m[2]}`);
    }
    return out;
  }

  /**
   * The package's XML parts: `.xml`, `.rels` and `.vml` entries and any entry [Content_Types].xml
   * gives an XML content type (by extension or by part name).
   */
  xmlPartNames(): string[] {
    const types = "[Content_Types].xml";
    const xmlExtensions = new Set(["xml", "rels", "vml"]);
    const xmlParts = new Set<string>();
    const ct = this.readXml(types);
    for (const root of parseElements(ct, types)) {
      for (const el of root.children) {
        const a = readAttributes(ct, el);
        if (!/xml$/i.test((attrByLocal(a, "ContentType") ?? "").trim())) continue;
        const ext = attrByLocal(a, "Extension");
        const name = attrByLocal(a, "PartName");
        if (localName(el.name) === "Default" && ext) xmlExtensions.add(ext.toLowerCase());
        if (localName(el.name) === "Override" && name) xmlParts.add(name.replace(/^\//, "").toLowerCase());
      }
    }
    return this.entries
      .filter(
        (e) =>
          !e.name.endsWith("/") &&
          (xmlParts.has(e.name.toLowerCase()) ||
            xmlExtensions.has(e.name.slice(e.name.lastIndexOf(".") + 1).toLowerCase())),
      )
      .map((e) => e.name);
  }

  /**
   * Refuses a DTD (`<!DOCTYPE`, `<!ENTITY`) in any XML part, read or only copied into the output:
   * whoever opens what Signet returns must not meet one either. Parts already read were checked
   * then; the others are inflated (within the package budget), checked and let go, except the
   * small index parts (relationships, content types) that are kept for later reads.
   */
  assertNoDtdInAnyPart(): void {
    for (const name of this.xmlPartNames()) {
      const key = name.toLowerCase();
      if (this.texts.has(key) || this.changed.has(key)) continue;
      if (key.endsWith(".rels") || key === "[content_types].xml") {
        this.readXml(name);
        continue;
      }
      const bytes = inflateEntry(this.bytes, this.entry(name)!, this.budget, LIMITS.docx.maxXmlPartBytes);
      assertNoDtd(decodeXmlForScan(bytes), name);
    }
  }

  /** Adds an internal relationship from `part` to `targetPart`; returns its id (`rIdN`, first free N). */
  addRelationship(part: string, type: string, targetPart: string): string {
    const relsName = relsPartOf(part);
    const existing = this.relationships(part);
    let n = existing.length + 1;
    const ids = new Set(existing.map((r) => r.id));
    for (const r of existing) {
      const m = /^rId(\d+)$/.exec(r.id);
      if (m) n = Math.max(n, Number(m[1]) + 1);
    }
    while (ids.has(`rId${n}`)) n++;
    const id = `rId${n}`;
    const target = relativeTarget(part, targetPart);
    if (this.has(relsName)) {
      const xml = this.readXml(relsName);
      const root = parseElements(xml, relsName).find((e) => localName(e.name) === "Relationships");
      if (!root) throw invalid(`The part ${relsName} has no Relationships element.`);
      const p = prefixOf(root.name);
      const el = `<${p ? `${p}:` : ""}Relationship Id="${id}" Type="${escapeAttr(type)}" Target="${escapeAttr(target)}"/>`;
      this.setXml(
        relsName,
        root.selfClosing
          ? xml.slice(0, root.start) +
              `<${root.name}${xml.slice(root.attrStart, root.attrEnd)}>${el}</${root.name}>` +
              xml.slice(root.end)
          : xml.slice(0, root.closeStart) + el + xml.slice(root.closeStart),
      );
    } else {
      this.setXml(
        relsName,
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<Relationships xmlns="${PACKAGE_RELS_NS}"><Relationship Id="${id}" Type="${escapeAttr(type)}" Target="${escapeAttr(target)}"/></Relationships>`,
      );
      this.ensureDefaultContentType("rels", "application/vnd.openxmlformats-package.relationships+xml");
    }
    existing.push({ id, type, target: targetPart, external: false });
    return id;
  }

  /** Adds `<Default Extension=... ContentType=...>` unless the extension already has a default. */
  ensureDefaultContentType(extension: string, contentType: string): void {
    const name = "[Content_Types].xml";
    const xml = this.readXml(name);
    const root = parseElements(xml, name).find((e) => localName(e.name) === "Types");
    if (!root) throw invalid("[Content_Types].xml has no Types element.");
    for (const el of root.children) {
      if (localName(el.name) !== "Default") continue;
      if ((attrByLocal(readAttributes(xml, el), "Extension") ?? "").toLowerCase() === extension.toLowerCase()) return;
    }
    const p = prefixOf(root.name);
    const el = `<${p ? `${p}:` : ""}Default Extension="${escapeAttr(extension)}" ContentType="${escapeAttr(contentType)}"/>`;
    // Defaults go before the first Override, as Word writes them.
    const firstOverride = root.children.find((c: XmlElement) => localName(c.name) === "Override");
    const at = firstOverride ? firstOverride.start : root.closeStart;
    if (root.selfClosing) throw invalid("[Content_Types].xml is empty.");
    this.setXml(name, xml.slice(0, at) + el + xml.slice(at));
  }

  /** The package with changed parts re-compressed and every other entry copied as it was. */
  write(): { segments: Uint8Array[]; length: number } {
    if (!this.isChanged) return { segments: [this.bytes], length: this.bytes.length };
    return writeZip(this.outputEntries().map((o) => o.entry));
  }

  /** The entries of the package as written: in package order, changed parts re-compressed, added ones last. */
  outputEntries(): { name: string; entry: ZipOutputEntry }[] {
    const out: { name: string; entry: ZipOutputEntry }[] = [];
    for (const e of this.entries) {
      const changed = this.changed.get(e.name.toLowerCase());
      if (changed === undefined) out.push({ name: e.name, entry: carryEntry(this.bytes, e) });
      else {
        const bytes = typeof changed === "string" ? encoder.encode(changed) : changed;
        const made = makeEntry(e.name, bytes, { dosTime: e.dosTime, dosDate: e.dosDate });
        out.push({ name: e.name, entry: { ...made, nameBytes: e.nameBytes, utf8Name: e.utf8Name } });
      }
    }
    for (const a of this.added) out.push({ name: a.name, entry: makeEntry(a.name, a.bytes, { store: a.store }) });
    return out;
  }
}
