/**
 * A small, safe XML tokenizer for the parts of a DOCX we read, and the helpers to write XML text.
 *
 * Why our own: we never re-serialize a part. We find the byte ranges to change and splice new
 * text into the original string, so namespaces, `mc:Ignorable`, attribute order, whitespace in
 * `w:t` and everything we do not touch stay exactly as they were. That needs offsets, which DOM
 * parsers do not give, and it is faster than building a DOM (see bench/annotate.ts: scanning a
 * 3 MB document.xml takes a few milliseconds).
 *
 * Safety rules:
 * - `<!DOCTYPE` and `<!ENTITY` anywhere are refused (`xml_doctype_forbidden`): no DTD, no
 *   external entities, no entity expansion. References other than the five predefined ones and
 *   character references are left as they are (never expanded).
 * - Nesting depth is capped; malformed markup (unclosed tags, mismatched end tags) is `docx_invalid`.
 */
import { UnprocessableContent } from "../errors";
import { LIMITS } from "../limits";

export class XmlError extends UnprocessableContent {}

export function doctypeForbidden(part: string): UnprocessableContent {
  return new UnprocessableContent(
    "xml_doctype_forbidden",
    `The part ${part} declares a DTD or entities (<!DOCTYPE or <!ENTITY); Signet does not process them.`,
  );
}

function malformed(part: string, what: string, at: number): UnprocessableContent {
  return new UnprocessableContent("docx_invalid", `The part ${part} is not well-formed XML: ${what} at offset ${at}.`);
}

/**
 * Handlers of the tokenizer. Names are qualified names as written (`w:sdt`). A self-closing
 * element gets `open(..., selfClosing: true)` and no `close`.
 */
export interface XmlHandler {
  open(
    name: string,
    start: number,
    attrStart: number,
    attrEnd: number,
    openEnd: number,
    selfClosing: boolean,
    hasXmlns: boolean,
  ): void;
  close(name: string, start: number, end: number): void;
}

export const LT = 0x3c;
export const GT = 0x3e;
export const SLASH = 0x2f;
export const QMARK = 0x3f;
export const BANG = 0x21;
const EQ = 0x3d;
export const DQ = 0x22;
export const SQ = 0x27;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Names end at whitespace, `/`, `>` or `=`. */
export function isNameEnd(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === SLASH || c === GT || c === EQ || Number.isNaN(c);
}

/**
 * Refuses `<!DOCTYPE` / `<!ENTITY` without tokenizing: every `<!` must open a comment or CDATA.
 * Used on parts we read but do not scan for controls.
 */
export function assertNoDtd(xml: string, part: string): void {
  let at = xml.indexOf("<!");
  while (at >= 0) {
    if (xml.startsWith("<!--", at)) {
      const end = xml.indexOf("-->", at + 4);
      if (end < 0) throw malformed(part, "unterminated comment", at);
      at = xml.indexOf("<!", end + 3);
    } else if (xml.startsWith("<![CDATA[", at)) {
      const end = xml.indexOf("]]>", at + 9);
      if (end < 0) throw malformed(part, "unterminated CDATA section", at);
      at = xml.indexOf("<!", end + 3);
    } else {
      throw doctypeForbidden(part);
    }
  }
}

/**
 * Tokenizes `xml[from, to)`: start/end tags go to the handler; text, comments, CDATA and
 * processing instructions are skipped. Checks nesting (end tag matches start tag) and depth.
 */
export function tokenize(xml: string, part: string, handler: XmlHandler, from = 0, to = xml.length): void {
  const stack: string[] = [];
  const maxDepth = LIMITS.docx.maxXmlDepth;
  let i = from;
  while (i < to) {
    const lt = xml.indexOf("<", i);
    if (lt < 0 || lt >= to) break;
    const c1 = xml.charCodeAt(lt + 1);
    if (c1 === QMARK) {
      const end = xml.indexOf("?>", lt + 2);
      if (end < 0 || end + 2 > to) throw malformed(part, "unterminated processing instruction", lt);
      i = end + 2;
      continue;
    }
    if (c1 === BANG) {
      if (xml.startsWith("<!--", lt)) {
        const end = xml.indexOf("-->", lt + 4);
        if (end < 0 || end + 3 > to) throw malformed(part, "unterminated comment", lt);
        i = end + 3;
        continue;
      }
      if (xml.startsWith("<![CDATA[", lt)) {
        const end = xml.indexOf("]]>", lt + 9);
        if (end < 0 || end + 3 > to) throw malformed(part, "unterminated CDATA section", lt);
        i = end + 3;
        continue;
      }
      throw doctypeForbidden(part);
    }
    if (c1 === SLASH) {
      const gt = xml.indexOf(">", lt + 2);
      if (gt < 0 || gt >= to) throw malformed(part, "unterminated end tag", lt);
      let nameEnd = lt + 2;
      while (nameEnd < gt && !isSpace(xml.charCodeAt(nameEnd))) nameEnd++;
      const name = xml.slice(lt + 2, nameEnd);
      const open = stack.pop();
      if (open !== name)
        throw malformed(part, open === undefined ? `unexpected </${name}>` : `</${name}> closes <${open}>`, lt);
      handler.close(name, lt, gt + 1);
      i = gt + 1;
      continue;
    }
    // Start tag.
    let p = lt + 1;
    while (p < to && !isNameEnd(xml.charCodeAt(p))) p++;
    if (p === lt + 1) throw malformed(part, "a '<' that starts no tag", lt);
    const name = xml.slice(lt + 1, p);
    const attrStart = p;
    let hasXmlns = false;
    let selfClosing = false;
    for (;;) {
      while (p < to && isSpace(xml.charCodeAt(p))) p++;
      if (p >= to) throw malformed(part, "unterminated start tag", lt);
      const c = xml.charCodeAt(p);
      if (c === GT) break;
      if (c === SLASH) {
        if (xml.charCodeAt(p + 1) !== GT) throw malformed(part, "stray '/' in a start tag", p);
        selfClosing = true;
        p++;
        break;
      }
      const attrName = p;
      while (p < to && !isNameEnd(xml.charCodeAt(p))) p++;
      if (p === attrName) throw malformed(part, "bad attribute", p);
      if (xml.startsWith("xmlns", attrName)) hasXmlns = true;
      while (p < to && isSpace(xml.charCodeAt(p))) p++;
      if (xml.charCodeAt(p) !== EQ) throw malformed(part, "attribute without a value", p);
      p++;
      while (p < to && isSpace(xml.charCodeAt(p))) p++;
      const q = xml.charCodeAt(p);
      if (q !== DQ && q !== SQ) throw malformed(part, "unquoted attribute value", p);
      const close = xml.indexOf(q === DQ ? '"' : "'", p + 1);
      if (close < 0 || close >= to) throw malformed(part, "unterminated attribute value", p);
      p = close + 1;
    }
    const attrEnd = selfClosing ? p - 1 : p;
    const openEnd = p + 1;
    if (!selfClosing) {
      if (stack.length >= maxDepth) {
        throw new UnprocessableContent(
          "docx_invalid",
          `The part ${part} nests elements deeper than ${maxDepth} levels.`,
        );
      }
      stack.push(name);
    }
    handler.open(name, lt, attrStart, attrEnd, openEnd, selfClosing, hasXmlns);
    i = openEnd;
  }
  if (stack.length) throw malformed(part, `<${stack[stack.length - 1]}> is never closed`, to);
}

// ---------------------------------------------------------------------------------------------
// A small element tree for fragments (sdtPr, sdtContent, rels, content types).

export interface XmlElement {
  name: string;
  /** `<` of the start tag. */
  start: number;
  /** Just after the start tag's `>`. */
  openEnd: number;
  /** `<` of the end tag (equals `end` for a self-closing element). */
  closeStart: number;
  /** Just after the end tag. */
  end: number;
  attrStart: number;
  attrEnd: number;
  selfClosing: boolean;
  children: XmlElement[];
  parent: XmlElement | null;
}

/** Parses `xml[from, to)` into elements (the top-level ones are returned). */
export function parseElements(xml: string, part: string, from = 0, to = xml.length): XmlElement[] {
  const roots: XmlElement[] = [];
  const stack: XmlElement[] = [];
  tokenize(
    xml,
    part,
    {
      open(name, start, attrStart, attrEnd, openEnd, selfClosing) {
        const parent = stack[stack.length - 1] ?? null;
        const el: XmlElement = {
          name,
          start,
          openEnd,
          closeStart: openEnd,
          end: openEnd,
          attrStart,
          attrEnd,
          selfClosing,
          children: [],
          parent,
        };
        (parent ? parent.children : roots).push(el);
        if (!selfClosing) stack.push(el);
      },
      close(_name, start, end) {
        const top = stack.pop()!;
        top.closeStart = start;
        top.end = end;
      },
    },
    from,
    to,
  );
  return roots;
}

export function localName(qname: string): string {
  const colon = qname.indexOf(":");
  return colon < 0 ? qname : qname.slice(colon + 1);
}

export function prefixOf(qname: string): string {
  const colon = qname.indexOf(":");
  return colon < 0 ? "" : qname.slice(0, colon);
}

/** The attributes of an element, values decoded (predefined entities and character references only). */
export function readAttributes(xml: string, el: { attrStart: number; attrEnd: number }): Map<string, string> {
  return parseAttributes(xml.slice(el.attrStart, el.attrEnd));
}

export function parseAttributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) out.set(m[1]!, decodeEntities(m[2] ?? m[3] ?? ""));
  return out;
}

/** Value of the attribute with this local name (any prefix), or undefined. */
export function attrByLocal(attrs: Map<string, string>, local: string): string | undefined {
  for (const [k, v] of attrs) if (k === local || k.endsWith(`:${local}`)) return v;
  return undefined;
}

const PREDEFINED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Decodes the five predefined entities and character references; anything else stays literal. */
export function decodeEntities(text: string): string {
  if (text.indexOf("&") < 0) return text;
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|amp|lt|gt|quot|apos);/g, (whole, ref: string) => {
    if (ref[0] !== "#") return PREDEFINED[ref] ?? whole;
    const code = ref[1] === "x" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    if (!isXmlChar(code)) return "";
    return String.fromCodePoint(code);
  });
}

function isXmlChar(c: number): boolean {
  return (
    c === 0x9 ||
    c === 0xa ||
    c === 0xd ||
    (c >= 0x20 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd) ||
    (c >= 0x10000 && c <= 0x10ffff)
  );
}

/** Characters XML 1.0 forbids (C0 controls other than tab/LF/CR, lone surrogates, U+FFFE/U+FFFF). */
const FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function dropForbiddenChars(text: string): string {
  return text.replace(FORBIDDEN, "");
}

export function escapeText(text: string): string {
  return dropForbiddenChars(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function escapeAttr(text: string): string {
  return escapeText(text)
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(/\t/g, "&#9;")
    .replace(/\n/g, "&#10;")
    .replace(/\r/g, "&#13;");
}

/** Concatenated decoded text of `<x:t>` descendants (what a reader sees), for diagnostics and tests. */
export function textOf(xml: string, els: XmlElement[], textLocal = "t"): string {
  let out = "";
  const walk = (list: XmlElement[]) => {
    for (const el of list) {
      if (localName(el.name) === textLocal && !el.selfClosing)
        out += decodeEntities(xml.slice(el.openEnd, el.closeStart));
      else walk(el.children);
    }
  };
  walk(els);
  return out;
}

/** A list of non-overlapping replacements applied to a string in one pass. */
export interface Splice {
  start: number;
  end: number;
  text: string;
}

export function applySplices(xml: string, splices: Splice[]): string {
  if (!splices.length) return xml;
  const sorted = [...splices].sort((a, b) => a.start - b.start || a.end - b.end);
  const parts: string[] = [];
  let at = 0;
  for (const s of sorted) {
    if (s.start < at) throw new Error(`overlapping XML edits at ${s.start}`);
    parts.push(xml.slice(at, s.start), s.text);
    at = s.end;
  }
  parts.push(xml.slice(at));
  return parts.join("");
}
