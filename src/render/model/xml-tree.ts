/**
 * A small read-only element tree over our tokenizer (src/docx/xml.ts): local names only (so
 * Transitional and Strict namespaces read alike), attributes parsed on first use, text taken
 * from the source slice. No DTD, bounded depth: the tokenizer enforces both.
 */
import { decodeEntities, localName, tokenize } from "../../docx/xml";
import { forEachSegment } from "./xml-segments";

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
      if (nameEnd - nameStart === len || xml.charCodeAt(nameEnd - len - 1) === 0x3a)
        return detach(decodeEntities(xml.slice(valueStart, valueEnd)));
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
    if (raw.indexOf("<") >= 0)
      raw = raw.replace(/<!\[CDATA\[([\s\S]*?)\]\]>|<[^>]*>/g, (_m, cdata: string | undefined) =>
        cdata === undefined ? "" : cdata.replace(/&/g, "&amp;"),
      );
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
export function detach(s: string): string {
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
  const builder = new TreeBuilder(stream);
  builder.add(xml, part, 0, xml.length);
  return builder.root();
}

/**
 * Parses a part from its UTF-8 bytes, decoding and tokenizing it a segment at a time
 * (xml-segments.ts): with `stream` dropping the elements it has read, no more than a segment of
 * the part's text and the element being read are held at once. Same tree, same errors as
 * `parseTree` on the decoded text, except that elements above `stream.depth` have an empty
 * content range (their text spans segments).
 */
export function parseTreeUtf8(bytes: Uint8Array, part: string, stream: TreeStream, windowBytes?: number): XNode {
  const builder = new TreeBuilder(stream);
  forEachSegment(
    bytes,
    part,
    stream.depth,
    (seg) => {
      // The open elements' tags around the segment make it balanced; their events are skipped.
      const before = seg.openBefore.map((n) => `<${n}>`).join("");
      const after = seg.openAfter
        .map((n) => `</${n}>`)
        .reverse()
        .join("");
      builder.add(
        before + seg.text.slice(seg.from, seg.to) + after,
        part,
        before.length,
        before.length + seg.to - seg.from,
      );
    },
    windowBytes,
  );
  return builder.root();
}

/** Builds the element tree from tokenizer events, possibly over several texts (segments). */
class TreeBuilder {
  private readonly holder = new XNode("", "#document", 0, 0);
  private readonly stack: XNode[] = [this.holder];
  /**
   * One string per distinct tag name: the tokenizer's name is a fresh copy per tag, and a part
   * has a few dozen distinct names over hundreds of thousands of elements.
   */
  private readonly names = new Map<string, string>();

  constructor(private readonly stream?: TreeStream) {}

  root(): XNode {
    return this.holder.children[0] ?? this.holder;
  }

  /** Tokenizes `xml`; events outside [from, to) (tags added to balance a segment) are skipped. */
  add(xml: string, part: string, from: number, to: number): void {
    const { stack, names } = this;
    tokenize(xml, part, {
      open: (name, start, attrStart, attrEnd, openEnd, selfClosing) => {
        if (start < from) return;
        let local = names.get(name);
        if (local === undefined) names.set(name, (local = detach(localName(name))));
        const node = new XNode(xml, local, attrStart, attrEnd);
        node.contentStart = openEnd;
        node.contentEnd = openEnd;
        const parent = stack[stack.length - 1]!;
        if (parent.children === NO_CHILDREN) parent.children = [node];
        else parent.children.push(node);
        if (!selfClosing) stack.push(node);
        else this.complete(node, parent);
      },
      close: (_name, start) => {
        if (start >= to) return;
        const node = stack.pop()!;
        // An element opened in an earlier segment points into that segment's text.
        if (node.xml === xml) node.contentEnd = start;
        this.complete(node, stack[stack.length - 1]!);
      },
    });
  }

  private complete(node: XNode, parent: XNode): void {
    // A pushed-to array keeps spare capacity (17 slots once it grows past one): an exact copy
    // halves what a large tree (styles.xml, a long table) holds.
    if (node.children.length > 1) node.children = node.children.slice();
    const stream = this.stream;
    if (stream && this.stack.length === stream.depth && stream.onComplete(node, parent)) parent.children.pop();
  }
}
