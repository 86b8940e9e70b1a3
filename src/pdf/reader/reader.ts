import { PdfEncrypted, PdfUnparseable } from "../../errors";
import { PdfDict, PdfName, PdfRef, PdfStream, type PdfValue } from "../model";
import { Budget, PdfBudgetExceeded, type PdfLimits } from "./budget";
import { createSecurityHandler, type SecurityHandler } from "./crypt";
import { decodeFilters, filterSteps } from "./filters";
import { isRegular, Lexer, TK } from "./lexer";
import { Parser, type IndirectObject, type ParseContext } from "./parser";
import { asciiBytes, atTokenStart, findAll, indexOfBytes, objHeaderStart, RangeSet } from "./search";
import { mergedTrailer, XrefReader, type Chain, type Scan, type Section, type XrefEntry } from "./xref";

export type { XrefEntry } from "./xref";

/**
 * Layer 4 of the reader: the document. Opening reads the header, the
 * cross-reference chain and the trailers eagerly (cheap: no object is parsed
 * beyond the catalog); objects are parsed on first access and cached, object
 * streams are decoded once. When the cross-reference data is unusable the file
 * is reconstructed from a scan for `N G obj` and trailers (`recovered`).
 */

export interface Revision {
  /** 1-based, oldest first (the original file is revision 1). */
  number: number;
  /** Absolute offset where this section's xref table/stream starts (-1 for a recovered file without one). */
  xrefOffset: number;
  xrefKind: "table" | "stream" | "hybrid";
  /** This section's trailer dict (for streams: the xref stream dict). */
  trailer: PdfDict;
  /** Entries declared in this section only (offsets absolute). */
  entries: Map<number, XrefEntry>;
  /** Offset just past this revision's `%%EOF` and its end-of-line: where the next revision's bytes start. */
  endOffset: number;
}

export interface PdfReaderOptions {
  /** Lower (or raise) some of the `LIMITS.pdf` budgets for this reader. */
  limits?: Partial<PdfLimits>;
}

interface ObjStm {
  data: Uint8Array;
  nums: number[];
  starts: number[];
  ends: number[];
  values: Map<number, PdfValue>;
}

interface Found {
  entry: XrefEntry;
  /** 0-based index of the revision whose section declared the entry. */
  revIndex: number;
}

const KW_HEADER = asciiBytes("%PDF-");
const KW_OBJ = asciiBytes("obj");
const KW_XREF = asciiBytes("xref");
const KW_TRAILER = asciiBytes("trailer");
const KW_STARTXREF = asciiBytes("startxref");
/** Files with more revisions than this index which revisions declare each object (see `lookup`). */
const INDEX_REVISIONS = 16;
/** Reference chains (`1 0 obj 2 0 R endobj` ...) longer than this are treated as broken. */
const MAX_REF_CHAIN = 32;
/** Parsed objects larger than this are remembered as ranges no other object may start in. */
const LARGE_OBJECT_BYTES = 4096;
/** Longest "N G " before an "obj" keyword (10-digit number, 5-digit generation, white-space). */
const MAX_HEADER_BYTES = 40;

export class PdfReader {
  readonly bytes: Uint8Array;
  /** Where `%PDF-` starts (within the first 1024 bytes). */
  readonly headerOffset: number;
  /** Version written in the header, e.g. "1.7". */
  readonly headerVersion: string;
  /** Oldest first. */
  get revisions(): Revision[] {
    return this.revs;
  }
  /** Newest trailer as readers use it: all sections' trailers merged, newer keys winning (no /Prev, /XRefStm or stream keys). */
  readonly trailer: PdfDict;
  /** Value of the last `startxref` as written in the file (-1 when there is none). */
  readonly startxref: number;
  /** max(/Size of all sections, highest object number + 1). */
  readonly size: number;
  /** The trailer has /Encrypt. */
  readonly encrypted: boolean;
  /** The newest section is an xref stream (an incremental writer should match it). */
  readonly usesXrefStreams: boolean;
  /**
   * What offsets written in this file are relative to: 0, or `headerOffset` for
   * files whose offsets count from the header (junk before `%PDF-`).
   */
  readonly offsetBase: number;

  private revs: Revision[] = [];
  /** Per object number, the 0-based indexes of the revisions declaring it, ascending (see `lookup`). */
  private declaredIn: Map<number, number | number[]> | null = null;
  private readonly budget: Budget;
  private readonly xref: XrefReader;
  private security: SecurityHandler | null = null;
  private encryptNum = -1;
  private revisionTrailers: PdfDict[] = [];
  private readonly cache = new Map<XrefEntry, PdfValue>();
  private readonly parsedAt = new Map<string, IndirectObject | null>();
  private readonly largeObjects = new RangeSet();
  private readonly objStms = new Map<XrefEntry, ObjStm | null>();
  private readonly loading = new Set<XrefEntry>();
  private readonly streamOwners = new WeakMap<PdfStream, { num: number; gen: number }>();
  private readonly decoded = new WeakMap<PdfStream, Uint8Array>();
  private readonly pageCache = new Map<number, { ref: PdfRef; dict: PdfDict }[]>();
  /** Whether missing objects may be looked up in the recovery scan (damaged chain). */
  private chainDamaged = false;
  private scanned: Map<number, number[]> | null = null;
  private _recovered = false;

  /** True when the xref had to be reconstructed or repaired (can become true lazily when an entry proves wrong). */
  get recovered(): boolean {
    return this._recovered;
  }

  static open(bytes: Uint8Array, options?: PdfReaderOptions): PdfReader {
    return new PdfReader(bytes, new Budget(options?.limits));
  }

  private constructor(bytes: Uint8Array, budget: Budget) {
    this.bytes = bytes;
    this.budget = budget;
    const header = indexOfBytes(bytes, KW_HEADER, 0, Math.min(bytes.length, 1024 + KW_HEADER.length));
    if (header < 0) throw new PdfUnparseable("Not a PDF: no %PDF- header in the first 1024 bytes.");
    this.headerOffset = header;
    let v = "";
    for (let p = header + 5; p < bytes.length && v.length < 8; p++) {
      const c = bytes[p]!;
      if ((c >= 0x30 && c <= 0x39) || c === 0x2e) v += String.fromCharCode(c);
      else break;
    }
    this.headerVersion = v;
    this.xref = new XrefReader(bytes, budget, header);

    const sx = this.xref.findStartxref();
    this.startxref = sx ? sx.value : -1;
    let chain: Chain | null = null;
    if (sx) chain = this.xref.readChain(sx.value);

    let revisions: Revision[] | null = null;
    let trailers: PdfDict[] = [];
    if (chain) {
      revisions = this.buildRevisions(chain.sections);
      trailers = revisionTrailers(revisions);
      if (!hasRoot(trailers[trailers.length - 1]!)) revisions = null;
    }
    this.offsetBase = chain && revisions ? chain.base : 0;
    this.setRevisions(revisions ?? []);
    this.revisionTrailers = trailers;
    this.chainDamaged = chain?.damaged ?? false;
    this._recovered = this.chainDamaged;
    this.trailer = trailers[trailers.length - 1] ?? new PdfDict();
    this.encrypted = isEncrypted(this.trailer);
    this.security = this.encrypted ? this.securityHandler() : null;

    // A usable chain must lead to a catalog; otherwise rebuild from a scan (as viewers do).
    // (Encrypted files are only checked once a security handler can read them.)
    const canRead = () => !this.encrypted || this.security !== null;
    if (revisions && canRead() && !this.catalogReadable()) revisions = null;
    if (!revisions) {
      const rec = this.recover();
      this.setRevisions([rec]);
      this.revisionTrailers = [mergedTrailer([rec.trailer])];
      this.trailer = this.revisionTrailers[0]!;
      this.encrypted = isEncrypted(this.trailer);
      this.security = this.encrypted ? this.securityHandler() : null;
      this._recovered = true;
      if (!hasRoot(this.trailer) || (canRead() && !this.catalogReadable())) {
        throw new PdfUnparseable(
          "The PDF has no usable document catalog (/Root), even after reconstructing its cross-reference table.",
        );
      }
    }

    let size = 0;
    for (const r of this.revisions) {
      const s = r.trailer.get("Size");
      if (typeof s === "number" && Number.isSafeInteger(s) && s > size) size = s;
      for (const num of r.entries.keys()) if (num + 1 > size) size = num + 1;
    }
    // A damaged chain still reads the objects it lost from a scan; an incremental writer must
    // not hand their numbers to new objects (it would overwrite, say, the catalog).
    if (this.chainDamaged) {
      this.scanned ??= scanIndex(this.xref.scan());
      for (const num of this.scanned.keys()) if (Number.isSafeInteger(num) && num + 1 > size) size = num + 1;
    }
    this.size = size;
    this.usesXrefStreams = this.revisions[this.revisions.length - 1]!.xrefKind === "stream";
  }

  // ------------------------------------------------------------------ revisions

  private buildRevisions(newestFirst: Section[]): Revision[] {
    const out: Revision[] = [];
    const linearized = newestFirst.length > 1 && this.isLinearized();
    for (let i = newestFirst.length - 1; i >= 0; i--) {
      const s = newestFirst[i]!;
      const endOffset = this.xref.eofAfter(s.end);
      const first = out[0];
      if (linearized && out.length === 1 && first && s.offset < first.xrefOffset && endOffset <= first.endOffset) {
        // A linearized file's first-page section (read before the main one, which it precedes
        // in the file) is part of the original revision. Nothing else is merged: a section
        // hidden inside an earlier revision stays a revision of its own, for verifiers to see.
        const entries = new Map(first.entries);
        for (const [n, e] of s.entries) entries.set(n, e);
        out[0] = {
          number: 1,
          xrefOffset: s.offset,
          xrefKind: s.kind,
          trailer: new PdfDict(new Map([...first.trailer.map, ...s.trailer.map])),
          entries,
          endOffset: first.endOffset,
        };
        continue;
      }
      out.push({
        number: out.length + 1,
        xrefOffset: s.offset,
        xrefKind: s.kind,
        trailer: s.trailer,
        entries: s.entries,
        endOffset,
      });
    }
    return out;
  }

  /** Whether the first object of the file is a linearization dictionary (§F.2). */
  private isLinearized(): boolean {
    const lexer = new Lexer(this.bytes, this.headerOffset, Math.min(this.bytes.length, this.headerOffset + 4096));
    lexer.skipSpace(); // the header line and the binary comment are comments
    try {
      const obj = new Parser(lexer, { budget: this.budget, allowStreams: false }).indirectObject();
      return obj.value instanceof PdfDict && obj.value.has("Linearized");
    } catch (e) {
      if (e instanceof PdfBudgetExceeded || !(e instanceof PdfUnparseable)) throw e;
      return false;
    }
  }

  private catalogReadable(): boolean {
    try {
      return this.resolve(this.trailer.get("Root")) instanceof PdfDict;
    } catch (e) {
      if (e instanceof PdfBudgetExceeded || !(e instanceof PdfUnparseable)) throw e;
      return false;
    }
  }

  /** The decryption hook for an encrypted file (see crypt.ts); null while none can read it. */
  private securityHandler(): SecurityHandler | null {
    const enc = this.trailer.get("Encrypt");
    this.encryptNum = enc instanceof PdfRef ? enc.num : -1;
    let dict: PdfValue | undefined;
    try {
      dict = this.resolve(enc); // the /Encrypt dictionary itself is never encrypted
    } catch (e) {
      if (e instanceof PdfBudgetExceeded || !(e instanceof PdfUnparseable)) throw e;
    }
    return dict instanceof PdfDict ? createSecurityHandler(dict, this.trailer) : null;
  }

  /** Rebuilds one revision from a scan of the whole file. */
  private recover(): Revision {
    const scan = this.xref.scan();
    this.scanned = scanIndex(scan);
    const entries = new Map<number, XrefEntry>();
    const position = new Map<number, number>();
    for (const o of scan.objects) {
      entries.set(o.num, { type: "inuse", offset: o.offset, gen: o.gen });
      position.set(o.num, o.offset);
    }
    // Objects of object streams, unless a plain definition comes later in the file.
    const encrypted = scan.trailers.some((t) => isEncrypted(t.dict));
    if (!encrypted) {
      for (const stm of scan.objStms) {
        if (position.get(stm.num) !== stm.offset) continue; // superseded stream
        const header = this.objStmAt(entries.get(stm.num)!);
        if (!header) continue;
        header.nums.forEach((num, idx) => {
          const plain = position.get(num);
          if (plain !== undefined && plain > stm.offset) return;
          entries.set(num, { type: "compressed", offset: stm.num, gen: idx });
          position.set(num, stm.offset);
        });
      }
    }
    // The trailer: all trailers merged in file order; /Root from the newest one that leads to a catalog.
    const merged = mergedTrailer(scan.trailers.map((t) => t.dict));
    const probe: Revision = {
      number: 1,
      xrefOffset: -1,
      xrefKind: "table",
      trailer: merged,
      entries,
      endOffset: this.xref.lastEof(),
    };
    this.setRevisions([probe]);
    this.revisionTrailers = [merged];
    let root: PdfValue | undefined;
    for (let i = scan.trailers.length - 1; i >= 0 && root === undefined; i--) {
      const r = scan.trailers[i]!.dict.get("Root");
      if (r instanceof PdfRef && (encrypted || this.isCatalog(r))) root = r;
    }
    for (let i = scan.catalogs.length - 1; i >= 0 && root === undefined; i--) {
      const r = new PdfRef(scan.catalogs[i]!, 0);
      if (encrypted || this.isCatalog(r)) root = r;
    }
    const last = scan.trailers[scan.trailers.length - 1];
    return {
      number: 1,
      xrefOffset: !last ? -1 : last.stream ? last.offset : this.xref.tableBefore(last.offset),
      xrefKind: last?.stream ? "stream" : "table",
      trailer: root ? merged.with({ Root: root }) : merged,
      entries,
      endOffset: probe.endOffset,
    };
  }

  /** A catalog a reconstruction can rest on: its /Pages leads to a page tree node (a truncated file's lone catalog does not). */
  private isCatalog(ref: PdfRef): boolean {
    try {
      const d = this.getObject(ref);
      if (!(d instanceof PdfDict) || !(d.has("Pages") || isNameValue(d.get("Type"), "Catalog"))) return false;
      return this.resolve(d.get("Pages")) instanceof PdfDict;
    } catch (e) {
      if (e instanceof PdfBudgetExceeded || !(e instanceof PdfUnparseable)) throw e;
      return false;
    }
  }

  private rev(revision: number | undefined): number {
    const n = this.revisions.length;
    if (revision === undefined) return n;
    if (!Number.isInteger(revision) || revision < 1 || revision > n) {
      throw new RangeError(`Revision ${revision} does not exist (the PDF has ${n}).`);
    }
    return revision;
  }

  // ------------------------------------------------------------------ objects

  objectOffset(num: number, revision?: number): XrefEntry | undefined {
    return this.lookup(num, this.rev(revision))?.entry;
  }

  private setRevisions(revs: Revision[]): void {
    this.revs = revs;
    this.declaredIn = null;
  }

  /**
   * The entry for `num` of the newest section up to revision `rev` that declares it. Files with
   * many revisions get an index (revisions declaring each object), so a lookup costs O(log n)
   * instead of a walk back through every section: hundreds of incremental signatures must not
   * make each object access cost hundreds of map probes.
   */
  private lookup(num: number, rev: number): Found | undefined {
    if (this.revs.length <= INDEX_REVISIONS) {
      for (let i = rev - 1; i >= 0; i--) {
        const e = this.revs[i]!.entries.get(num);
        if (e) return { entry: e, revIndex: i };
      }
      return undefined;
    }
    const at = this.declaringRevisions().get(num);
    if (at === undefined) return undefined;
    let i = -1;
    if (typeof at === "number") i = at < rev ? at : -1;
    else {
      let lo = 0;
      let hi = at.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (at[mid]! < rev) {
          i = at[mid]!;
          lo = mid + 1;
        } else hi = mid - 1;
      }
    }
    return i < 0 ? undefined : { entry: this.revs[i]!.entries.get(num)!, revIndex: i };
  }

  private declaringRevisions(): Map<number, number | number[]> {
    if (this.declaredIn) return this.declaredIn;
    const index = new Map<number, number | number[]>();
    this.revs.forEach((r, i) => {
      this.budget.tick(Math.ceil(r.entries.size / 64));
      for (const num of r.entries.keys()) {
        const at = index.get(num);
        if (at === undefined) index.set(num, i);
        else if (typeof at === "number") index.set(num, [at, i]);
        else at.push(i);
      }
    });
    return (this.declaredIn = index);
  }

  /**
   * Whether the cross-reference entry of object `num` as of `revision` leads to that object:
   * a free entry does; an entry in use needs an `num gen obj` header at its offset; a
   * compressed one, an object stream that holds `num`. Reading falls back to a scan when an
   * entry is wrong (as viewers that repair do), but viewers differ in what they show then, so
   * the verifier must see such entries.
   */
  entryResolves(num: number, revision?: number): boolean {
    const found = this.lookup(num, this.rev(revision));
    if (!found || found.entry.type === "free") return true;
    const { entry, revIndex } = found;
    if (entry.type === "inuse") {
      if (this.parseAt(entry.offset, num)) return true;
      if (this.headerOffset === 0) return false;
      return (
        this.parseAt(
          this.offsetBase === 0 ? entry.offset + this.headerOffset : entry.offset - this.headerOffset,
          num,
        ) !== null
      );
    }
    const stm = this.lookup(entry.offset, revIndex + 1);
    if (!stm || stm.entry.type !== "inuse") return false;
    const os = this.objStmAt(stm.entry, entry.offset, revIndex + 1);
    return os !== null && (os.nums[entry.gen] === num || os.nums.includes(num));
  }

  /**
   * The `N G obj` headers (offset, object number) among the bytes revision `revision` added (from the end of the
   * revision before it to its own end) that its cross-reference section does not declare there:
   * objects written without an entry, which viewers that rebuild a damaged file show, and
   * readers of an intact chain do not. Headers inside a declared object (in a string, in stream
   * data) are not objects, nor are drafts of an object the section declares further on. At
   * most `max` offsets.
   */
  undeclaredObjects(revision: number, max = 16): { offset: number; num: number }[] {
    const k = this.rev(revision);
    const r = this.revs[k - 1]!;
    const from = k === 1 ? this.headerOffset : this.revs[k - 2]!.endOffset;
    const to = r.endOffset;
    const declared = new Set<number>();
    const spans: [number, number][] = [];
    const cover = (offset: number, num: number) => {
      declared.add(offset);
      const obj = this.parseAt(offset, num);
      if (obj) spans.push([offset, obj.value instanceof PdfStream ? Math.max(obj.end, obj.value.dataEnd) : obj.end]);
    };
    for (const [num, e] of r.entries) if (e.type === "inuse" && e.offset >= from && e.offset < to) cover(e.offset, num);
    // The section itself: an xref stream object, or a table's /XRefStm stream (hybrid files).
    const xrefStm = r.trailer.get("XRefStm");
    for (const at of [
      r.xrefKind === "stream" ? r.xrefOffset : -1,
      typeof xrefStm === "number" ? xrefStm + this.offsetBase : -1,
    ]) {
      if (at >= from && at < to) cover(at, numAt(this.bytes, at));
    }
    spans.sort((a, b) => a[0] - b[0]);
    const inside = (p: number) => {
      let lo = 0;
      let hi = spans.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (spans[mid]![0] <= p) lo = mid + 1;
        else hi = mid - 1;
      }
      // Spans do not nest; the one starting last before p is the only candidate (and its predecessors for overlaps).
      for (let i = hi; i >= 0 && i > hi - 4; i--) if (p >= spans[i]![0] && p < spans[i]![1]) return true;
      return false;
    };
    const out: { offset: number; num: number }[] = [];
    for (const objPos of findAll(this.bytes, KW_OBJ, from, to)) {
      this.budget.tick();
      const h = objHeaderStart(this.bytes, objPos);
      if (h < from || declared.has(h) || inside(h)) continue;
      // A draft superseded by a definition this section declares later in the file is what
      // a rebuilding viewer also ends up with (the last definition wins there too).
      const num = numAt(this.bytes, h);
      const e = r.entries.get(num);
      if (e?.type === "inuse" && e.offset > h) continue;
      out.push({ offset: h, num });
      if (out.length >= max) break;
    }
    return out;
  }

  /**
   * Where PDF structure (an object header, `xref`, `trailer` or `startxref`) starts after the
   * end of the newest revision, or -1. Viewers look for `startxref` near the end of a file;
   * finding objects there instead, they rebuild the file and show them, while the
   * cross-reference chain (what Signet reads, and what an incremental update continues) does not.
   */
  appendedStructure(): number {
    const from = this.revs[this.revs.length - 1]!.endOffset;
    const b = this.bytes;
    let first = -1;
    for (const kw of [KW_OBJ, KW_XREF, KW_TRAILER, KW_STARTXREF]) {
      for (const p of findAll(b, kw, from)) {
        const start =
          kw === KW_OBJ
            ? objHeaderStart(b, p)
            : atTokenStart(b, p) && (p + kw.length >= b.length || !isRegular(b[p + kw.length]))
              ? p
              : -1;
        if (start < from) continue;
        if (first < 0 || start < first) first = start;
        break;
      }
    }
    return first;
  }

  /** Counts work done on this reader's objects by its callers (the verifier) against its budget. */
  spend(units: number): void {
    this.budget.tick(units);
  }

  /** The object as seen in revision `revision` (default newest); null when free or missing. */
  getObject(ref: PdfRef | number, revision?: number): PdfValue {
    const num = typeof ref === "number" ? ref : ref.num;
    const rev = this.rev(revision);
    if (!Number.isSafeInteger(num) || num < 0 || this.revs.length === 0) return null;
    this.budget.tick();
    const found = this.lookup(num, rev);
    if (!found) {
      // A broken chain may have lost the section that declared it: fall back to the scan.
      if (this.chainDamaged) return this.fromScan(num, this.revisions[rev - 1]!.endOffset);
      return null;
    }
    const { entry } = found;
    if (entry.type === "free") return null;
    const cached = this.cache.get(entry);
    if (cached !== undefined) return cached;
    if (this.loading.has(entry)) throw new PdfUnparseable(`Object ${num} refers to itself while it is being read.`);
    this.loading.add(entry);
    let value: PdfValue;
    try {
      value =
        entry.type === "inuse"
          ? this.fetchUncompressed(num, entry, found.revIndex)
          : this.fetchCompressed(num, entry, found.revIndex);
    } finally {
      this.loading.delete(entry);
    }
    this.cache.set(entry, value);
    return value;
  }

  private fetchUncompressed(num: number, entry: XrefEntry, revIndex: number): PdfValue {
    let obj = this.parseAt(entry.offset, num);
    if (!obj && this.headerOffset > 0) {
      // Offsets written relative to the other base (a mixed-up writer)?
      const other = this.offsetBase === 0 ? entry.offset + this.headerOffset : entry.offset - this.headerOffset;
      obj = this.parseAt(other, num);
    }
    if (obj) return obj.value;
    // The entry is wrong: find the object by scanning (before this revision's end).
    this._recovered = true;
    return this.fromScan(num, this.revisions[revIndex]!.endOffset);
  }

  private fromScan(num: number, before: number): PdfValue {
    if (!this.scanned) {
      this._recovered = true;
      this.scanned = scanIndex(this.xref.scan());
    }
    const offsets = this.scanned.get(num);
    if (!offsets) return null;
    for (let i = offsets.length - 1; i >= 0; i--) {
      if (offsets[i]! >= before) continue;
      const obj = this.parseAt(offsets[i]!, num);
      if (obj) return obj.value;
    }
    return null;
  }

  /**
   * Parses the indirect object at `offset` if it is object `num`; null otherwise.
   * Generations are not compared: wrong ones are a common, harmless writer bug.
   * Cached by offset, so many entries pointing at one place cost one parse.
   */
  private parseAt(offset: number, num: number): IndirectObject | null {
    if (!Number.isSafeInteger(offset) || offset < 0 || offset >= this.bytes.length) return null;
    const key = `${offset} ${num}`;
    const cached = this.parsedAt.get(key);
    if (cached !== undefined) return cached;
    // Objects do not nest: an offset inside a large object parsed before is a fake header
    // (say, in a string); refusing it keeps hostile xrefs from re-parsing one object many times.
    if (this.largeObjects.covers(offset)) return null;
    this.budget.objectParsed();
    const parser = new Parser(new Lexer(this.bytes, offset), this.objectContext(num));
    let obj: IndirectObject | null;
    let stop: number;
    try {
      obj = parser.indirectObject(num);
      stop = obj.end;
    } catch (e) {
      if (e instanceof PdfBudgetExceeded || !(e instanceof PdfUnparseable)) throw e;
      obj = null;
      // A failed parse stops at a structural keyword such as the "obj" of the next object:
      // leave room for that object's "N G " header before it.
      stop = parser.position() - MAX_HEADER_BYTES;
    }
    if (stop - offset > LARGE_OBJECT_BYTES) this.largeObjects.add(offset, stop);
    if (obj && obj.value instanceof PdfStream) this.streamOwners.set(obj.value, { num: obj.num, gen: obj.gen });
    this.parsedAt.set(key, obj);
    return obj;
  }

  private objectContext(num: number): ParseContext {
    const sec = this.security;
    return {
      budget: this.budget,
      findEndstream: this.xref.findEndstream,
      allowStreams: true,
      resolveLength: (ref) => this.resolveLength(ref),
      decryptString: sec && num !== this.encryptNum ? (s, n, g) => sec.decryptString(n, g, s) : undefined,
    };
  }

  private resolveLength(ref: PdfRef): number | undefined {
    try {
      const v = this.getObject(ref);
      return typeof v === "number" ? v : undefined;
    } catch (e) {
      if (e instanceof PdfBudgetExceeded || !(e instanceof PdfUnparseable)) throw e;
      return undefined;
    }
  }

  private fetchCompressed(num: number, entry: XrefEntry, revIndex: number): PdfValue {
    const stmNum = entry.offset;
    const stm = this.lookup(stmNum, revIndex + 1);
    if (!stm || stm.entry.type !== "inuse") return null; // an object stream is never itself compressed
    const os = this.objStmAt(stm.entry, stmNum, revIndex + 1);
    if (!os) return null;
    let i = entry.gen;
    if (os.nums[i] !== num) i = os.nums.indexOf(num); // index off: look for the number
    if (i < 0) return null;
    const cached = os.values.get(i);
    if (cached !== undefined) return cached;
    this.budget.tick();
    this.budget.objectParsed();
    const parser = new Parser(new Lexer(os.data, os.starts[i]!, os.ends[i]!, false), {
      budget: this.budget,
      allowStreams: false,
    });
    let value: PdfValue;
    try {
      value = parser.getObject();
    } catch (e) {
      if (e instanceof PdfBudgetExceeded || !(e instanceof PdfUnparseable)) throw e;
      value = null;
    }
    os.values.set(i, value);
    return value;
  }

  /** Decodes and indexes an object stream (cached per xref entry of the stream). */
  private objStmAt(stmEntry: XrefEntry, stmNum?: number, rev?: number): ObjStm | null {
    if (this.objStms.has(stmEntry)) return this.objStms.get(stmEntry)!;
    let result: ObjStm | null = null;
    let stream: PdfValue;
    if (stmNum === undefined) {
      // during recovery: straight from the offset
      const obj = this.parseAt(stmEntry.offset, numAt(this.bytes, stmEntry.offset));
      stream = obj ? obj.value : null;
    } else {
      stream = this.getObject(stmNum, rev);
    }
    if (stream instanceof PdfStream) {
      try {
        result = this.indexObjStm(stream);
      } catch (e) {
        if (e instanceof PdfBudgetExceeded || e instanceof PdfEncrypted || !(e instanceof PdfUnparseable)) throw e;
        result = null;
      }
    }
    this.objStms.set(stmEntry, result);
    return result;
  }

  private indexObjStm(stream: PdfStream): ObjStm | null {
    const d = stream.dict;
    const n = this.resolve(d.get("N"));
    const first = this.resolve(d.get("First"));
    if (
      typeof n !== "number" ||
      !Number.isInteger(n) ||
      n < 0 ||
      typeof first !== "number" ||
      !Number.isInteger(first) ||
      first < 0
    ) {
      throw new PdfUnparseable("An object stream has an invalid /N or /First.");
    }
    if (n > this.budget.limits.maxCollectionSize) {
      throw new PdfBudgetExceeded(
        `An object stream declares more than ${this.budget.limits.maxCollectionSize} objects.`,
      );
    }
    const data = this.decodeStream(stream);
    const lexer = new Lexer(data, 0, Math.min(first, data.length), false);
    const nums: number[] = [];
    const offs: number[] = [];
    for (let i = 0; i < n; i++) {
      const a = lexer.next();
      const b = lexer.next();
      if (a.kind !== TK.Int || b.kind !== TK.Int || a.value < 0 || b.value < 0) break; // short header: keep what is there
      nums.push(a.value);
      offs.push(first + b.value);
    }
    this.budget.tick(Math.ceil(nums.length / 64));
    // Each object ends where the next one (in data order) starts.
    const order = offs.map((_, i) => i).sort((x, y) => offs[x]! - offs[y]!);
    const ends = new Array<number>(offs.length).fill(data.length);
    for (let k = 0; k + 1 < order.length; k++) ends[order[k]!] = Math.min(data.length, offs[order[k + 1]!]!);
    const starts = offs.map((o) => Math.min(o, data.length));
    return { data, nums, starts, ends, values: new Map() };
  }

  /** Follows references (chains too); cycle-guarded. */
  resolve(v: PdfValue | undefined, revision?: number): PdfValue | undefined {
    let hops = 0;
    while (v instanceof PdfRef) {
      if (++hops > MAX_REF_CHAIN)
        throw new PdfUnparseable(`A chain of references through object ${v.num} does not end (cycle).`);
      v = this.getObject(v, revision);
    }
    return v;
  }

  // ------------------------------------------------------------------ streams

  /**
   * Decoded stream data (filters: Flate with PNG/TIFF predictors, LZW,
   * ASCIIHex, ASCII85, RunLength). Budgeted; cached per stream object.
   * Throws `PdfEncrypted` for streams of an encrypted file (no decryption yet).
   */
  decodeStream(stream: PdfStream): Uint8Array {
    const cached = this.decoded.get(stream);
    if (cached) return cached;
    const dict = stream.dict;
    if (dict.has("F"))
      throw new PdfUnparseable("The PDF uses a stream stored in an external file, which Signet does not read.");
    const start = Math.max(0, Math.min(stream.dataStart, this.bytes.length));
    const end = Math.max(start, Math.min(stream.dataEnd, this.bytes.length));
    let raw = this.bytes.subarray(start, end);
    const filter = this.resolve(dict.get("Filter"));
    const parms = this.resolve(dict.get("DecodeParms"));
    const filters = Array.isArray(filter) ? filter.map((f) => this.resolve(f) ?? null) : filter;
    const parmList = Array.isArray(parms) ? parms.map((p) => this.resolve(p) ?? null) : parms;
    if (this.encrypted && !isNameValue(dict.get("Type"), "XRef")) {
      const owner = this.streamOwners.get(stream);
      if (!this.security || !owner) throw new PdfEncrypted();
      raw = this.security.decryptStream(owner.num, owner.gen, dict, raw);
    }
    const out = decodeFilters(raw, filterSteps(filters, parmList), this.budget);
    this.decoded.set(stream, out);
    return out;
  }

  // ------------------------------------------------------------------ document

  /** The trailer as of revision `revision` (default newest): its section's and all older sections' trailers merged. */
  trailerAt(revision?: number): PdfDict {
    return this.revisionTrailers[this.rev(revision) - 1]!;
  }

  catalogRef(revision?: number): PdfRef {
    const root = this.revisionTrailers[this.rev(revision) - 1]!.get("Root");
    if (!(root instanceof PdfRef)) throw new PdfUnparseable("The trailer has no /Root reference.");
    return root;
  }

  catalog(revision?: number): PdfDict {
    const c = this.resolve(this.catalogRef(revision), revision);
    if (!(c instanceof PdfDict)) throw new PdfUnparseable("The document catalog (/Root) is not a dictionary.");
    return c;
  }

  /**
   * Leaf pages in document order. /Count is not trusted; cycles, over-deep trees and a page object
   * listed twice are errors: a page reached twice would be signed, counted and drawn twice (one
   * page listed 100,000 times made a PDF that signed fine and that our own verify then refused).
   */
  pages(revision?: number): { ref: PdfRef; dict: PdfDict }[] {
    const rev = this.rev(revision);
    const cached = this.pageCache.get(rev);
    if (cached) return cached.slice();
    const { maxPages, maxDepth } = this.budget.limits;
    const rootRef = this.catalog(rev).get("Pages");
    if (!(rootRef instanceof PdfRef)) throw new PdfUnparseable("The catalog has no /Pages reference.");
    const rootDict = this.resolve(rootRef, rev);
    if (!(rootDict instanceof PdfDict)) throw new PdfUnparseable("The page tree root is not a dictionary.");

    const out: { ref: PdfRef; dict: PdfDict }[] = [];
    const seenNodes = new Set<number>([rootRef.num]);
    const seenPages = new Set<number>();
    type Frame = { kids: PdfValue[]; i: number };
    const stack: Frame[] = [{ kids: this.kidsOf(rootDict, rev), i: 0 }];
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      if (top.i >= top.kids.length) {
        stack.pop();
        continue;
      }
      const kid = top.kids[top.i++];
      this.budget.tick();
      if (!(kid instanceof PdfRef)) {
        if (kid instanceof PdfDict)
          throw new PdfUnparseable("A page tree node is a direct object; pages must be indirect objects.");
        continue; // null or junk in /Kids: ignored, as viewers do
      }
      const dict = this.resolve(kid, rev);
      if (!(dict instanceof PdfDict)) continue; // missing page object: ignored
      const type = dict.get("Type");
      const isNode =
        isNameValue(type, "Pages") ||
        (!isNameValue(type, "Page") && Array.isArray(this.resolve(dict.get("Kids"), rev)));
      if (isNode) {
        if (seenNodes.has(kid.num))
          throw new PdfUnparseable(`The page tree has a cycle (node ${kid.num} is reached twice).`);
        seenNodes.add(kid.num);
        if (stack.length >= maxDepth) throw new PdfBudgetExceeded(`The page tree is deeper than ${maxDepth} levels.`);
        stack.push({ kids: this.kidsOf(dict, rev), i: 0 });
      } else {
        if (seenPages.has(kid.num))
          throw new PdfUnparseable(`The page tree lists page object ${kid.num} more than once.`);
        seenPages.add(kid.num);
        if (out.length >= maxPages)
          throw new PdfBudgetExceeded(`The PDF has more than ${maxPages} pages (limit maxPages).`);
        out.push({ ref: kid, dict });
      }
    }
    this.pageCache.set(rev, out);
    return out.slice();
  }

  private kidsOf(node: PdfDict, rev: number): PdfValue[] {
    const kids = this.resolve(node.get("Kids"), rev);
    return Array.isArray(kids) ? kids : [];
  }

  /**
   * An inheritable page attribute (/MediaBox, /CropBox, /Rotate, /Resources):
   * the page's own value or the nearest ancestor's (§7.7.3.4); undefined when none.
   */
  inheritedPageAttribute(page: PdfDict, key: string, revision?: number): PdfValue | undefined {
    const rev = this.rev(revision);
    let node: PdfDict | undefined = page;
    for (let depth = 0; node && depth <= this.budget.limits.maxDepth; depth++) {
      const v = node.get(key);
      if (v !== undefined) return this.resolve(v, rev);
      const parent = this.resolve(node.get("Parent"), rev);
      node = parent instanceof PdfDict ? parent : undefined;
    }
    return undefined;
  }
}

function revisionTrailers(revisions: readonly Revision[]): PdfDict[] {
  const out: PdfDict[] = [];
  let acc: PdfDict | null = null;
  for (const r of revisions) {
    acc = acc ? mergedTrailer([acc, r.trailer]) : mergedTrailer([r.trailer]);
    out.push(acc);
  }
  return out;
}

function hasRoot(trailer: PdfDict): boolean {
  return trailer.get("Root") instanceof PdfRef;
}

function isEncrypted(trailer: PdfDict): boolean {
  const e = trailer.get("Encrypt");
  return e !== undefined && e !== null;
}

function isNameValue(v: PdfValue | undefined, name: string): boolean {
  return v instanceof PdfName && v.name === name;
}

function scanIndex(scan: Scan): Map<number, number[]> {
  const m = new Map<number, number[]>();
  for (const o of scan.objects) {
    const list = m.get(o.num);
    if (list) list.push(o.offset);
    else m.set(o.num, [o.offset]);
  }
  return m;
}

/** The object number written at `offset` (for recovery, where the scan already checked the header). */
function numAt(bytes: Uint8Array, offset: number): number {
  const t = new Lexer(bytes, offset).next();
  return t.kind === TK.Int ? t.value : -1;
}
