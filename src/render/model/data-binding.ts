/**
 * Data-bound content controls (w:sdtPr/w:dataBinding): the value a plain-text control shows.
 *
 * LibreOffice 7.4 shows, in a plain-text control (w:text) bound by an XPath to the core properties
 * (docProps/core.xml), the extended properties (docProps/app.xml) or a custom XML part
 * (customXml/itemN.xml, found by the w:storeItemID its itemProps part names), the value it finds
 * there instead of the text Word cached; an empty or missing value keeps the cached text, and a
 * rich-text control always keeps it (measured on minimal documents; docs/rendering.md).
 *
 * Only the XPath form Word writes is read: absolute steps `prefix:name[n]` down to one element, whose
 * text is the value. Anything else keeps the cached text. Element names match by local name: the
 * stores are small, known documents.
 */
import { LIMITS } from "../../limits";
import type { DocxPackage } from "../../docx/package";
import type { XNode } from "./xml-tree";
import { packagePartName } from "./doc-properties";

/** The store item ids Word gives the core and extended properties. */
const CORE_PROPERTIES = "{6C3C8BC8-F283-45AE-878A-BAB7291924A1}";
const EXTENDED_PROPERTIES = "{6668398D-A668-4E3E-A5EB-62B293D839F1}";

const STEP = /^(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)(?:\[(\d{1,4})\])?$/;

export class DataStores {
  /** Parsed stores by upper-case item id (null: none readable). */
  private readonly stores = new Map<string, XNode | null>();
  /** Custom XML item parts by upper-case item id, found on first use. */
  private customItems: Map<string, string> | undefined;

  constructor(
    private readonly pkg: DocxPackage,
    /** Parses a part (undefined when missing or unreadable). */
    private readonly read: (name: string) => XNode | undefined,
  ) {}

  /** The bound value of a w:dataBinding element, or undefined to keep the cached text. */
  value(binding: XNode): string | undefined {
    const id = binding.attr("storeItemID")?.trim().toUpperCase();
    const xpath = binding.attr("xpath");
    if (!id || !xpath || xpath.length > LIMITS.render.dataBinding.maxXpathChars) return undefined;
    const root = this.store(id);
    if (!root) return undefined;
    const steps = xpath.split("/");
    if (steps.shift() !== "") return undefined; // absolute paths only
    let node: XNode | undefined;
    for (const step of steps) {
      const m = STEP.exec(step);
      if (!m) return undefined;
      const [, local, index] = m;
      const n = index === undefined ? 1 : Number(index);
      if (node === undefined) node = root.name === local && n === 1 ? root : undefined;
      else node = node.children.filter((c) => c.name === local)[n - 1];
      if (!node) return undefined;
    }
    const text = node?.text() ?? "";
    return text.trim() ? text.slice(0, LIMITS.render.dataBinding.maxValueChars) : undefined;
  }

  private store(id: string): XNode | null {
    let root = this.stores.get(id);
    if (root !== undefined) return root;
    const part =
      id === CORE_PROPERTIES
        ? packagePartName(this.pkg, "/metadata/core-properties", "docProps/core.xml")
        : id === EXTENDED_PROPERTIES
          ? packagePartName(this.pkg, "/extended-properties", "docProps/app.xml")
          : this.customItem(id);
    root = part !== undefined && this.small(part) ? (this.read(part) ?? null) : null;
    this.stores.set(id, root);
    return root;
  }

  /** The custom XML part whose itemProps part names `id` (main part relationships of type customXml). */
  private customItem(id: string): string | undefined {
    if (!this.customItems) {
      this.customItems = new Map();
      const items = this.pkg
        .relationships(this.pkg.mainPart)
        .filter((r) => !r.external && r.type.endsWith("/customXml") && this.pkg.has(r.target))
        .slice(0, LIMITS.render.dataBinding.maxCustomParts);
      for (const item of items) {
        const props = this.pkg
          .relationships(item.target)
          .find((r) => !r.external && r.type.endsWith("/customXmlProps") && this.pkg.has(r.target));
        if (!props || !this.small(props.target)) continue;
        const itemId = this.read(props.target)?.attr("itemID")?.trim().toUpperCase();
        if (itemId && !this.customItems.has(itemId)) this.customItems.set(itemId, item.target);
      }
    }
    return this.customItems.get(id);
  }

  /** A store is read only when small: custom XML parts are not counted in the package's XML budget. */
  private small(part: string): boolean {
    const size = this.pkg.entry(part)?.uncompressedSize;
    return size !== undefined && size <= LIMITS.render.dataBinding.maxStoreBytes;
  }
}
