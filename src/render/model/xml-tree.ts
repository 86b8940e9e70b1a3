/**
 * A small read-only element tree over our tokenizer (src/docx/xml.ts): local names only (so
 * Transitional and Strict namespaces read alike), attributes parsed on first use, text taken
 * from the source slice. No DTD, bounded depth: the tokenizer enforces both.
 */
import { decodeEntities, localName, tokenize } from "../../docx/xml";

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Shared by every leaf element (most of a part), so leaves allocate no array. */
const NO_CHILDREN: XNode[] = [];

export class XNode {
  children: XNode[] = NO_CHILDREN;
  /** Offsets into the part's text (content between start and end tag). */
  contentStart = 0;
  contentEnd = 0;

  constructor(
    readonly xml: string,
    /** Local name (`p`, `rPr`), prefix dropped. */
    readonly name: string,
    private readonly attrStart: number,
    private readonly attrEnd: number,
  ) {}

  /**
   * Attribute value by local name (any prefix), or undefined. Scans the start tag's attribute text
   * each time: elements are asked for one or two attributes, so a map per element costs more.
   */
  attr(local: string): string | undefined {
    const xml = this.xml;
    let i = this.attrStart;
    const end = this.attrEnd;
    while (i < end) {
      while (i < end && isSpace(xml.charCodeAt(i))) i++;
      const nameStart = i;
      while (i < end && xml.charCodeAt(i) !== 0x3d && !isSpace(xml.charCodeAt(i))) i++;
      const nameEnd = i;
      while (i < end && xml.charCodeAt(i) !== 0x22 && xml.charCodeAt(i) !== 0x27) i++;
      if (i >= end) return undefined;
      const quote = xml.charCodeAt(i);
      const valueStart = i + 1;
      const valueEnd = xml.indexOf(quote === 0x22 ? '"' : "'", valueStart);
      if (valueEnd < 0 || valueEnd > end) return undefined;
      i = valueEnd + 1;
      const len = local.length;
      if (nameEnd - nameStart < len || !xml.startsWith(local, nameEnd - len)) continue;
      if (nameEnd - nameStart === len || xml.charCodeAt(nameEnd - len - 1) === 0x3a) return detach(decodeEntities(xml.slice(valueStart, valueEnd)));
    }
    return undefined;
  }

  /** First child with this local name. */
  child(local: string): XNode | undefined {
    for (const c of this.children) if (c.name === local) return c;
    return undefined;
  }

  /** All children with this local name. */
  all(local: string): XNode[] {
    return this.children.filter((c) => c.name === local);
  }

  /** The source text between the start and end tag (a cache key for property elements). */
  inner(): string {
    return this.xml.slice(this.contentStart, this.contentEnd);
  }

  /** Decoded character content (for leaf elements such as w:t, w:instrText, dc:title). */
  text(): string {
    if (this.contentEnd <= this.contentStart) return "";
    let raw = this.xml.slice(this.contentStart, this.contentEnd);
    if (raw.indexOf("<") >= 0) raw = raw.replace(/<!\[CDATA\[([\s\S]*?)\]\]>|<[^>]*>/g, (_m, cdata: string | undefined) => (cdata === undefined ? "" : cdata.replace(/&/g, "&amp;")));
    return detach(decodeEntities(raw));
  }

  /** Descendants with this local name, depth first, not descending into matches. */
  find(local: string, out: XNode[] = []): XNode[] {
    for (const c of this.children) {
      if (c.name === local) out.push(c);
      else c.find(local, out);
    }
    return out;
  }

  /** First descendant with this local name. */
  first(local: string): XNode | undefined {
    for (const c of this.children) {
      if (c.name === local) return c;
      const d = c.first(local);
      if (d) return d;
    }
    return undefined;
  }
}

/**
 * A copy of `s` that does not point into the part's text. V8 makes substrings of 13+ characters
 * "sliced strings" that keep the whole parent alive: a model holding w:t slices would keep a
 * 12 MB document.xml (25 MB as a two-byte string) in memory through layout and painting (a
 * font name read from an attribute was enough).
 * Concatenation and then slicing flattens into a new string of the piece's own length.
 */
function detach(s: string): string {
  return s.length < 13 ? s : (" " + s).slice(1);
}

/**
 * Streaming: `onComplete` is called for every element at `depth` (the root is depth 1) as soon
 * as its end tag is read; when it returns true the element is dropped from its parent, so its
 * subtree can be collected while the rest of the part is still being read.
 */
export interface TreeStream {
  depth: number;
  onComplete(node: XNode, parent: XNode): boolean;
}

/** Parses a whole part; returns its root element (throws docx_invalid on malformed XML). */
export function parseTree(xml: string, part: string, stream?: TreeStream): XNode {
  const holder = new XNode(xml, "#document", 0, 0);
  const stack: XNode[] = [holder];
  const complete = (node: XNode, parent: XNode) => {
    if (stream && stack.length === stream.depth && stream.onComplete(node, parent)) parent.children.pop();
  };
  tokenize(xml, part, {
    open(name, _start, attrStart, attrEnd, openEnd, selfClosing) {
      const node = new XNode(xml, localName(name), attrStart, attrEnd);
      node.contentStart = openEnd;
      node.contentEnd = openEnd;
      const parent = stack[stack.length - 1]!;
      if (parent.children === NO_CHILDREN) parent.children = [node];
      else parent.children.push(node);
      if (!selfClosing) stack.push(node);
      else complete(node, parent);
    },
    close(_name, start) {
      const node = stack.pop()!;
      node.contentEnd = start;
      complete(node, stack[stack.length - 1]!);
    },
  });
  return holder.children[0] ?? holder;
}
