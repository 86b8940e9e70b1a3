import { PdfUnparseable } from "../../../errors";
import { PdfDict, PdfName, PdfRef, PdfStream, type PdfValue } from "../../model";
import { PdfBudgetExceeded, type PdfReader } from "../../reader";
import { textOf } from "../../sign/inspect";

/**
 * A walk of everything reachable in the newest revision (from the trailer's
 * /Root and /Info), recording for the objects that later revisions declared
 * *how* each is reached: its role in the document's structure (catalog, page
 * tree node, page, annotation, form field, signature dictionary, name tree...)
 * or, for everything a rule does not understand (content streams, resources,
 * appearance streams, DSS entries...), the structure that owns it. The
 * difference analysis judges a changed object by these contexts: a changed
 * content stream owned by a page is a changed page, the same stream owned only
 * by a new annotation's appearance is part of that annotation.
 *
 * One walk serves every signature (contexts do not depend on which revision a
 * signature signed); it runs only when some signature has later revisions.
 */

export type Role =
  | "catalog"
  | "pages"
  | "page"
  | "annots"
  | "annotation"
  | "acroform"
  | "field"
  | "signature"
  | "names"
  | "embedded-tree"
  /** An indirect array with list semantics (/Fields, /Kids of the page tree). */
  | "list"
  | "opaque";

export type Owner =
  | { kind: "page"; num: number }
  | { kind: "page-tree" }
  | { kind: "annotation"; num: number; page: number | null }
  | { kind: "field"; num: number; name: string; sig: boolean }
  | { kind: "signature"; field: string; num: number }
  | { kind: "dss" }
  | { kind: "metadata" }
  | { kind: "info" }
  | { kind: "form-resources" }
  | { kind: "embedded" }
  | { kind: "extensions" }
  | { kind: "catalog"; key: string };

export interface Context {
  role: Role;
  owner: Owner | null;
  /** The indirect object holding the reference (-1: the trailer). */
  from: number;
  /** For fields: fully qualified name, and whether it is a signature field (/FT inherited). */
  fieldName?: string;
  sigField?: boolean;
  /** For pages, annots arrays and annotations: the page object they belong to. */
  page?: number | null;
  /** For lists: which list. */
  list?: "fields" | "kids";
}

/** Contexts kept per object (the first ones found; enough to judge and to name). */
const MAX_CONTEXTS = 16;
/** Referrers kept per object. */
const MAX_REFERRERS = 64;
/** Objects expanded at most (each at most once per role/owner class). */
const MAX_EXPANSIONS = 2_000_000;

export class ReferenceGraph {
  readonly contexts = new Map<number, Context[]>();
  readonly referrers = new Map<number, Set<number>>();
  /** Whether the walk stopped early (a budget ran out): judgements must then be conservative. */
  truncated = false;

  private readonly expanded = new Set<string>();
  private expansions = 0;
  private readonly stack: { num: number; ctx: Context }[] = [];

  private constructor(
    private readonly reader: PdfReader,
    private readonly revision: number,
    /** Objects whose contexts matter (declared by later revisions); all others are walked through silently. */
    private readonly interesting: ReadonlySet<number>,
  ) {}

  static build(reader: PdfReader, interesting: ReadonlySet<number>): ReferenceGraph {
    const revision = reader.revisions.length;
    const g = new ReferenceGraph(reader, revision, interesting);
    const trailer = mergedTrailerOf(reader);
    const root = trailer.get("Root");
    if (root instanceof PdfRef) g.visit(root, { role: "catalog", owner: null, from: -1 });
    const info = trailer.get("Info");
    if (info instanceof PdfRef) g.visit(info, { role: "opaque", owner: { kind: "info" }, from: -1 });
    g.run();
    return g;
  }

  contextsOf(num: number): Context[] {
    return this.contexts.get(num) ?? [];
  }

  private visit(ref: PdfRef, ctx: Context): void {
    const num = ref.num;
    if (this.interesting.has(num)) {
      let list = this.contexts.get(num);
      if (!list) this.contexts.set(num, (list = []));
      if (list.length < MAX_CONTEXTS && !list.some((c) => sameContext(c, ctx))) list.push(ctx);
      let refs = this.referrers.get(num);
      if (!refs) this.referrers.set(num, (refs = new Set()));
      if (refs.size < MAX_REFERRERS) refs.add(ctx.from);
    }
    const key = `${num}|${ctx.role}|${ownerClass(ctx.owner)}`;
    if (this.expanded.has(key)) return;
    if (++this.expansions > MAX_EXPANSIONS) {
      this.truncated = true;
      return;
    }
    this.expanded.add(key);
    this.stack.push({ num, ctx });
  }

  private run(): void {
    while (this.stack.length) {
      const { num, ctx } = this.stack.pop()!;
      let value: PdfValue;
      try {
        value = this.reader.getObject(num, this.revision);
      } catch (e) {
        if (!(e instanceof PdfUnparseable) || e instanceof PdfBudgetExceeded) throw e;
        continue; // an unreadable object: nothing to walk into
      }
      this.expand(num, value, ctx);
    }
  }

  private resolve(v: PdfValue | undefined): PdfValue | undefined {
    try {
      return this.reader.resolve(v, this.revision);
    } catch (e) {
      if (!(e instanceof PdfUnparseable) || e instanceof PdfBudgetExceeded) throw e;
      return undefined;
    }
  }

  /** Expands the value of object `self` (or a direct sub-value of it) in the given role. */
  private expand(self: number, value: PdfValue, ctx: Context): void {
    const dict = value instanceof PdfStream ? value.dict : value instanceof PdfDict ? value : null;
    switch (ctx.role) {
      case "catalog":
        if (dict) this.catalog(self, dict);
        return;
      case "pages":
        if (dict) this.pagesNode(self, dict);
        return;
      case "page":
        if (dict) this.page(self, dict);
        return;
      case "annots":
        if (Array.isArray(value)) this.annotsArray(self, value, ctx.page ?? null);
        return;
      case "annotation":
        if (dict) this.annotation(self, dict, ctx.page ?? null);
        return;
      case "acroform":
        if (dict) this.acroform(self, dict);
        return;
      case "field":
        if (dict) this.field(self, dict, ctx);
        return;
      case "signature":
        this.opaque(self, value, ctx.owner);
        return;
      case "names":
        if (dict) this.names(self, dict);
        return;
      case "embedded-tree":
        if (dict) this.embeddedTree(self, dict);
        return;
      case "list":
        return; // its entries are walked by the owner of the list
      case "opaque":
        this.opaque(self, value, ctx.owner);
        return;
    }
  }

  /** Visits `v` (a reference, or a direct value expanded in place) in role `role`. */
  private child(self: number, v: PdfValue | undefined, ctx: Omit<Context, "from">): void {
    if (v === undefined || v === null) return;
    if (v instanceof PdfRef) this.visit(v, { ...ctx, from: self });
    else this.expand(self, v, { ...ctx, from: self });
  }

  private catalog(self: number, d: PdfDict): void {
    for (const [key, v] of d.map) {
      switch (key) {
        case "Pages":
          this.child(self, v, { role: "pages", owner: { kind: "page-tree" } });
          break;
        case "AcroForm":
          this.child(self, v, { role: "acroform", owner: null });
          break;
        case "Names":
          this.child(self, v, { role: "names", owner: null });
          break;
        case "DSS":
          this.child(self, v, { role: "opaque", owner: { kind: "dss" } });
          break;
        case "Metadata":
          this.child(self, v, { role: "opaque", owner: { kind: "metadata" } });
          break;
        case "AF":
          this.child(self, v, { role: "opaque", owner: { kind: "embedded" } });
          break;
        case "Extensions":
          this.child(self, v, { role: "opaque", owner: { kind: "extensions" } });
          break;
        default:
          this.child(self, v, { role: "opaque", owner: { kind: "catalog", key } });
      }
    }
  }

  private pagesNode(self: number, d: PdfDict): void {
    for (const [key, v] of d.map) {
      if (key === "Parent") continue;
      if (key === "Kids") {
        const kids = this.resolve(v);
        if (v instanceof PdfRef)
          this.visit(v, { role: "list", list: "kids", owner: { kind: "page-tree" }, from: self });
        if (!Array.isArray(kids)) continue;
        for (const kid of kids) {
          if (!(kid instanceof PdfRef)) continue;
          const kd = this.resolve(kid);
          const isNode =
            kd instanceof PdfDict &&
            (isNameValue(kd.get("Type"), "Pages") || (!isNameValue(kd.get("Type"), "Page") && kd.has("Kids")));
          this.visit(
            kid,
            isNode
              ? { role: "pages", owner: { kind: "page-tree" }, from: self }
              : { role: "page", owner: null, from: self, page: kid.num },
          );
        }
        continue;
      }
      this.child(self, v, { role: "opaque", owner: { kind: "page-tree" } });
    }
  }

  private page(self: number, d: PdfDict): void {
    for (const [key, v] of d.map) {
      if (key === "Parent") continue;
      if (key === "Annots") {
        this.child(self, v, { role: "annots", owner: null, page: self });
        continue;
      }
      this.child(self, v, { role: "opaque", owner: { kind: "page", num: self } });
    }
  }

  private annotsArray(self: number, arr: PdfValue[], page: number | null): void {
    for (const a of arr) {
      const d = this.resolve(a);
      if (d instanceof PdfDict && isNameValue(this.resolve(d.get("Subtype")), "Widget")) {
        // A widget is a (part of a) form field: judged by the field rules, whichever way it is reached.
        const { name, sig } = this.fieldIdentity(d);
        this.child(self, a, { role: "field", owner: null, fieldName: name, sigField: sig, page });
      } else {
        this.child(self, a, { role: "annotation", owner: null, page });
      }
    }
  }

  /** A widget's field name and kind, from its own /T and /FT or its parents'. */
  private fieldIdentity(d: PdfDict): { name: string; sig: boolean } {
    const parts: string[] = [];
    let ft: PdfValue | undefined;
    let node: PdfDict | undefined = d;
    for (let depth = 0; node && depth < 32; depth++) {
      const t = textOf(this.resolve(node.get("T")));
      if (t !== null) parts.unshift(t);
      if (ft === undefined && node.has("FT")) ft = this.resolve(node.get("FT"));
      const parent = this.resolve(node.get("Parent"));
      node = parent instanceof PdfDict ? parent : undefined;
    }
    return { name: parts.join("."), sig: isNameValue(ft, "Sig") };
  }

  private annotation(self: number, d: PdfDict, page: number | null): void {
    const owner: Owner = { kind: "annotation", num: self, page };
    for (const [key, v] of d.map) {
      if (key === "P" || key === "Parent" || key === "IRT") continue; // back-references, walked from their owners
      if (key === "Popup") {
        this.child(self, v, { role: "annotation", owner: null, page });
        continue;
      }
      this.child(self, v, { role: "opaque", owner });
    }
  }

  private acroform(self: number, d: PdfDict): void {
    for (const [key, v] of d.map) {
      if (key === "Fields") {
        if (v instanceof PdfRef)
          this.visit(v, { role: "list", list: "fields", owner: { kind: "catalog", key: "AcroForm" }, from: self });
        const fields = this.resolve(v);
        if (Array.isArray(fields)) for (const f of fields) this.fieldChild(self, f, "", undefined);
        continue;
      }
      if (key === "DR") {
        this.child(self, v, { role: "opaque", owner: { kind: "form-resources" } });
        continue;
      }
      this.child(self, v, { role: "opaque", owner: { kind: "catalog", key: "AcroForm" } });
    }
  }

  private fieldChild(self: number, v: PdfValue, prefix: string, inheritedFt: PdfValue | undefined): void {
    const d = this.resolve(v);
    if (!(d instanceof PdfDict)) return;
    const partial = textOf(this.resolve(d.get("T")));
    const name = partial === null ? prefix : prefix ? `${prefix}.${partial}` : partial;
    const ft = d.has("FT") ? this.resolve(d.get("FT")) : inheritedFt;
    const ctx = { role: "field" as const, owner: null, fieldName: name, sigField: isNameValue(ft, "Sig") };
    this.child(self, v, ctx);
  }

  private field(self: number, d: PdfDict, ctx: Context): void {
    const name = ctx.fieldName ?? "";
    const sig = ctx.sigField ?? false;
    const owner: Owner = { kind: "field", num: self, name, sig };
    const ft = sig ? new PdfName("Sig") : undefined;
    for (const [key, v] of d.map) {
      if (key === "Parent" || key === "P") continue;
      if (key === "Kids") {
        if (v instanceof PdfRef) this.visit(v, { role: "opaque", owner, from: self });
        const kids = this.resolve(v);
        if (Array.isArray(kids)) for (const k of kids) this.fieldChild(self, k, name, ft ?? this.resolve(d.get("FT")));
        continue;
      }
      if (key === "V" && sig) {
        this.child(self, v, {
          role: "signature",
          owner: { kind: "signature", field: name, num: v instanceof PdfRef ? v.num : self },
        });
        continue;
      }
      this.child(self, v, { role: "opaque", owner });
    }
  }

  private names(self: number, d: PdfDict): void {
    for (const [key, v] of d.map) {
      if (key === "EmbeddedFiles") this.child(self, v, { role: "embedded-tree", owner: { kind: "embedded" } });
      else this.child(self, v, { role: "opaque", owner: { kind: "catalog", key: `Names/${key}` } });
    }
  }

  private embeddedTree(self: number, d: PdfDict): void {
    for (const [key, v] of d.map) {
      if (key === "Kids") {
        const kids = this.resolve(v);
        if (v instanceof PdfRef) this.visit(v, { role: "opaque", owner: { kind: "embedded" }, from: self });
        if (Array.isArray(kids))
          for (const k of kids) this.child(self, k, { role: "embedded-tree", owner: { kind: "embedded" } });
        continue;
      }
      this.child(self, v, { role: "opaque", owner: { kind: "embedded" } });
    }
  }

  private isStructural(ref: PdfRef): boolean {
    const d = this.resolve(ref);
    return d instanceof PdfDict && structuralDict(d);
  }

  /** Every reference inside a value, in the same owner. */
  private opaque(self: number, value: PdfValue, owner: Owner | null): void {
    const work: PdfValue[] = [value];
    let steps = 0;
    while (work.length) {
      const v = work.pop()!;
      if (++steps > 1_000_000) {
        this.truncated = true;
        return;
      }
      if ((steps & 255) === 0) this.reader.spend(1); // walked values count against the reader's work budget
      if (v instanceof PdfRef) {
        if (!this.isStructural(v)) this.visit(v, { role: "opaque", owner, from: self });
      } else if (Array.isArray(v)) for (const x of v) work.push(x);
      else if (v instanceof PdfDict) {
        const transform = v.has("TransformMethod");
        for (const [k, x] of v.map) if (!(transform && k === "Data")) work.push(x);
      } else if (v instanceof PdfStream) for (const x of v.dict.map.values()) work.push(x);
    }
  }
}

/** Dictionaries that opaque walks only point at (destinations, structure elements...): they are walked from their own place. */
function structuralDict(d: PdfDict): boolean {
  const type = d.get("Type");
  if (
    type instanceof PdfName &&
    (type.name === "Page" ||
      type.name === "Pages" ||
      type.name === "Annot" ||
      type.name === "Sig" ||
      type.name === "DocTimeStamp")
  )
    return true;
  if (d.has("Rect") && d.has("Subtype")) return true; // an annotation
  if (d.has("FT") || d.has("ByteRange")) return true; // a form field, a signature
  return false;
}

function sameContext(a: Context, b: Context): boolean {
  return a.role === b.role && a.from === b.from && ownerKey(a.owner) === ownerKey(b.owner);
}

function ownerKey(o: Owner | null): string {
  if (!o) return "";
  switch (o.kind) {
    case "page":
      return `page:${o.num}`;
    case "annotation":
      return `annotation:${o.num}`;
    case "field":
      return `field:${o.num}`;
    case "signature":
      return `signature:${o.num}`;
    case "catalog":
      return `catalog:${o.key}`;
    default:
      return o.kind;
  }
}

/**
 * Expansion is once per object and owner *class*: a font shared by a thousand pages is
 * walked once, under the first page that uses it (existing pages come before appended
 * ones in the page tree, so a resource shared with a signed page is owned by it).
 * Signature fields and signature dictionaries are their own class (their rules differ per object).
 */
function ownerClass(o: Owner | null): string {
  if (!o) return "";
  switch (o.kind) {
    case "page":
      return "page";
    case "annotation":
      return "annotation";
    case "field":
      return o.sig ? `field:${o.num}` : "field";
    case "signature":
      return `signature:${o.num}`;
    case "catalog":
      return `catalog:${o.key}`;
    default:
      return o.kind;
  }
}

function isNameValue(v: PdfValue | undefined, n: string): boolean {
  return v instanceof PdfName && v.name === n;
}

export function mergedTrailerOf(reader: PdfReader, revision?: number): PdfDict {
  return reader.trailerAt(revision);
}
