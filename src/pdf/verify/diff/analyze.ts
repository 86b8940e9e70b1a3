import { PdfUnparseable } from "../../../errors";
import { LIMITS } from "../../../limits";
import { PdfDict, PdfName, PdfRef, PdfStream, type PdfValue } from "../../model";
import { PdfBudgetExceeded, type PdfReader, type XrefEntry } from "../../reader";
import { isWhite } from "../../reader/lexer";
import { textOf } from "../../sign/inspect";
import { embeddedFiles } from "../embedded";
import { maxLevel, type Change, type ChangeLevel } from "../status";
import { deepEqual } from "./equal";
import { mergedTrailerOf, ReferenceGraph, type Context, type Owner } from "./graph";
import { PageIndexes } from "./page-index";
import { DICT_RULES, OWNER_LEVELS, type DictRuleName, type KeyRule, type ListKind } from "./rules";

/**
 * Reject-by-default difference analysis of everything after a signed revision
 * (after pyHanko's difference analysis). Each revision is compared with the one
 * before it, once per document (a signature's verdict gathers the revisions after
 * it, so the cost is linear in the revisions, not in signatures times revisions):
 * every object the revision's cross-reference data declares differently from the
 * revision before is "touched", and each touched object must be explained by a
 * rule for every way it is reached in the newest revision. Also:
 * - an entry that does not lead to its own object header (into another object,
 *   past the end of the file) is a change: viewers disagree on what it shows;
 * - re-pointing an object to bytes written before the revision (shadow
 *   hide-and-replace through cross-reference data only) is a change;
 * - a new object that an older, unchanged object already referred to (a dangling
 *   reference prepared before signing, filled in later) is a change;
 * - objects living in an object stream that was replaced are changes;
 * - objects written in a revision's bytes that its cross-reference section does
 *   not declare, and bytes after the last revision that no section accounts for,
 *   are changes (viewers that rebuild the file show them);
 * - a signature field is part of a signature only when a signature made after
 *   signing fills it: an unsigned one that paints an appearance (added, or given
 *   one) is a change; only an empty placeholder that shows nothing is not.
 */

export interface DiffResult {
  level: ChangeLevel;
  changes: Change[];
  /** Names of the non-signature fields whose value changed (for FieldMDP locks). */
  changedFields: string[];
}

const MAX_CHANGES = 200;

/** What a new field is (see `newFieldKind`), least to most severe. */
type NewFieldKind = "timestamp" | "signature" | "empty" | "unsigned" | "other";
const NEW_FIELD_SEVERITY: readonly NewFieldKind[] = ["timestamp", "signature", "empty", "unsigned", "other"];
/** Annotation flags (ISO 32000-2 §12.5.3): Hidden, NoView. */
const ANNOT_HIDDEN = 2;
const ANNOT_NO_VIEW = 32;

/**
 * Shared per document: the reference walk of the newest revision, built on first need, and
 * what each revision changed against the one before it, each judged once.
 */
export class DiffContext {
  private graph: ReferenceGraph | null = null;
  /** Page indexes per reader (the document's, and readers of signed prefixes of damaged files). */
  private readonly pageIndexes = new Map<PdfReader, PageIndexes>();
  private readonly attachments = new Map<PdfReader, Map<number, Map<string, PdfValue>>>();
  private readonly revisionDiffs = new Map<number, DiffResult>();
  private readonly trailing = new Map<number, DiffResult>();
  private members: Map<number, { num: number; entry: XrefEntry; revIndex: number }[]> | null = null;

  /** Objects the comparisons so far found changed, against `maxChangedObjects`. */
  private changed = 0;

  constructor(
    readonly reader: PdfReader,
    /** Changed objects judged per document at most (each is parsed in two versions and traced through the document). */
    private readonly maxChangedObjects: number = LIMITS.verify.maxChangedObjects,
  ) {}

  /** Counts objects a comparison found changed; past the budget the document is refused (before they are parsed). */
  countChanged(count: number): void {
    this.changed += count;
    if (this.changed > this.maxChangedObjects) {
      throw new PdfBudgetExceeded(
        `The revisions after the signatures of this PDF change more than ${this.maxChangedObjects} objects; Signet judges at most ${this.maxChangedObjects} per document (limit verify.maxChangedObjects).`,
      );
    }
  }

  /** What revision `k` (2..n) of the document's reader changed against revision `k - 1`. */
  revisionDiff(k: number): DiffResult {
    let d = this.revisionDiffs.get(k);
    if (!d) {
      const reader = this.reader;
      d = new Analysis(
        this,
        { reader, revision: k - 1 },
        { reader, revision: k },
        reader.revisions[k - 2]!.endOffset,
      ).run();
      this.revisionDiffs.set(k, d);
    }
    return d;
  }

  /** Bytes after the end of the last revision (or of signed bytes that reach further) that no cross-reference section accounts for. */
  trailingData(from: number): DiffResult {
    const start = Math.max(from, this.reader.revisions[this.reader.revisions.length - 1]!.endOffset);
    let d = this.trailing.get(start);
    if (!d) {
      const bytes = this.reader.bytes;
      let p = start;
      while (p < bytes.length && isWhite(bytes[p])) p++;
      d =
        p < bytes.length
          ? { level: "other", changes: [{ level: "other", what: TRAILING_DATA, objects: [] }], changedFields: [] }
          : NO_CHANGE;
      this.trailing.set(start, d);
    }
    return d;
  }

  /** Compressed entries by the object stream holding them (every revision), for "object stream replaced". */
  streamMembers(stmNum: number): { num: number; entry: XrefEntry; revIndex: number }[] {
    if (!this.members) {
      this.members = new Map();
      this.reader.revisions.forEach((rev, revIndex) => {
        for (const [num, entry] of rev.entries) {
          if (entry.type !== "compressed") continue;
          let list = this.members!.get(entry.offset);
          if (!list) this.members!.set(entry.offset, (list = []));
          list.push({ num, entry, revIndex });
        }
      });
    }
    return this.members.get(stmNum) ?? [];
  }

  referenceGraph(): ReferenceGraph {
    if (!this.graph) {
      const interesting = new Set<number>();
      const revs = this.reader.revisions;
      // A reconstructed file has one revision and is compared with readers of signed prefixes: every object counts.
      for (let k = this.reader.recovered ? 0 : 1; k < revs.length; k++)
        for (const num of revs[k]!.entries.keys()) interesting.add(num);
      // Objects stored in object streams that a later revision redefines are judged too.
      for (const rev of revs) {
        for (const [num, e] of rev.entries)
          if (e.type === "compressed" && interesting.has(e.offset)) interesting.add(num);
      }
      this.graph = ReferenceGraph.build(this.reader, interesting);
    }
    return this.graph;
  }

  /** The attached files of a view (each revision's computed once: it is the new side of one comparison and the old side of the next). */
  embeddedFiles(view: View): Map<string, PdfValue> {
    let perReader = this.attachments.get(view.reader);
    if (!perReader) this.attachments.set(view.reader, (perReader = new Map()));
    let files = perReader.get(view.revision);
    if (!files) perReader.set(view.revision, (files = embeddedFiles(view.reader, view.revision)));
    return files;
  }

  /** Page object number → 1-based page index, in a view (empty when the page tree is unreadable). */
  pageIndex(view: View): Map<number, number> {
    let pages = this.pageIndexes.get(view.reader);
    if (!pages) this.pageIndexes.set(view.reader, (pages = new PageIndexes(view.reader)));
    return pages.of(view.revision);
  }
}

/** A revision of a document, as read by some reader: the signed one, or the current one. */
export interface View {
  reader: PdfReader;
  revision: number;
}

const TRAILING_DATA = "data was added after the end of the file's last revision";
const NO_CHANGE: DiffResult = { level: "none", changes: [], changedFields: [] };

/**
 * Judges everything after a signature. `signed` is the signed revision of the document's own
 * reader (the revisions after it are judged one by one, each once per document), or (for
 * files whose cross-reference chain is damaged) the last revision of a reader opened on the
 * signed bytes alone, compared with the whole file; `signedEnd` is where the signed bytes end.
 */
export function analyzeModifications(ctx: DiffContext, signed: View, signedEnd: number): DiffResult {
  const reader = ctx.reader;
  if (signed.reader !== reader) {
    return combine([
      new Analysis(ctx, signed, { reader, revision: reader.revisions.length }, signedEnd).run(),
      ctx.trailingData(signedEnd),
    ]);
  }
  const parts: DiffResult[] = [];
  for (let k = signed.revision + 1; k <= reader.revisions.length; k++) parts.push(ctx.revisionDiff(k));
  parts.push(ctx.trailingData(signedEnd));
  return combine(parts);
}

/** The changes of consecutive revisions together: the most severe level, changes in order (deduplicated, capped). */
function combine(parts: DiffResult[]): DiffResult {
  let level: ChangeLevel = "none";
  const changes: Change[] = [];
  const seen = new Set<string>();
  const fields = new Set<string>();
  for (const p of parts) {
    level = maxLevel(level, p.level);
    for (const c of p.changes) {
      const key = `${c.level}|${c.what}`;
      if (changes.length >= MAX_CHANGES || seen.has(key)) continue;
      seen.add(key);
      changes.push(c);
    }
    for (const f of p.changedFields) fields.add(f);
  }
  return { level, changes, changedFields: [...fields] };
}

/**
 * One comparison: revision `cur` of the document's reader against `old` (the revision before
 * it, or the last revision of a reader of the signed bytes). Contexts (how each object is
 * reached) are those of the newest revision: what matters is what the document shows now.
 */
class Analysis {
  private readonly reader: PdfReader;
  /** The newest revision of the file. */
  private readonly newest: View;
  /** Whether the old view is a revision of the document's own reader (else: a reader of the signed bytes). */
  private readonly sameReader: boolean;
  private readonly changes: Change[] = [];
  private readonly changedFields = new Set<string>();
  private level: ChangeLevel = "none";
  private touched = new Set<number>();
  private embeddedJudged = false;
  /** The dictionary key being judged, recorded with the changes it causes. */
  private detail: string | undefined;

  constructor(
    private readonly ctx: DiffContext,
    private readonly old: View,
    /** The revision judged (of the document's own reader). */
    private readonly cur: View,
    /** Where the bytes the old view knows end: entries pointing before it re-point to existing bytes. */
    private readonly signedEnd: number,
  ) {
    this.reader = ctx.reader;
    this.newest = { reader: this.reader, revision: this.reader.revisions.length };
    this.sameReader = old.reader === this.reader;
  }

  run(): DiffResult {
    if (this.sameReader && this.old.revision >= this.cur.revision) return this.result();
    this.touched = this.touchedObjects();
    this.ctx.countChanged(this.touched.size);
    if (this.sameReader) {
      for (let k = this.old.revision + 1; k <= this.cur.revision; k++) {
        const hidden = this.reader.undeclaredObjects(k);
        if (hidden.length) {
          this.add(
            "other",
            "objects that no cross-reference section lists were added",
            hidden.map((h) => h.num),
          );
        }
      }
    }
    this.judgeTrailer();
    const nums = [...this.touched].sort((a, b) => a - b);
    for (const num of nums) {
      if (this.changes.length >= MAX_CHANGES) break;
      this.reader.spend(1);
      this.judgeObject(num);
    }
    return this.result();
  }

  private result(): DiffResult {
    return { level: this.level, changes: this.changes, changedFields: [...this.changedFields] };
  }

  private add(level: ChangeLevel, what: string, objects: number[]): void {
    if (level === "none") return;
    this.level = maxLevel(this.level, level);
    if (this.changes.length >= MAX_CHANGES) return;
    if (this.changes.some((c) => c.level === level && c.what === what)) return;
    this.changes.push({ level, what, objects, ...(this.detail ? { detail: this.detail } : {}) });
  }

  // ---------------------------------------------------------------- touched objects

  private touchedObjects(): Set<number> {
    const { reader, old, cur } = this;
    const out = new Set<number>();
    // Same reader: what the sections after the old revision declare. Another reader (damaged chain): every object either knows.
    const from = this.sameReader ? old.revision : 0;
    const candidates: Iterable<number>[] = [];
    for (let k = from; k < cur.revision; k++) candidates.push(reader.revisions[k]!.entries.keys());
    if (!this.sameReader) for (const rev of old.reader.revisions) candidates.push(rev.entries.keys());
    for (const list of candidates) {
      for (const num of list) {
        if (out.has(num)) continue;
        const before = old.reader.objectOffset(num, old.revision);
        const after = reader.objectOffset(num, cur.revision);
        if (!sameEntry(before, after)) out.add(num);
      }
    }
    // Objects whose object stream was redefined: viewers read them from the new stream.
    for (const stm of [...out]) {
      for (const { num, entry, revIndex } of this.ctx.streamMembers(stm)) {
        if (revIndex >= cur.revision || out.has(num)) continue;
        if (reader.objectOffset(num, cur.revision) === entry) {
          out.add(num);
          this.add("other", `object ${num} lives in an object stream that was replaced after signing`, [num, stm]);
        }
      }
    }
    return out;
  }

  // ---------------------------------------------------------------- trailer

  private judgeTrailer(): void {
    const before = mergedTrailerOf(this.old.reader, this.old.revision);
    const after = mergedTrailerOf(this.reader, this.cur.revision);
    const root0 = before.get("Root");
    const root1 = after.get("Root");
    if (!(root0 instanceof PdfRef && root1 instanceof PdfRef && root0.num === root1.num && root0.gen === root1.gen)) {
      // The catalog itself was replaced by another object: judge the new one against the old one.
      this.diffDict(
        "catalog",
        this.get(root0, this.old),
        this.get(root1, this.cur),
        [root1 instanceof PdfRef ? root1.num : -1],
        {},
      );
    }
    if (!this.same(before.get("Info"), after.get("Info"))) {
      this.add("lta", "the document information was updated", []);
    }
    if (!this.same(before.get("Encrypt"), after.get("Encrypt"))) {
      this.add("other", "the document's encryption was changed", []);
    }
  }

  // ---------------------------------------------------------------- one object

  private judgeObject(num: number): void {
    const { reader } = this;
    const oldEntry = this.old.reader.objectOffset(num, this.old.revision);
    const newEntry = reader.objectOffset(num, this.cur.revision);
    let oldValue = oldEntry && oldEntry.type !== "free" ? this.getNum(num, this.old) : null;
    const newValue = this.getNum(num, this.cur);
    const existed = oldValue !== null;
    if (!existed) oldValue = null;

    if (this.sameReader && !this.resolves(num)) {
      const where =
        newEntry?.type === "inuse" ? `offset ${newEntry.offset}` : `object stream ${newEntry?.offset ?? "?"}`;
      this.add(
        "other",
        `the cross-reference entry of ${this.describeObject(num)} was pointed at bytes that are not that object (${where})`,
        [num],
      );
      return;
    }
    if (newEntry && this.pointsIntoSignedBytes(newEntry)) {
      this.add(
        "other",
        `${this.describeObject(num)} was re-pointed to other bytes that were already in the file when it was signed`,
        [num],
      );
      return;
    }
    if (existed && deepEqual(oldValue, newValue, reader.bytes)) return; // rewritten identically

    const graph = this.ctx.referenceGraph();
    if (!existed) {
      // New object: fine unless a signed object that did not change refers to it.
      for (const from of graph.referrers.get(num) ?? []) {
        if (from >= 0 && !this.touched.has(from) && this.existedAt(from)) {
          this.add(
            "other",
            `${this.describeObject(from)} now shows content (object ${num}) that did not exist when it was signed`,
            [num, from],
          );
          return;
        }
      }
      return;
    }
    const contexts = graph.contextsOf(num);
    if (contexts.length === 0) {
      if (graph.truncated) this.add("other", `object ${num} was changed`, [num]);
      return; // no longer reachable: it cannot show anything
    }
    for (const c of contexts) this.judgeInContext(num, c, oldValue, newValue);
  }

  private judgeInContext(num: number, c: Context, oldValue: PdfValue, newValue: PdfValue): void {
    switch (c.role) {
      case "catalog":
        this.diffDict("catalog", oldValue, newValue, [num], {});
        return;
      case "pages":
        this.diffDict("page-tree-node", oldValue, newValue, [num], {});
        return;
      case "page": {
        const index = this.ctx.pageIndex(this.old).get(num);
        if (index === undefined) {
          this.add("appended_pages", "pages were appended", [num]);
          return;
        }
        this.diffDict("page", oldValue, newValue, [num], { page: String(index) });
        return;
      }
      case "annots":
        this.diffList("annots", oldValue, newValue, [num], { page: this.pageLabel(c.page ?? null) });
        return;
      case "annotation": {
        // A widget is judged as part of its form field when the field tree reaches it.
        if (
          this.ctx
            .referenceGraph()
            .contextsOf(num)
            .some((x) => x.role === "field")
        )
          return;
        const page = this.pageLabel(c.page ?? null);
        this.add(
          "annotations",
          newValue === null
            ? `an annotation was removed from page ${page}`
            : `an annotation on page ${page} was changed`,
          [num],
        );
        return;
      }
      case "acroform":
        this.diffDict("acroform", oldValue, newValue, [num], {});
        return;
      case "field": {
        const field = c.fieldName ?? "";
        const rule: DictRuleName = !c.sigField
          ? "field"
          : this.signedAt(num)
            ? "signed-signature-field"
            : this.signedNow(num)
              ? "signature-field"
              : "unsigned-signature-field";
        this.diffDict(rule, oldValue, newValue, [num], { field: quoteField(field) });
        if (!c.sigField) this.changedFields.add(field);
        return;
      }
      case "signature":
        this.add(
          "other",
          `the signature dictionary of field ${quoteField(signatureFieldName(c.owner))} was rewritten`,
          [num],
        );
        return;
      case "names":
        this.diffDict("names", oldValue, newValue, [num], {});
        return;
      case "embedded-tree":
        this.judgeEmbeddedFiles([num]);
        return;
      case "list":
        this.diffList(c.list ?? "fields", oldValue, newValue, [num], {});
        return;
      case "opaque":
        this.judgeOwned(num, c.owner);
        return;
    }
  }

  /** A changed object that no dictionary rule understands, judged by its owner. */
  private judgeOwned(num: number, owner: Owner | null): void {
    if (!owner) {
      this.add("other", `object ${num} was changed`, [num]);
      return;
    }
    const base = OWNER_LEVELS[owner.kind];
    switch (owner.kind) {
      case "page": {
        const index = this.ctx.pageIndex(this.old).get(owner.num);
        if (index === undefined) this.add("appended_pages", "pages were appended", [num]);
        else this.add(base.level, fill(base.what, { page: String(index) }), [num, owner.num]);
        return;
      }
      case "annotation":
        this.add(base.level, fill(base.what, { page: this.pageLabel(owner.page) }), [num]);
        return;
      case "field":
        if (owner.sig) {
          if (this.signedAt(owner.num))
            this.add("other", `signature field ${quoteField(owner.name)}, already signed, was changed`, [num]);
          else if (this.signedNow(owner.num))
            this.add("signatures", `signature field ${quoteField(owner.name)} was signed`, [num]);
          else
            this.add("other", fill(DICT_RULES["unsigned-signature-field"].what, { field: quoteField(owner.name) }), [
              num,
            ]);
        } else {
          this.changedFields.add(owner.name);
          this.add(base.level, fill(base.what, { field: quoteField(owner.name) }), [num]);
        }
        return;
      case "signature":
        if (this.existedAt(owner.num)) this.add("other", fill(base.what, { field: quoteField(owner.field) }), [num]);
        else this.add("signatures", `signature field ${quoteField(owner.field)} was signed`, [num]);
        return;
      case "catalog":
        this.add(base.level, fill(base.what, { key: `/${owner.key}` }), [num]);
        return;
      default:
        this.add(base.level, base.what, [num]);
    }
  }

  // ---------------------------------------------------------------- dictionaries

  private diffDict(
    ruleName: DictRuleName,
    oldValue: PdfValue | undefined,
    newValue: PdfValue | undefined,
    objects: number[],
    vars: Record<string, string>,
  ): void {
    const rule = DICT_RULES[ruleName];
    const a = dictOf(oldValue) ?? (rule.absentIsEmpty && oldValue === undefined ? new PdfDict() : undefined);
    const b = dictOf(newValue);
    if (!a || !b) {
      this.add(rule.otherwise, fill(rule.what, vars), objects);
      return;
    }
    const keys = new Set([...a.map.keys(), ...b.map.keys()]);
    for (const key of keys) {
      const ov = a.get(key);
      const nv = b.get(key);
      if (this.same(ov, nv)) continue;
      const kr: KeyRule = rule.keys[key] ?? { level: rule.otherwise };
      this.detail = `/${key}`;
      this.applyKeyRule(kr, ov, nv, objects, vars, rule.what);
      this.detail = undefined;
    }
  }

  private applyKeyRule(
    kr: KeyRule,
    ov: PdfValue | undefined,
    nv: PdfValue | undefined,
    objects: number[],
    vars: Record<string, string>,
    defaultWhat: string,
  ): void {
    if ("ignore" in kr) return;
    if ("level" in kr) {
      if (kr.removed && nv === undefined) this.add(kr.removed.level, kr.removed.what, objects);
      else this.add(kr.level, fill(kr.what ?? defaultWhat, vars), objects);
      return;
    }
    if ("compare" in kr) {
      this.diffDict(kr.compare, this.get(ov, this.old), this.get(nv, this.cur), objects, vars);
      return;
    }
    if ("list" in kr) {
      this.diffList(kr.list, this.get(ov, this.old), this.get(nv, this.cur), objects, vars);
      return;
    }
    if ("embeddedFiles" in kr) {
      this.judgeEmbeddedFiles(objects);
      return;
    }
    if ("signatureValue" in kr) {
      const v = this.get(nv, this.cur);
      if (v === null || v === undefined) {
        this.add("other", `the signature of field ${vars.field ?? ""} was removed`, objects);
        return;
      }
      const d = dictOf(v);
      if (!d || !isSignatureDict(d) || (nv instanceof PdfRef && this.existedAt(nv.num))) {
        this.add("other", `signature field ${vars.field ?? ""} was given a value that is no new signature`, objects);
        return;
      }
      this.add(
        isDocTimeStamp(v) ? "lta" : "signatures",
        isDocTimeStamp(v) ? "a document time-stamp was added" : `signature field ${vars.field ?? ""} was signed`,
        objects,
      );
    }
  }

  // ---------------------------------------------------------------- lists

  private diffList(
    kind: ListKind,
    oldValue: PdfValue | undefined,
    newValue: PdfValue | undefined,
    objects: number[],
    vars: Record<string, string>,
  ): void {
    const a = Array.isArray(oldValue) ? oldValue : [];
    const b = Array.isArray(newValue) ? newValue : [];
    // Direct (non-reference) entries are compared pairwise: rare in real lists, bounded here.
    const direct = (l: PdfValue[]) => l.reduce((n: number, x) => (x instanceof PdfRef ? n : n + 1), 0);
    this.reader.spend(Math.ceil((a.length + b.length) / 64) + direct(a) * direct(b));
    if (oldValue !== undefined && oldValue !== null && !Array.isArray(oldValue)) {
      this.add("other", "a list of the document was replaced by something else", objects);
      return;
    }
    switch (kind) {
      case "kids": {
        const prefixKept = a.length <= b.length && a.every((x, i) => this.same(x, b[i]));
        if (!prefixKept) {
          this.add("other", "the page tree was rearranged", objects);
          return;
        }
        const signedPages = this.ctx.pageIndex(this.old);
        for (const kid of b.slice(a.length)) {
          const index = kid instanceof PdfRef ? signedPages.get(kid.num) : undefined;
          if (index !== undefined) this.add("other", `page ${index} was inserted again`, objects);
          else this.add("appended_pages", "pages were appended", objects);
        }
        return;
      }
      case "fields": {
        const { added, removed } = setDiff(a, b, this.reader.bytes);
        if (removed.length) this.add("other", "a form field was removed", objects);
        for (const f of added) this.classifyNewField(f, objects);
        return;
      }
      case "annots": {
        const { added, removed } = setDiff(a, b, this.reader.bytes);
        const page = vars.page ?? "?";
        for (const x of removed) {
          const d = dictOf(this.get(x, this.old));
          if (d && isName(d.get("Subtype"), "Widget"))
            this.add("other", `a form field was removed from page ${page}`, objects);
          else this.add("annotations", `an annotation was removed from page ${page}`, objects);
        }
        for (const x of added) this.classifyNewAnnotation(x, page, objects);
        return;
      }
      case "associated-files": {
        const { added, removed } = setDiff(a, b, this.reader.bytes);
        if (removed.length) this.add("other", "an associated file was removed", objects);
        if (added.length) this.add("appended_pages", "a file was attached", objects);
        return;
      }
    }
  }

  private classifyNewField(v: PdfValue, objects: number[]): void {
    const d = dictOf(this.get(v, this.cur));
    if (!d) return;
    const name = textOf(this.get(d.get("T"), this.cur)) ?? "";
    const kind = this.newFieldKind(v, d);
    if (kind === "timestamp") this.add("lta", "a document time-stamp was added", objects);
    else if (kind === "signature") this.add("signatures", "a signature was added", objects);
    else if (kind === "empty")
      this.add("signatures", `an empty signature field (${quoteField(name)}) was added`, objects);
    else if (kind === "unsigned")
      this.add("other", `an unsigned signature field (${quoteField(name)}) showing an appearance was added`, objects);
    else this.add("other", `form field ${quoteField(name)} was added`, objects);
  }

  private classifyNewAnnotation(v: PdfValue, page: string, objects: number[]): void {
    const d = dictOf(this.get(v, this.cur));
    if (!d) return;
    if (isName(this.get(d.get("Subtype"), this.cur), "Widget")) {
      // The field it belongs to: itself (merged) or its parents, else the field whose /Kids
      // list it (a widget need not point back with /Parent).
      let fieldRef: PdfValue | undefined = v;
      let field: PdfDict | undefined = d;
      let depth = 0;
      while (field && !field.has("FT") && depth++ < 16) {
        fieldRef = field.get("Parent");
        field = dictOf(this.get(fieldRef, this.cur));
      }
      if (!field && v instanceof PdfRef) {
        const listing = this.listingField(v.num);
        if (listing) ({ ref: fieldRef, dict: field } = listing);
      }
      const kind = field && fieldRef !== undefined ? this.newFieldKind(fieldRef, field) : "other";
      if (kind === "timestamp") this.add("lta", "a document time-stamp was added", objects);
      else if (kind === "signature") this.add("signatures", "a signature was added", objects);
      else if (kind === "empty") this.add("signatures", `an empty signature field was added to page ${page}`, objects);
      else if (kind === "unsigned")
        this.add("other", `an unsigned signature field showing an appearance was added to page ${page}`, objects);
      else this.add("other", `a form field was added to page ${page}`, objects);
      return;
    }
    const subtype = this.get(d.get("Subtype"), this.cur);
    const what =
      subtype instanceof PdfName
        ? `an annotation (${subtype.name}) was added to page ${page}`
        : `an annotation was added to page ${page}`;
    this.add("annotations", what, objects);
  }

  /** The signature field whose /Kids hold widget `num`, as the form's field tree reaches it. */
  private listingField(num: number): { ref: PdfRef; dict: PdfDict } | undefined {
    const c = this.ctx
      .referenceGraph()
      .contextsOf(num)
      .find((x) => x.role === "field" && x.sigField && x.from >= 0);
    const dict = c ? dictOf(this.getNum(c.from, this.cur)) : undefined;
    return c && dict ? { ref: new PdfRef(c.from, 0), dict } : undefined;
  }

  /**
   * What a field new in the judged revision is: another kind of form field; a signature field a
   * signature (or document time-stamp) made after signing fills, now; an unsigned one that shows
   * nothing (a placeholder for a later signer: no appearance, hidden or of no size); or an
   * unsigned one that paints an appearance over the page, which looks like a signature and signs
   * nothing. A non-terminal field is judged by its child fields.
   */
  private newFieldKind(ref: PdfValue, d: PdfDict, depth = 0): NewFieldKind {
    let ft = this.get(d.get("FT"), this.cur);
    const kids = this.get(d.get("Kids"), this.cur);
    if (ft === undefined) {
      const first = Array.isArray(kids) ? dictOf(this.get(kids[0], this.cur)) : undefined;
      ft = first ? this.get(first.get("FT"), this.cur) : undefined;
    }
    if (!isName(ft, "Sig")) return "other";
    const now = ref instanceof PdfRef ? dictOf(this.getNum(ref.num, this.newest)) : d;
    if (now && !now.has("V") && Array.isArray(kids) && depth < 4) {
      const children = kids.flatMap((k) => {
        const kd = dictOf(this.get(k, this.cur));
        return kd && kd.has("T") ? [this.newFieldKind(k, kd, depth + 1)] : [];
      });
      if (children.length)
        return children.reduce((a, b) => (NEW_FIELD_SEVERITY.indexOf(a) >= NEW_FIELD_SEVERITY.indexOf(b) ? a : b));
    }
    const sig = now ? this.newSignatureIn(now) : null;
    if (sig) return isDocTimeStamp(sig) ? "timestamp" : "signature";
    return now && this.showsNothing(now) ? "empty" : "unsigned";
  }

  /**
   * Whether a field's widgets (itself, or its kids without a name) draw nothing in the newest
   * revision: no appearance stream and no appearance characteristics a viewer would draw from,
   * or hidden, or of no size.
   */
  private showsNothing(field: PdfDict): boolean {
    const kids = this.get(field.get("Kids"), this.newest);
    const widgets = Array.isArray(kids)
      ? kids.map((k) => dictOf(this.get(k, this.newest))).filter((k): k is PdfDict => k !== undefined && !k.has("T"))
      : [];
    if (widgets.length === 0) widgets.push(field);
    return widgets.every((w) => {
      const flags = this.get(w.get("F"), this.newest);
      if (typeof flags === "number" && (flags & (ANNOT_HIDDEN | ANNOT_NO_VIEW)) !== 0) return true;
      const rect = this.get(w.get("Rect"), this.newest);
      if (Array.isArray(rect) && rect.length === 4 && rect.every((x) => typeof x === "number")) {
        const [x1, y1, x2, y2] = rect as number[];
        if (x1 === x2 || y1 === y2) return true;
      }
      return !w.has("AP") && !w.has("MK");
    });
  }

  /** Whether signature field `num` holds, in the newest revision, a signature made after the old revision. */
  private signedNow(num: number): boolean {
    const d = dictOf(this.getNum(num, this.newest));
    return d !== undefined && this.newSignatureIn(d) !== null;
  }

  /**
   * The signature dictionary a field's /V holds in the newest revision, when it is one (/ByteRange
   * and /Contents) and did not exist in the old revision (an older signature's dictionary
   * reused by a new field signs nothing new); else null.
   */
  private newSignatureIn(field: PdfDict): PdfDict | null {
    const v = field.get("V");
    const sig = dictOf(this.get(v, this.newest));
    if (!sig || !isSignatureDict(sig)) return null;
    if (v instanceof PdfRef && this.existedAt(v.num)) return null;
    return sig;
  }

  // ---------------------------------------------------------------- embedded files

  private judgeEmbeddedFiles(objects: number[]): void {
    if (this.embeddedJudged) return;
    this.embeddedJudged = true;
    const before = this.ctx.embeddedFiles(this.old);
    const after = this.ctx.embeddedFiles(this.cur);
    for (const [name, v] of before) {
      const now = after.get(name);
      if (now === undefined) this.add("other", `the attached file ${quoteField(name)} was removed`, objects);
      else if (!this.same(v, now)) this.add("other", `the attached file ${quoteField(name)} was replaced`, objects);
    }
    for (const name of after.keys())
      if (!before.has(name)) this.add("appended_pages", `a file (${name}) was attached`, objects);
  }

  // ---------------------------------------------------------------- helpers

  private same(a: PdfValue | undefined, b: PdfValue | undefined): boolean {
    return deepEqual(a, b, this.reader.bytes);
  }

  private get(v: PdfValue | undefined, view: View): PdfValue | undefined {
    try {
      return view.reader.resolve(v, view.revision);
    } catch (e) {
      if (!(e instanceof PdfUnparseable) || e instanceof PdfBudgetExceeded) throw e;
      return undefined;
    }
  }

  private getNum(num: number, view: View): PdfValue {
    try {
      return view.reader.getObject(num, view.revision);
    } catch (e) {
      if (!(e instanceof PdfUnparseable) || e instanceof PdfBudgetExceeded) throw e;
      return null;
    }
  }

  /** Whether the judged revision's entry for `num` leads to that object (an unreadable one does not). */
  private resolves(num: number): boolean {
    try {
      return this.reader.entryResolves(num, this.cur.revision);
    } catch (e) {
      if (!(e instanceof PdfUnparseable) || e instanceof PdfBudgetExceeded) throw e;
      return false;
    }
  }

  private existedAt(num: number): boolean {
    const e = this.old.reader.objectOffset(num, this.old.revision);
    return e !== undefined && e.type !== "free";
  }

  /** Whether a field object (as of the signed revision) already held a signature. */
  private signedAt(fieldNum: number): boolean {
    const d = dictOf(this.getNum(fieldNum, this.old));
    if (!d) return false;
    const v = this.get(d.get("V"), this.old);
    return v instanceof PdfDict;
  }

  /** Whether a later entry points at bytes that were already in the signed file (and not where it was). */
  private pointsIntoSignedBytes(entry: XrefEntry): boolean {
    if (entry.type === "inuse") return entry.offset < this.signedEnd;
    if (entry.type === "compressed") {
      const stm = this.reader.objectOffset(entry.offset, this.cur.revision);
      return stm !== undefined && stm.type === "inuse" && stm.offset < this.signedEnd;
    }
    return false;
  }

  private pageLabel(pageNum: number | null): string {
    if (pageNum === null) return "?";
    const signed = this.ctx.pageIndex(this.old).get(pageNum);
    if (signed !== undefined) return String(signed);
    const now = this.ctx.pageIndex(this.cur).get(pageNum);
    return now !== undefined ? String(now) : "?";
  }

  /** "page 2", "form field 'Name'", or "object 12", for messages. */
  private describeObject(num: number): string {
    const page = this.ctx.pageIndex(this.old).get(num);
    if (page !== undefined) return `page ${page}`;
    for (const c of this.ctx.referenceGraph().contextsOf(num)) {
      const o = c.owner;
      if (o?.kind === "page") {
        const p = this.ctx.pageIndex(this.old).get(o.num);
        if (p !== undefined) return `page ${p}`;
      }
      if (c.role === "field") return `form field ${quoteField(c.fieldName ?? "")}`;
      if (c.role === "catalog") return "the document catalog";
    }
    return `object ${num}`;
  }
}

function sameEntry(a: XrefEntry | undefined, b: XrefEntry | undefined): boolean {
  const freeA = !a || a.type === "free";
  const freeB = !b || b.type === "free";
  if (freeA || freeB) return freeA === freeB;
  return a.type === b.type && a.offset === b.offset && a.gen === b.gen;
}

/**
 * What a list gained and lost: references by object number (a set each way: lists of thousands
 * of fields or annotations stay linear), direct entries by value.
 */
function setDiff(a: PdfValue[], b: PdfValue[], file: Uint8Array): { added: PdfValue[]; removed: PdfValue[] } {
  const refs = (list: PdfValue[]) => new Set(list.flatMap((x) => (x instanceof PdfRef ? [x.num] : [])));
  const refsA = refs(a);
  const refsB = refs(b);
  const directA = a.filter((x) => !(x instanceof PdfRef));
  const directB = b.filter((x) => !(x instanceof PdfRef));
  const contains = (direct: PdfValue[], v: PdfValue) => direct.some((x) => deepEqual(x, v, file));
  return {
    added: b.filter((v) => (v instanceof PdfRef ? !refsA.has(v.num) : !contains(directA, v))),
    removed: a.filter((v) => (v instanceof PdfRef ? !refsB.has(v.num) : !contains(directB, v))),
  };
}

function dictOf(v: PdfValue | undefined): PdfDict | undefined {
  if (v instanceof PdfDict) return v;
  if (v instanceof PdfStream) return v.dict;
  return undefined;
}

function isName(v: PdfValue | undefined, n: string): boolean {
  return v instanceof PdfName && v.name === n;
}

/** A signature dictionary: /ByteRange and /Contents, typed /Sig or /DocTimeStamp when typed at all. */
function isSignatureDict(d: PdfDict): boolean {
  const type = d.get("Type");
  if (type !== undefined && !isName(type, "Sig") && !isName(type, "DocTimeStamp")) return false;
  return d.has("ByteRange") && d.has("Contents");
}

function isDocTimeStamp(v: PdfValue): boolean {
  const d = dictOf(v);
  if (!d) return false;
  return isName(d.get("Type"), "DocTimeStamp") || isName(d.get("SubFilter"), "ETSI.RFC3161");
}

function fill(template: string, vars: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? "?"));
}

function quoteField(name: string): string {
  return `"${name}"`;
}

function signatureFieldName(owner: Owner | null): string {
  return owner?.kind === "signature" ? owner.field : "";
}
