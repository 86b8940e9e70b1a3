/**
 * Reads a UTF-8 XML part a window of bytes at a time and hands it on in segments of complete
 * markup, so a large part (a 12 MB document.xml is a 25 MB string once decoded when it holds
 * any non-Latin-1 text) never exists as one string.
 *
 * A segment ends only where fewer than `depth` elements are open (between two elements at
 * `depth`), and comes with the names of the elements open before and after it: wrapping the
 * segment in those start and end tags gives balanced XML the tokenizer checks in full, so the
 * part is checked exactly as a whole-string parse would check it (same nesting, DTD and
 * well-formedness rules). Only the lexical scan here is ours: it finds where tags end.
 */
import { BANG, DQ, GT, isNameEnd, LT, QMARK, SLASH, SQ } from "../../docx/xml";
import { UnprocessableContent } from "../../errors";
import { LIMITS } from "../../limits";

/** Bytes decoded per step: small against the isolate, large against per-segment overhead. */
const WINDOW_BYTES = 256 * 1024;

export interface Segment {
  text: string;
  from: number;
  to: number;
  /** Qualified names of the elements open where the segment starts / ends, outermost first. */
  openBefore: readonly string[];
  openAfter: readonly string[];
}

function invalid(part: string, why: string): UnprocessableContent {
  return new UnprocessableContent("docx_invalid", `The part ${part} ${why}.`);
}

/** Calls `visit` for consecutive segments covering the whole decoded part, in order. */
export function forEachSegment(
  bytes: Uint8Array,
  part: string,
  depth: number,
  visit: (segment: Segment) => void,
  windowBytes = WINDOW_BYTES,
): void {
  if ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe)) {
    throw invalid(part, "is UTF-16; Signet reads UTF-8 parts only");
  }
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  const scanner = new MarkupScanner(depth, part);
  let text = "";
  let openBefore: readonly string[] = [];
  // Fixed windows: growing them while one element spans many would copy the pending text fewer
  // times (each append re-copies it) but hold more of it; bug65649 then no longer fit an 80 MB heap.
  for (let at = 0; ; at += windowBytes) {
    const last = at + windowBytes >= bytes.length;
    let piece: string;
    try {
      piece = decoder.decode(bytes.subarray(at, at + windowBytes), { stream: !last });
    } catch {
      throw invalid(part, "is not valid UTF-8");
    }
    text += piece;
    if (last) {
      visit({ text, from: 0, to: text.length, openBefore, openAfter: [] });
      return;
    }
    const cut = scanner.scan(text);
    if (cut > 0) {
      visit({ text, from: 0, to: cut, openBefore, openAfter: scanner.openAtCut });
      openBefore = scanner.openAtCut;
      text = text.slice(cut);
      scanner.shift(cut);
    }
  }
}

/**
 * Follows the nesting of a text that grows at its end. Malformed markup is not judged here (the
 * tokenizer does that on each segment); it can only move a cut, and a wrong cut fails the
 * tokenizer's balance check.
 */
class MarkupScanner {
  /** Where scanning resumes: the start of markup not yet complete, or the end of the text. */
  private pos = 0;
  /** Open elements; names are kept for the outer levels only (deeper ones close before any cut). */
  private readonly open: string[] = [];
  /** The open names at the last cut `scan` returned. */
  openAtCut: readonly string[] = [];

  constructor(
    private readonly depth: number,
    private readonly part: string,
  ) {}

  /** Scans the complete markup from where it stopped; returns the last cut in `text`, or -1. */
  scan(text: string): number {
    let cut = -1;
    let i = this.pos;
    for (;;) {
      const lt = text.indexOf("<", i);
      if (lt < 0) {
        i = text.length;
        break;
      }
      const end = markupEnd(text, lt);
      if (end < 0) {
        i = lt;
        break;
      }
      const c1 = text.charCodeAt(lt + 1);
      if (c1 === SLASH) this.open.pop();
      else if (c1 !== QMARK && c1 !== BANG && text.charCodeAt(end - 2) !== SLASH) {
        if (this.open.length >= LIMITS.docx.maxXmlDepth) {
          throw new UnprocessableContent(
            "docx_invalid",
            `The part ${this.part} nests elements deeper than ${LIMITS.docx.maxXmlDepth} levels.`,
          );
        }
        let nameEnd = lt + 1;
        while (!isNameEnd(text.charCodeAt(nameEnd))) nameEnd++;
        this.open.push(this.open.length < this.depth ? text.slice(lt + 1, nameEnd) : "");
      }
      i = end;
      if (this.open.length < this.depth) {
        cut = end;
        this.openAtCut = this.open.slice();
      }
    }
    this.pos = i;
    return cut;
  }

  /** The text lost its first `n` characters (they were handed on). */
  shift(n: number): void {
    this.pos -= n;
  }
}

/** The index just past the markup starting at `lt` (a `<`), or -1 when the text ends first. */
function markupEnd(text: string, lt: number): number {
  const c1 = text.charCodeAt(lt + 1);
  if (c1 === BANG || c1 === QMARK) {
    // A comment, CDATA or PI may hold '<' and '>': look for its own terminator.
    if (lt + 9 > text.length) return -1;
    const close = text.startsWith("<!--", lt)
      ? "-->"
      : text.startsWith("<![CDATA[", lt)
        ? "]]>"
        : c1 === QMARK
          ? "?>"
          : ">";
    const at = text.indexOf(close, lt + 2);
    return at < 0 ? -1 : at + close.length;
  }
  for (let p = lt + 1; p < text.length; p++) {
    const c = text.charCodeAt(p);
    if (c === GT) return p + 1;
    if (c === DQ || c === SQ) {
      const q = text.indexOf(c === DQ ? '"' : "'", p + 1);
      if (q < 0) return -1;
      p = q;
    } else if (c === LT) {
      return p; // malformed: let the tokenizer report it
    }
  }
  return -1;
}
