import { PdfUnparseable } from "../../errors";
import { PdfDict, PdfName, PdfStream, type PdfValue } from "../model";
import { Budget, PdfBudgetExceeded } from "./budget";
import { decodeFilters, filterSteps } from "./filters";
import { isDigit, isRegular, Lexer, TK } from "./lexer";
import { matchKeyword, Parser, type ParseContext } from "./parser";
import {
  asciiBytes,
  atTokenStart,
  findAll,
  indexOfBytes,
  lastIndexOfBytes,
  nextAtOrAfter,
  objHeaderStart,
} from "./search";

/**
 * Layer 3 of the reader: cross-reference sections (§7.5.4, §7.5.8), the
 * `/Prev` chain, and the recovery scan used when they are unusable. Offsets
 * stored in entries are absolute file offsets (the file's offset base, for
 * files whose offsets count from a `%PDF-` header preceded by junk, is applied
 * here once).
 */

export interface XrefEntry {
  type: "free" | "inuse" | "compressed";
  /** Absolute byte offset (in use), or the object-stream number (compressed), or next free (free). */
  offset: number;
  /** Generation (in use, free), or index within the object stream (compressed). */
  gen: number;
}

export interface Section {
  /** Absolute offset of `xref` or of the xref stream object. */
  offset: number;
  kind: "table" | "stream" | "hybrid";
  trailer: PdfDict;
  entries: Map<number, XrefEntry>;
  /** Offset just past the trailer dictionary (tables) or the xref stream object. */
  end: number;
  /** A hybrid section whose /XRefStm could not be read. */
  damaged?: boolean;
}

export interface Chain {
  /** Newest first, as found by following `/Prev`. */
  sections: Section[];
  /** Offset base applied to every offset written in the file (0, or the header offset). */
  base: number;
  /** Something had to be repaired: startxref/Prev found nearby, a broken or cyclic /Prev, a bad /XRefStm. */
  damaged: boolean;
}

export interface ScannedObject {
  num: number;
  gen: number;
  offset: number;
}

export interface Scan {
  /** Every parseable `N G obj` in file order (stream data skipped). */
  objects: ScannedObject[];
  /** Trailer dictionaries (`trailer` keyword or xref stream dicts) in file order. */
  trailers: { offset: number; dict: PdfDict; stream: boolean }[];
  /** Object numbers of dictionaries with `/Type /Catalog`, in file order. */
  catalogs: number[];
  /** Object streams found (number and offset), in file order. */
  objStms: ScannedObject[];
}

const KW_XREF = asciiBytes("xref");
const KW_OBJ = asciiBytes("obj");
const KW_STARTXREF = asciiBytes("startxref");
const KW_TRAILER = asciiBytes("trailer");
const KW_ENDSTREAM = asciiBytes("endstream");
const KW_ENDOBJ = asciiBytes("endobj");
const KW_STREAM = asciiBytes("stream");
const KW_TYPE = asciiBytes("/Type");
const KW_EOF = asciiBytes("%%EOF");

/** How far around a wrong startxref or /Prev offset we look for the section. */
const NEARBY = 1024;

export class XrefReader {
  private endstreams: number[] | null = null;
  private eofs: number[] | null = null;
  /** Entries declared over all sections read (bounded by maxObjects). */
  private declared = 0;

  constructor(
    readonly bytes: Uint8Array,
    readonly budget: Budget,
    readonly headerOffset: number,
  ) {}

  /** Offset of the next `endstream` keyword at or after `from`, or -1 (indexed once, lazily). */
  readonly findEndstream = (from: number): number => {
    this.endstreams ??= findAll(this.bytes, KW_ENDSTREAM);
    return nextAtOrAfter(this.endstreams, from);
  };

  /** End of the first `%%EOF` (and its end-of-line) at or after `from`; the file length when there is none. */
  eofAfter(from: number): number {
    const b = this.bytes;
    // The marker normally follows the trailer closely: look there before indexing the file.
    let at = indexOfBytes(b, KW_EOF, from, Math.min(b.length, from + 4096));
    if (at < 0) {
      this.eofs ??= findAll(b, KW_EOF);
      at = nextAtOrAfter(this.eofs, from);
    }
    if (at < 0) return b.length;
    let end = at + 5;
    if (b[end] === 0x0d) end++;
    if (b[end] === 0x0a) end++;
    return end;
  }

  /** End of the last `%%EOF` of the file (with its EOL), or the file length. */
  lastEof(): number {
    const at = lastIndexOfBytes(this.bytes, KW_EOF);
    return at < 0 ? this.bytes.length : this.eofAfter(at);
  }

  parseContext(): ParseContext {
    return { budget: this.budget, findEndstream: this.findEndstream, allowStreams: true };
  }

  /** The value written after the last `startxref`, and where that keyword is. */
  findStartxref(): { value: number; at: number } | null {
    const b = this.bytes;
    let before = b.length;
    for (let tries = 0; tries < 4; tries++) {
      const at = lastIndexOfBytes(b, KW_STARTXREF, before);
      if (at < 0) return null;
      const lexer = new Lexer(b, at + 9);
      const t = lexer.next();
      if (t.kind === TK.Int && t.value >= 0) return { value: t.value, at };
      before = at; // "startxref" without a number: try the one before
    }
    return null;
  }

  /** Follows startxref and /Prev. Null when not even the newest section can be read. */
  readChain(startxref: number): Chain | null {
    const first = this.locateFirst(startxref);
    if (!first) return null;
    const { base } = first;
    let damaged = first.nearby;
    const sections: Section[] = [first.section];
    const visited = new Set<number>([first.section.offset]);
    const maxRevisions = this.budget.limits.maxRevisions;
    let current = first.section;
    for (;;) {
      const prev = current.trailer.get("Prev");
      if (prev === undefined || prev === null) break;
      if (typeof prev !== "number" || !Number.isSafeInteger(prev) || prev < 0) {
        damaged = true;
        break;
      }
      const target = prev + base;
      if (visited.has(target)) {
        damaged = true; // a /Prev cycle: every section of it is read already
        break;
      }
      if (sections.length >= maxRevisions) {
        throw new PdfBudgetExceeded(
          `The PDF has more than ${maxRevisions} cross-reference sections (limit maxRevisions).`,
        );
      }
      const found = this.locate(target);
      if (!found) {
        damaged = true;
        break;
      }
      if (visited.has(found.section.offset)) {
        damaged = true;
        break;
      }
      damaged ||= found.nearby;
      visited.add(found.section.offset);
      sections.push(found.section);
      current = found.section;
    }
    if (sections.some((s) => s.damaged)) damaged = true;
    return { sections, base, damaged };
  }

  /** The newest section: tries absolute offsets, then offsets relative to the header, then nearby. */
  private locateFirst(startxref: number): { section: Section; base: number; nearby: boolean } | null {
    const bases = this.headerOffset > 0 ? [0, this.headerOffset] : [0];
    const b = this.bytes;
    // A base under which startxref lands exactly on "xref" or an object header wins over one
    // that only works after skipping white-space (linearized files pad with spaces).
    for (const base of bases) {
      const p = startxref + base;
      if (!matchKeyword(b, p, "xref") && !(isDigit(b[p]) && atTokenStart(b, p))) continue;
      this.base = base;
      const s = this.readSectionAt(p);
      if (s && s.offset === p) return { section: s, base, nearby: false };
    }
    for (const base of bases) {
      this.base = base;
      const s = this.readSectionAt(startxref + base);
      if (s) return { section: s, base, nearby: false };
    }
    for (const base of bases) {
      this.base = base;
      const found = this.searchNearby(startxref + base);
      if (found) return { section: found, base, nearby: true };
    }
    return null;
  }

  /** The base used for offsets read from sections (set by locateFirst). */
  base = 0;

  private locate(target: number): { section: Section; nearby: boolean } | null {
    const s = this.readSectionAt(target);
    if (s) return { section: s, nearby: false };
    const n = this.searchNearby(target);
    return n ? { section: n, nearby: true } : null;
  }

  private searchNearby(target: number): Section | null {
    const b = this.bytes;
    const from = Math.max(0, target - NEARBY);
    const to = Math.min(b.length, target + NEARBY);
    const candidates: number[] = [];
    for (const p of findAll(b, KW_XREF, from, to)) if (atTokenStart(b, p)) candidates.push(p);
    for (const p of findAll(b, KW_OBJ, from, to)) {
      const s = objHeaderStart(b, p);
      if (s >= 0) candidates.push(s);
    }
    candidates.sort((x, y) => Math.abs(x - target) - Math.abs(y - target));
    for (const c of candidates.slice(0, 16)) {
      const s = this.readSectionAt(c);
      if (s) return s;
    }
    return null;
  }

  /**
   * Where the cross-reference table closed by the `trailer` keyword at `trailer` begins (the
   * nearest `xref` keyword before it that reads as a table), or -1. The recovery scan finds
   * trailers; an incremental update's /Prev must point at their table, not at the keyword.
   */
  tableBefore(trailer: number): number {
    const b = this.bytes;
    let p = lastIndexOfBytes(b, KW_XREF, trailer - 1);
    while (p > 0 && !atTokenStart(b, p)) p = lastIndexOfBytes(b, KW_XREF, p - 1); // "startxref" ends in "xref"
    if (p < 0) return -1;
    const s = this.readSectionAt(p);
    return s && s.offset === p && s.kind !== "stream" ? p : -1;
  }

  /** Reads the section at `pos` (after white-space); null when there is none there. Budget errors propagate. */
  readSectionAt(pos: number): Section | null {
    if (pos < 0 || pos >= this.bytes.length) return null;
    const lexer = new Lexer(this.bytes, pos);
    lexer.skipSpace();
    const p = lexer.pos;
    try {
      if (matchKeyword(this.bytes, p, "xref")) return this.readTable(p);
      return this.readStream(p);
    } catch (e) {
      if (e instanceof PdfBudgetExceeded || !(e instanceof PdfUnparseable)) throw e;
      return null;
    }
  }

  private count(n: number): void {
    this.declared += n;
    const max = this.budget.limits.maxObjects;
    if (this.declared > max) {
      throw new PdfBudgetExceeded(
        `The cross-reference sections of the PDF declare more than ${max} objects (limit maxObjects).`,
      );
    }
  }

  /** A classic table (§7.5.4), read token by token so misaligned rows still parse. */
  private readTable(start: number): Section {
    const b = this.bytes;
    const lexer = new Lexer(b, start + 4);
    const entries = new Map<number, XrefEntry>();
    const maxObjects = this.budget.limits.maxObjects;
    for (;;) {
      lexer.skipSpace();
      if (matchKeyword(b, lexer.pos, "trailer")) break;
      const h1 = lexer.next();
      const h2 = lexer.next();
      if (h1.kind !== TK.Int || h2.kind !== TK.Int || h1.value < 0 || h2.value < 0) {
        throw new PdfUnparseable(`Bad cross-reference subsection header at offset ${h1.start}.`);
      }
      let first = h1.value;
      const count = h2.value;
      if (first + count > maxObjects) {
        throw new PdfBudgetExceeded(
          `A cross-reference subsection declares objects beyond ${maxObjects} (limit maxObjects).`,
        );
      }
      let read = 0;
      for (let i = 0; i < count; i++) {
        if (!this.tableRow(lexer)) break; // damaged or short subsection: keep the rows read so far
        const offset = this.rowOffset;
        const gen = this.rowGen;
        // A common writer bug: the table starts at 1 but its first row is object 0's free-list head.
        if (i === 0 && first === 1 && !this.rowInUse && offset === 0 && gen === 65535) first = 0;
        read++;
        const num = first + i;
        if (entries.has(num)) continue; // first definition within a section wins
        if (this.rowInUse && offset > 0) entries.set(num, { type: "inuse", offset: offset + this.base, gen });
        else entries.set(num, { type: "free", offset, gen });
      }
      this.count(read);
      if (read < count) {
        lexer.skipSpace();
        if (!matchKeyword(b, lexer.pos, "trailer") && !this.isSubsectionHeader(lexer)) {
          throw new PdfUnparseable(`Damaged cross-reference table at offset ${lexer.pos}.`);
        }
      }
    }
    const parser = new Parser(new Lexer(b, lexer.pos + 7), this.parseContext());
    const trailer = parser.getObject();
    if (!(trailer instanceof PdfDict))
      throw new PdfUnparseable(`The trailer at offset ${lexer.pos} is not a dictionary.`);
    const end = parser.position();
    let kind: Section["kind"] = "table";
    let damaged = false;
    const stm = trailer.get("XRefStm");
    if (typeof stm === "number" && Number.isSafeInteger(stm) && stm >= 0) {
      // Hybrid file (§7.5.8.4): the stream's entries fill the table's gaps (objects the table lists as free or omits).
      kind = "hybrid";
      damaged = true;
      try {
        const s = this.readStream(stm + this.base);
        for (const [num, e] of s.entries) {
          const t = entries.get(num);
          if (!t || t.type === "free") entries.set(num, e);
        }
        damaged = false;
      } catch (e) {
        if (e instanceof PdfBudgetExceeded || !(e instanceof PdfUnparseable)) throw e;
      }
    }
    return { offset: start, kind, trailer, entries, end, damaged };
  }

  private isSubsectionHeader(lexer: Lexer): boolean {
    const save = lexer.pos;
    const a = lexer.next();
    const c = lexer.next();
    const d = lexer.next();
    lexer.pos = save;
    // "first count" followed by a row's first number, not by a row's n/f keyword
    return (
      a.kind === TK.Int && c.kind === TK.Int && (d.kind === TK.Int || (d.kind === TK.Keyword && d.value === "trailer"))
    );
  }

  /** Fields of the last row read by `tableRow` (kept in fields to avoid an allocation per row). */
  private rowOffset = 0;
  private rowGen = 0;
  private rowInUse = false;

  /** Reads one "offset gen n|f" row; false (position unchanged) when there is none. */
  private tableRow(lexer: Lexer): boolean {
    const b = this.bytes;
    lexer.skipSpace();
    const p = lexer.pos;
    // Fast path: the canonical "oooooooooo ggggg n" row.
    if (p + 18 <= b.length && b[p + 10] === 0x20 && b[p + 16] === 0x20) {
      const t = b[p + 17];
      let ok = (t === 0x6e || t === 0x66) && (p + 18 === b.length || !isRegular(b[p + 18]));
      let off = 0;
      for (let i = p; ok && i < p + 10; i++) {
        const d = b[i]! - 0x30;
        if (d < 0 || d > 9) ok = false;
        else off = off * 10 + d;
      }
      let gen = 0;
      for (let i = p + 11; ok && i < p + 16; i++) {
        const d = b[i]! - 0x30;
        if (d < 0 || d > 9) ok = false;
        else gen = gen * 10 + d;
      }
      if (ok) {
        lexer.pos = p + 18;
        this.rowOffset = off;
        this.rowGen = gen;
        this.rowInUse = t === 0x6e;
        return true;
      }
    }
    // Tolerant path: "offset gen n|f" with any spacing or digit counts.
    const o = lexer.next();
    const g = o.kind === TK.Int && o.value >= 0 ? lexer.next() : null;
    const t = g && g.kind === TK.Int && g.value >= 0 ? lexer.next() : null;
    if (!t || t.kind !== TK.Keyword || (t.value !== "n" && t.value !== "f")) {
      lexer.pos = p;
      return false;
    }
    this.rowOffset = o.value as number;
    this.rowGen = g!.value as number;
    this.rowInUse = t.value === "n";
    return true;
  }

  private readonly streamSections = new Map<number, Section>();

  /** An xref stream (§7.5.8); cached by offset (hybrid sections of several revisions often share one). */
  private readStream(start: number): Section {
    const cached = this.streamSections.get(start);
    if (cached) return cached;
    const section = this.readStreamUncached(start);
    this.streamSections.set(start, section);
    return section;
  }

  private readStreamUncached(start: number): Section {
    const parser = new Parser(new Lexer(this.bytes, start), this.parseContext());
    const obj = parser.indirectObject();
    const stream = obj.value;
    if (!(stream instanceof PdfStream)) throw new PdfUnparseable(`No cross-reference stream at offset ${start}.`);
    const dict = stream.dict;
    const type = dict.get("Type");
    if (!(type instanceof PdfName && type.name === "XRef") && !dict.has("W")) {
      throw new PdfUnparseable(`The object at offset ${start} is not a cross-reference stream.`);
    }
    const w = dict.get("W");
    if (
      !Array.isArray(w) ||
      w.length < 3 ||
      !w.every((x) => typeof x === "number" && Number.isInteger(x) && x >= 0 && x <= 8)
    ) {
      throw new PdfUnparseable(`The cross-reference stream at offset ${start} has an invalid /W.`);
    }
    const [w0, w1, w2] = w as number[];
    const rowLen = w0! + w1! + w2!;
    if (rowLen === 0) throw new PdfUnparseable(`The cross-reference stream at offset ${start} has an empty /W.`);
    const size = dict.get("Size");
    if (typeof size !== "number" || !Number.isInteger(size) || size < 0) {
      throw new PdfUnparseable(`The cross-reference stream at offset ${start} has no valid /Size.`);
    }
    const maxObjects = this.budget.limits.maxObjects;
    let index = dict.get("Index");
    if (index === undefined || index === null) index = [0, size];
    if (
      !Array.isArray(index) ||
      index.length % 2 !== 0 ||
      !index.every((x) => typeof x === "number" && Number.isInteger(x) && x >= 0)
    ) {
      throw new PdfUnparseable(`The cross-reference stream at offset ${start} has an invalid /Index.`);
    }
    const data = decodeFilters(
      this.bytes.subarray(stream.dataStart, stream.dataEnd),
      filterSteps(dict.get("Filter"), dict.get("DecodeParms")),
      this.budget,
    );
    const entries = new Map<number, XrefEntry>();
    let p = 0;
    let read = 0;
    outer: for (let k = 0; k < index.length; k += 2) {
      const first = index[k] as number;
      const count = index[k + 1] as number;
      if (first + count > maxObjects) {
        throw new PdfBudgetExceeded(
          `A cross-reference stream declares objects beyond ${maxObjects} (limit maxObjects).`,
        );
      }
      for (let i = 0; i < count; i++) {
        if (p + rowLen > data.length) break outer; // short data: keep what is there
        const t = w0 ? field(data, p, w0) : 1;
        const f2 = field(data, p + w0!, w1!);
        const f3 = field(data, p + w0! + w1!, w2!);
        p += rowLen;
        read++;
        const num = first + i;
        if (entries.has(num)) continue;
        if (t === 0) entries.set(num, { type: "free", offset: f2, gen: f3 });
        else if (t === 1)
          entries.set(
            num,
            f2 > 0 ? { type: "inuse", offset: f2 + this.base, gen: f3 } : { type: "free", offset: 0, gen: f3 },
          );
        else if (t === 2) entries.set(num, { type: "compressed", offset: f2, gen: f3 });
        // other types are reserved: such entries are null references
      }
    }
    this.count(read);
    return { offset: start, kind: "stream", trailer: dict, entries, end: obj.end };
  }

  /**
   * Recovery scan: every `N G obj` (skipping stream data), every `trailer`
   * dictionary and xref stream dictionary, catalogs and object streams.
   */
  scan(): Scan {
    const b = this.bytes;
    const objects: ScannedObject[] = [];
    const trailers: Scan["trailers"] = [];
    const catalogs: number[] = [];
    const objStms: ScannedObject[] = [];
    const objectRanges: [number, number][] = [];
    const ctx = this.parseContext();
    const headers: number[] = [];
    for (const objPos of findAll(b, KW_OBJ)) {
      const s = objHeaderStart(b, objPos);
      if (s >= 0 && (headers.length === 0 || s > headers[headers.length - 1]!)) headers.push(s);
    }
    const endobjs = findAll(b, KW_ENDOBJ).filter((p) => atTokenStart(b, p));
    let skipUntil = 0;
    for (let k = 0; k < headers.length; k++) {
      const start = headers[k]!;
      if (start < skipUntil) continue;
      // Each candidate is parsed only up to its textual end (its "endobj", or the next header
      // when "endobj" is missing), so the scan stays linear whatever the file hides in strings.
      const nextHeader = headers[k + 1] ?? b.length;
      const e = nextAtOrAfter(endobjs, start);
      const textEnd = e >= 0 && e + 6 <= nextHeader ? e + 6 : nextHeader;
      if (indexOfBytes(b, KW_STREAM, start, textEnd) < 0 && indexOfBytes(b, KW_TYPE, start, textEnd) < 0) {
        // Neither a stream nor typed: recorded without parsing (it is parsed if someone asks for it).
        const head = new Lexer(b, start, textEnd);
        const n = head.next();
        const g = head.next();
        if (n.kind === TK.Int && g.kind === TK.Int) {
          objects.push({ num: n.value, gen: g.value, offset: start });
          objectRanges.push([start, textEnd]);
        }
        skipUntil = textEnd;
        continue;
      }
      const parser = new Parser(new Lexer(b, start, textEnd), ctx);
      let obj;
      try {
        obj = parser.indirectObject();
      } catch (e) {
        if (e instanceof PdfBudgetExceeded || !(e instanceof PdfUnparseable)) throw e;
        skipUntil = textEnd;
        continue;
      }
      const v = obj.value;
      // Objects do not nest: "N G obj" inside this one (in a string, in stream data) is not an object.
      const end = v instanceof PdfStream ? Math.max(obj.end, v.dataEnd) : Math.max(obj.end, textEnd);
      skipUntil = end;
      objectRanges.push([start, end]);
      const entry = { num: obj.num, gen: obj.gen, offset: start };
      objects.push(entry);
      const dict = v instanceof PdfStream ? v.dict : v instanceof PdfDict ? v : null;
      const type = dict?.get("Type");
      const typeName = type instanceof PdfName ? type.name : "";
      if (v instanceof PdfStream) {
        if (typeName === "ObjStm") objStms.push(entry);
        if (typeName === "XRef") trailers.push({ offset: start, dict: v.dict, stream: true });
      } else if (typeName === "Catalog") catalogs.push(obj.num);
    }
    const trailerPositions = findAll(b, KW_TRAILER).filter((t) => atTokenStart(b, t) && !insideRange(objectRanges, t));
    trailerPositions.forEach((t, i) => {
      // bounded by the next "trailer": nested fake trailers cannot make this quadratic
      const parser = new Parser(new Lexer(b, t + 7, trailerPositions[i + 1] ?? b.length), ctx);
      try {
        const d = parser.getObject();
        if (d instanceof PdfDict) trailers.push({ offset: t, dict: d, stream: false });
      } catch (e) {
        if (e instanceof PdfBudgetExceeded || !(e instanceof PdfUnparseable)) throw e;
      }
    });
    trailers.sort((x, y) => x.offset - y.offset);
    return { objects, trailers, catalogs, objStms };
  }
}

function field(data: Uint8Array, p: number, width: number): number {
  let v = 0;
  for (let i = 0; i < width; i++) v = v * 256 + data[p + i]!;
  return v;
}

function insideRange(ranges: readonly [number, number][], p: number): boolean {
  // ranges are ascending and disjoint
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = ranges[mid]!;
    if (p < r[0]) hi = mid - 1;
    else if (p >= r[1]) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Keys of xref-stream dictionaries and of the chain that are not part of the document trailer. */
export const NON_TRAILER_KEYS = [
  "Prev",
  "XRefStm",
  "Type",
  "W",
  "Index",
  "Length",
  "Filter",
  "DecodeParms",
  "DL",
  "F",
  "FFilter",
  "FDecodeParms",
];

export function mergedTrailer(dicts: readonly PdfDict[]): PdfDict {
  const map = new Map<string, PdfValue>();
  for (const d of dicts) for (const [k, v] of d.map) map.set(k, v);
  for (const k of NON_TRAILER_KEYS) map.delete(k);
  return new PdfDict(map);
}
