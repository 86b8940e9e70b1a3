import { PdfUnparseable } from "../../errors";
import { PdfDict, PdfRef, PdfStream, PdfString, type PdfValue } from "../model";
import { PdfBudgetExceeded, type Budget } from "./budget";
import { isRegular, isWhite, Lexer, TK, type Token } from "./lexer";

/**
 * Layer 2 of the reader: builds objects of our model from tokens (§7.3).
 * It defends itself: nesting depth, collection sizes and the work counter are
 * budgeted; structural keywords inside an array or dictionary end the parse
 * with `PdfUnparseable` rather than swallowing the rest of the file.
 */

export interface ParseContext {
  budget: Budget;
  /** Resolves an indirect `/Length`; undefined when it cannot be (missing object, cycle). */
  resolveLength?: (ref: PdfRef) => number | undefined;
  /** Offset of the next `endstream` keyword at or after `from`, or -1. */
  findEndstream?: (from: number) => number;
  /** Hook for encrypted files (see crypt.ts): returns the string as decrypted. */
  decryptString?: (s: PdfString, num: number, gen: number) => PdfString;
  /** Whether `stream` after a top-level dictionary starts stream data (false inside object streams). */
  allowStreams?: boolean;
}

export interface IndirectObject {
  num: number;
  gen: number;
  value: PdfValue;
  /** Offset just past the object (after `endobj` when present). */
  end: number;
}

/**
 * A syntax error found by the parser. Still a `PdfUnparseable`; built without a
 * stack trace because recovery paths (scans, wrong xref entries) may meet
 * thousands of them and V8's stack capture dominates their cost.
 */
export class ParseFailure extends PdfUnparseable {
  constructor(message: string) {
    const E = Error as { stackTraceLimit?: number };
    const limit = E.stackTraceLimit;
    E.stackTraceLimit = 0;
    try {
      super(message);
    } finally {
      E.stackTraceLimit = limit;
    }
  }
}

const STRUCTURAL = new Set(["obj", "endobj", "stream", "endstream", "xref", "trailer", "startxref"]);

const MAX_REF_NUM = 2 ** 31;
/** Bytes of object syntax parsed per unit of work (a 25 MB file parsed whole costs ~400k of the 5M units). */
const PARSE_BYTES_PER_UNIT = 64;
/** Extra work charged for an object that fails to parse (at most ~78k failures fit in 5M units). */
const FAILED_PARSE_UNITS = 64;

export function matchKeyword(bytes: Uint8Array, p: number, kw: string, end = bytes.length): boolean {
  if (p + kw.length > end) return false;
  for (let i = 0; i < kw.length; i++) if (bytes[p + i] !== kw.charCodeAt(i)) return false;
  const after = p + kw.length;
  return after >= end || !isRegular(bytes[after]);
}

export class Parser {
  private readonly queue: Token[] = [];
  /** Number and generation of the indirect object being parsed (for the decryption hook). */
  private objNum = -1;
  private objGen = -1;

  constructor(
    readonly lexer: Lexer,
    readonly ctx: ParseContext,
  ) {}

  peek(k = 0): Token {
    while (this.queue.length <= k) this.queue.push(this.lexer.next());
    return this.queue[k]!;
  }

  shift(): Token {
    return this.queue.length ? this.queue.shift()! : this.lexer.next();
  }

  /** Moves the parser to `pos`, discarding look-ahead. */
  seek(pos: number): void {
    this.queue.length = 0;
    this.lexer.pos = pos;
  }

  /** Offset where the next unread token starts (or the lexer position when nothing is buffered). */
  position(): number {
    return this.queue.length ? this.queue[0]!.start : this.lexer.pos;
  }

  getObject(depth = 0): PdfValue {
    const t = this.shift();
    switch (t.kind) {
      case TK.Int: {
        const a = this.peek(0);
        if (a.kind === TK.Int) {
          const r = this.peek(1);
          if (r.kind === TK.Keyword && r.value === "R") {
            if (t.value >= 0 && t.value < MAX_REF_NUM && a.value >= 0 && a.value <= 65535) {
              this.shift();
              this.shift();
              return new PdfRef(t.value, a.value);
            }
          }
        }
        return t.value;
      }
      case TK.Real:
        return t.value;
      case TK.Name:
        return t.value;
      case TK.String:
        return this.ctx.decryptString ? this.ctx.decryptString(t.value, this.objNum, this.objGen) : t.value;
      case TK.ArrayOpen:
        return this.array(depth + 1);
      case TK.DictOpen:
        return this.dict(depth + 1);
      case TK.Keyword:
        if (t.value === "true") return true;
        if (t.value === "false") return false;
        if (t.value === "null") return null;
        throw new ParseFailure(
          `Unexpected keyword "${t.value.slice(0, 32)}" at offset ${t.start} where a PDF object was expected.`,
        );
      case TK.EOF:
        throw new ParseFailure(`Unexpected end of data at offset ${t.start} where a PDF object was expected.`);
      default:
        throw new ParseFailure(`Unexpected delimiter at offset ${t.start} where a PDF object was expected.`);
    }
  }

  private array(depth: number): PdfValue[] {
    const { budget } = this.ctx;
    if (depth > budget.limits.maxDepth) throw budget.depthExceeded();
    budget.tick();
    const out: PdfValue[] = [];
    const max = budget.limits.maxCollectionSize;
    for (;;) {
      const t = this.peek(0);
      switch (t.kind) {
        case TK.ArrayClose:
          this.shift();
          return out;
        case TK.EOF:
          throw new ParseFailure(`Unterminated array (end of data at offset ${t.start}).`);
        case TK.Keyword:
          if (STRUCTURAL.has(t.value)) throw new ParseFailure(`Unterminated array: "${t.value}" at offset ${t.start}.`);
          if (t.value !== "true" && t.value !== "false" && t.value !== "null") {
            this.shift(); // junk such as "NaN" or a stray ')' is dropped, as other readers do
            continue;
          }
          break;
        case TK.DictClose:
        case TK.BraceOpen:
        case TK.BraceClose:
          this.shift();
          continue;
      }
      if (out.length >= max)
        throw new PdfBudgetExceeded(`An array of the PDF has more than ${max} elements (limit maxCollectionSize).`);
      out.push(this.getObject(depth));
    }
  }

  private dict(depth: number): PdfDict {
    const { budget } = this.ctx;
    if (depth > budget.limits.maxDepth) throw budget.depthExceeded();
    budget.tick();
    const map = new Map<string, PdfValue>();
    const max = budget.limits.maxCollectionSize;
    for (;;) {
      const t = this.peek(0);
      if (t.kind === TK.DictClose) {
        this.shift();
        return new PdfDict(map);
      }
      if (t.kind === TK.EOF) throw new ParseFailure(`Unterminated dictionary (end of data at offset ${t.start}).`);
      if (t.kind === TK.Keyword && STRUCTURAL.has(t.value)) {
        throw new ParseFailure(`Unterminated dictionary: "${t.value}" at offset ${t.start}.`);
      }
      if (t.kind !== TK.Name) {
        // Not a key: skip it (a whole object if it is one, so nesting stays in step).
        if (t.kind === TK.Keyword || t.kind === TK.ArrayClose || t.kind === TK.BraceOpen || t.kind === TK.BraceClose)
          this.shift();
        else this.getObject(depth);
        continue;
      }
      this.shift();
      const key = t.value.name;
      const v = this.peek(0);
      if (v.kind === TK.DictClose) continue; // key without value
      if (v.kind === TK.Keyword && v.value !== "true" && v.value !== "false" && v.value !== "null") {
        if (STRUCTURAL.has(v.value))
          throw new ParseFailure(`Unterminated dictionary: "${v.value}" at offset ${v.start}.`);
        this.shift(); // junk value: the key is dropped
        continue;
      }
      const value = this.getObject(depth);
      if (!map.has(key) && map.size >= max) {
        throw new PdfBudgetExceeded(`A dictionary of the PDF has more than ${max} entries (limit maxCollectionSize).`);
      }
      map.set(key, value);
    }
  }

  /**
   * Parses `num gen obj ... endobj` at the current position. A dictionary followed
   * by `stream` becomes a `PdfStream` whose data range is found from `/Length`
   * (direct or indirect) or, when that is wrong or missing, from `endstream`.
   */
  indirectObject(expectNum?: number): IndirectObject {
    const start = this.position();
    let streamBytes = 0;
    let ok = false;
    try {
      const a = this.shift();
      const b = this.shift();
      const c = this.shift();
      if (
        a.kind !== TK.Int ||
        b.kind !== TK.Int ||
        c.kind !== TK.Keyword ||
        c.value !== "obj" ||
        a.value < 0 ||
        b.value < 0
      ) {
        throw new ParseFailure(`No "N G obj" object header at offset ${a.start}.`);
      }
      if (expectNum !== undefined && a.value !== expectNum) {
        throw new ParseFailure(`Expected object ${expectNum} at offset ${a.start}, found object ${a.value}.`);
      }
      this.objNum = a.value;
      this.objGen = b.value;
      let value = this.getObject(0);
      const next = this.peek(0);
      if (
        value instanceof PdfDict &&
        next.kind === TK.Keyword &&
        next.value === "stream" &&
        this.ctx.allowStreams !== false
      ) {
        value = this.streamBody(value, next.end);
        streamBytes = value.dataEnd - value.dataStart;
      }
      const after = this.peek(0);
      let end = after.start;
      if (after.kind === TK.Keyword && after.value === "endobj") {
        this.shift();
        end = after.end;
      }
      const result: IndirectObject = { num: a.value, gen: b.value, value, end };
      ok = true;
      return result;
    } finally {
      // Work is proportional to the bytes parsed (stream data is located, not parsed), so
      // offsets pointing into the middle of one huge object cannot multiply the cost unnoticed;
      // a failed parse costs extra (thousands of them mean a hostile or hopeless file).
      const parsed = Math.max(0, this.position() - start - streamBytes);
      this.ctx.budget.tick(1 + Math.ceil(parsed / PARSE_BYTES_PER_UNIT) + (ok ? 0 : FAILED_PARSE_UNITS));
    }
  }

  private streamBody(dict: PdfDict, keywordEnd: number): PdfStream {
    const bytes = this.lexer.bytes;
    // Stream data is located, not lexed: it may extend past a lexer bounded to the object's syntax.
    const limit = bytes.length;
    let dataStart = keywordEnd;
    // "stream" is followed by CRLF or LF (a lone CR is tolerated; so are spaces before the EOL).
    let q = dataStart;
    while (q < limit && (bytes[q] === 0x20 || bytes[q] === 0x09)) q++;
    if (bytes[q] === 0x0d || bytes[q] === 0x0a) dataStart = q;
    if (bytes[dataStart] === 0x0d) dataStart++;
    if (bytes[dataStart] === 0x0a) dataStart++;

    let length: number | undefined;
    const raw = dict.get("Length");
    if (typeof raw === "number") length = raw;
    else if (raw instanceof PdfRef && this.ctx.resolveLength) length = this.ctx.resolveLength(raw);
    const lengthOk = length !== undefined && Number.isSafeInteger(length) && length >= 0 && dataStart + length <= limit;

    let dataEnd = -1;
    let resume = -1;
    if (lengthOk) {
      let p = dataStart + length!;
      const stop = Math.min(limit, p + 64);
      while (p < stop && isWhite(bytes[p])) p++;
      if (matchKeyword(bytes, p, "endstream", limit)) {
        dataEnd = dataStart + length!;
        resume = p + 9;
      }
    }
    if (dataEnd < 0) {
      const e = this.ctx.findEndstream ? this.ctx.findEndstream(dataStart) : -1;
      if (e >= 0 && e < limit) {
        dataEnd = e;
        // The EOL before "endstream" belongs to the syntax, not the data.
        if (dataEnd > dataStart && bytes[dataEnd - 1] === 0x0a) dataEnd--;
        if (dataEnd > dataStart && bytes[dataEnd - 1] === 0x0d) dataEnd--;
        resume = e + 9;
      } else if (lengthOk) {
        dataEnd = dataStart + length!;
        resume = dataEnd;
      } else {
        throw new ParseFailure(`A stream at offset ${dataStart} has neither a usable /Length nor "endstream".`);
      }
    }
    this.seek(resume);
    return new PdfStream(dict, dataStart, dataEnd);
  }
}
