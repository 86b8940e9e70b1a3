/**
 * An independent model of the difference analysis that ISO 32000 implies for signed PDFs, as
 * pyHanko's default policy (`StandardDiffPolicy`, `pyhanko/sign/diff_analysis/`) applies it,
 * for tests: pyHanko cannot be installed here. It shares no code with Signet's verifier: the
 * objects of each revision come from qpdf (`--json=2` on the bytes up to that revision's end),
 * and the rules below are pyHanko's whitelist, reduced to what a countersignature touches:
 *
 * - Every object that a later revision defines differently from the signed one (or freshly) must
 *   be explained by a rule, else the level is OTHER. Freed objects are OTHER.
 * - Catalog: keys other than /AcroForm /DSS /Extensions /Metadata /MarkInfo /Version must not
 *   change ("Values for dict key /AF differ"); /DSS may not be removed.
 * - /AcroForm: keys other than /Fields /DR /DA /Q /NeedAppearances must not change.
 * - Fields: none removed, new ones only signature fields. A new signature field, its /Kids
 *   widgets, its signature dictionary (/V, a new object) and the new objects reachable from its
 *   /AP, /Lock and /SV are explained (the signature value at FORM_FILLING). An existing unsigned
 *   signature field may be signed (keys /AP /AS /V /F /DA /Q /Ff /Type change); a signed one may
 *   not change; other fields may change their value keys at FORM_FILLING.
 * - Pages: the page tree is unchanged; a page may only gain widgets of new signature fields in
 *   /Annots, nothing else on it changes.
 * - /Info, /Metadata, new xref streams and object streams, and new objects reachable from
 *   nothing changed (orphans) are LTA updates; objects rewritten identically are ignored.
 * Not modelled (not needed by what these tests produce): DSS/VRI structure checks, the check
 * that an old object is used in one place only, in-place appearance stream updates, FieldMDP.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export type Level = "none" | "lta" | "form_filling" | "other";
const ORDER: Level[] = ["none", "lta", "form_filling", "other"];
const max = (a: Level, b: Level): Level => (ORDER.indexOf(a) >= ORDER.indexOf(b) ? a : b);

export interface Verdict {
  level: Level;
  /** Why the level is OTHER (pyHanko's wording where it has one). */
  reasons: string[];
}

type Json = unknown;
interface Revision {
  objects: Map<string, Json>;
  trailer: Record<string, Json>;
}

const ROOT_EXEMPT = new Set(["/AcroForm", "/DSS", "/Extensions", "/Metadata", "/MarkInfo", "/Version"]);
const ACROFORM_EXEMPT = new Set(["/Fields", "/DR", "/DA", "/Q", "/NeedAppearances"]);
const VALUE_UPDATE_KEYS = new Set(["/AP", "/AS", "/V", "/F", "/DA", "/Q", "/Ff", "/Type"]);
const ALWAYS_MODIFIABLE = new Set(["/Ff", "/Type"]);

/** The objects of the PDF made of `bytes`, as qpdf reads them. */
async function readRevision(bytes: Uint8Array): Promise<Revision> {
  const dir = mkdtempSync(join(tmpdir(), "signet-model-"));
  try {
    const file = join(dir, "rev.pdf");
    writeFileSync(file, bytes);
    const { stdout } = await run("qpdf", ["--json=2", "--json-stream-data=inline", "--decode-level=none", file], {
      maxBuffer: 512 * 1024 * 1024,
    }).catch((e: { stdout?: string; code?: number }) => {
      if (e.code === 3 && e.stdout) return { stdout: e.stdout }; // warnings only
      throw e;
    });
    const all = (JSON.parse(stdout) as { qpdf: [unknown, Record<string, { value?: Json; stream?: Json }>] }).qpdf[1];
    const objects = new Map<string, Json>();
    let trailer: Record<string, Json> = {};
    for (const [key, obj] of Object.entries(all)) {
      if (key === "trailer") trailer = obj.value as Record<string, Json>;
      else objects.set(key.replace(/^obj:/, "").replace(/ R$/, ""), obj.stream ?? obj.value);
    }
    return { objects, trailer };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The level pyHanko's default policy would give a signature whose signed bytes end at
 * `signedEnd`: every later revision (each ending at an offset of `revisionEnds`) is compared
 * with the signed one, and the worst level counts.
 */
export async function modelLevel(pdf: Uint8Array, signedEnd: number, revisionEnds: number[]): Promise<Verdict> {
  const signed = await readRevision(pdf.subarray(0, signedEnd));
  const verdict: Verdict = { level: "none", reasons: [] };
  for (const end of revisionEnds.filter((e) => e > signedEnd)) {
    const v = compare(signed, await readRevision(pdf.subarray(0, end)));
    verdict.level = max(verdict.level, v.level);
    verdict.reasons.push(...v.reasons);
  }
  return verdict;
}

/** Where each revision of `pdf` ends: after each `%%EOF` that closes a cross-reference section. */
export function revisionEnds(pdf: Uint8Array): number[] {
  const text = Buffer.from(pdf).toString("latin1");
  return [...text.matchAll(/startxref\s+\d+\s+%%EOF[\r\n]*/g)].map((m) => m.index! + m[0].length);
}

const isRef = (v: Json): v is string => typeof v === "string" && / R$/.test(v) && /^\d+ \d+ R$/.test(v);
const refKey = (v: string) => v.replace(/ R$/, "");
const isDict = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);
const same = (a: Json, b: Json) => JSON.stringify(a) === JSON.stringify(b);
/** A stream's dictionary, or the dictionary itself. */
const dictOf = (v: Json): Record<string, Json> | null =>
  isDict(v) ? (isDict(v.dict) && "data" in v ? (v.dict as Record<string, Json>) : v) : null;

function compare(old: Revision, cur: Revision): Verdict {
  const reasons: string[] = [];
  const other = (why: string) => reasons.push(why);
  const explained = new Map<string, Level>();
  const explain = (ref: Json, level: Level) => {
    if (!isRef(ref)) return;
    const k = refKey(ref);
    const prev = explained.get(k);
    explained.set(k, prev === undefined ? level : ORDER.indexOf(prev) <= ORDER.indexOf(level) ? prev : level);
  };
  const get = (rev: Revision, v: Json): Json => (isRef(v) ? (rev.objects.get(refKey(v)) ?? null) : v);
  const isNew = (ref: string) => !old.objects.has(refKey(ref));
  /** New objects reachable from `v` through new objects only (pyHanko's collect_dependencies since the signed revision). */
  const newDeps = (v: Json, out = new Set<string>()): Set<string> => {
    if (isRef(v)) {
      if (!isNew(v) || out.has(refKey(v))) return out;
      out.add(refKey(v));
      return newDeps(cur.objects.get(refKey(v)) ?? null, out);
    }
    if (Array.isArray(v)) for (const x of v) newDeps(x, out);
    else if (isDict(v)) for (const x of Object.values(dictOf(v) ?? v)) newDeps(x, out);
    return out;
  };
  const explainDeps = (v: Json, level: Level) => {
    for (const k of newDeps(v)) explain(`${k} R`, level);
  };
  /** pyHanko's compare_dicts: equal but for `ignored` keys. */
  const compareDicts = (a: Json, b: Json, ignored: Set<string>, what: string): boolean => {
    const x = dictOf(a);
    const y = dictOf(b);
    if (!x || !y) return (other(`${what} is not a dictionary`), false);
    const keys = (d: Record<string, Json>) =>
      Object.keys(d)
        .filter((k) => !ignored.has(k))
        .sort();
    if (!same(keys(x), keys(y))) return (other(`${what}: Dict keys differ: ${keys(y)} vs. ${keys(x)}`), false);
    for (const k of keys(x)) if (!same(x[k], y[k])) return (other(`${what}: Values for dict key ${k} differ`), false);
    return true;
  };
  /** pyHanko's compare_key_refs + safe_whitelist for one key. */
  const keyRef = (a: Record<string, Json>, b: Record<string, Json>, key: string, level: Level, what: string) => {
    if (key in a && !(key in b)) return other(`${what}: Key ${key} was deleted from dictionary`);
    const nv = b[key];
    if (!isRef(nv)) return;
    if (same(a[key], nv) || isNew(nv)) explain(nv, level);
    else other(`${what}: update clobbers or reuses ${nv}`);
  };

  // What changed: objects defined differently (or new), and objects freed.
  const changed = new Set<string>();
  for (const [k, v] of cur.objects) if (!old.objects.has(k) || !same(old.objects.get(k), v)) changed.add(k);
  for (const k of old.objects.keys()) if (!cur.objects.has(k)) other(`object ${k} was freed`);

  // New cross-reference and object streams.
  for (const k of changed) {
    const type = dictOf(cur.objects.get(k))?.["/Type"];
    if (isNew(`${k} R`) && (type === "/XRef" || type === "/ObjStm")) explain(`${k} R`, "lta");
  }

  // /Info.
  if (isRef(cur.trailer["/Info"])) keyRef(old.trailer, cur.trailer, "/Info", "lta", "trailer");

  // The catalog.
  if (!same(old.trailer["/Root"], cur.trailer["/Root"])) other("the trailer's /Root changed");
  const root0 = dictOf(get(old, old.trailer["/Root"]))!;
  const root1 = dictOf(get(cur, cur.trailer["/Root"]))!;
  compareDicts(root0, root1, ROOT_EXEMPT, "catalog");
  explain(cur.trailer["/Root"], "lta");
  for (const key of ["/Extensions", "/MarkInfo", "/DSS"]) keyRef(root0, root1, key, "lta", "catalog");
  if (root1["/DSS"] !== undefined) explainDeps(root1["/DSS"], "lta");
  if (isRef(root1["/Metadata"])) keyRef(root0, root1, "/Metadata", "lta", "catalog"); // may also be removed

  // The form.
  const widgets = new Map<string, string>(); // widget of a new signature field -> field name
  if ("/AcroForm" in root0 || "/AcroForm" in root1) {
    keyRef(root0, root1, "/AcroForm", "lta", "catalog");
    const form0 = dictOf(get(old, root0["/AcroForm"]));
    const form1 = dictOf(get(cur, root1["/AcroForm"]));
    if (form0 && form1 && compareDicts(form0, form1, ACROFORM_EXEMPT, "/AcroForm")) {
      keyRef(form0, form1, "/Fields", "lta", "/AcroForm");
      keyRef(form0, form1, "/DR", "form_filling", "/AcroForm");
      if (form1["/DR"] !== undefined) explainDeps(form1["/DR"], "form_filling");
      const fields0 = listFields(old, get(old, form0["/Fields"]));
      const fields1 = listFields(cur, get(cur, form1["/Fields"]));
      for (const name of fields0.keys()) if (!fields1.has(name)) other(`Fields {'${name}'} were deleted after signing`);
      for (const [name, f] of fields1) {
        const before = fields0.get(name);
        if (!before && f.type !== "/Sig") {
          other(`More form fields added than expected: ${name}`);
          continue;
        }
        judgeField(name, f, before);
      }
    }
  }

  function judgeField(name: string, f: Field, before: Field | undefined) {
    const field = dictOf(get(cur, f.ref))!;
    if (!before) {
      // SigFieldCreationRule: the field, its widgets, appearance, lock and seed value.
      explain(f.ref, visible(field) ? "form_filling" : "lta");
      for (const key of ["/AP", "/Lock", "/SV"]) if (key in field) explainDeps(field[key], "form_filling");
      if (isRef(field["/Kids"]) && isNew(field["/Kids"])) explain(field["/Kids"], "lta");
      const kids = get(cur, field["/Kids"]);
      if (Array.isArray(kids)) {
        for (const kid of kids) {
          const w = dictOf(get(cur, kid));
          if (!isRef(kid) || !w || "/T" in w) continue;
          widgets.set(refKey(kid), name);
          if (isNew(kid)) explain(kid, "lta");
          if ("/AP" in w) explainDeps(w["/AP"], "form_filling");
        }
      } else widgets.set(refKey(f.ref), name);
      signatureValue(name, field);
      return;
    }
    const was = dictOf(get(old, before.ref))!;
    if (f.type === "/Sig") {
      // SigFieldModificationRule.
      if (!compareDicts(was, field, VALUE_UPDATE_KEYS, `field ${name}`)) return;
      const signedBefore = "/V" in was;
      if (!signedBefore && "/V" in field) {
        explain(f.ref, "lta");
        if ("/AP" in field && !same(was["/AP"], field["/AP"])) explainDeps(field["/AP"], "form_filling");
        signatureValue(name, field);
      } else if (compareDicts(was, field, ALWAYS_MODIFIABLE, `signed field ${name}`)) explain(f.ref, "lta");
      return;
    }
    // GenericFieldModificationRule.
    if (!compareDicts(was, field, VALUE_UPDATE_KEYS, `field ${name}`)) return;
    explain(f.ref, "form_filling");
    if ("/AP" in field) explainDeps(field["/AP"], "form_filling");
    if ("/V" in field && !same(was["/V"], field["/V"])) explainDeps(field["/V"], "form_filling");
  }

  function signatureValue(name: string, field: Record<string, Json>) {
    const v = field["/V"];
    if (v === undefined) return;
    if (!isRef(v) || !isNew(v)) return other(`Value of signature field ${name} should be a new indirect object`);
    const sig = dictOf(get(cur, v));
    if (!sig) return other(`Value of signature field ${name} is not a dictionary`);
    explain(v, sig["/Type"] === "/DocTimeStamp" && !visible(field) ? "lta" : "form_filling");
    const refs = get(cur, sig["/Reference"]);
    if (Array.isArray(refs))
      for (const r of refs) explain(dictOf(get(cur, r))?.["/TransformParams"] ?? null, "form_filling");
  }

  // Pages: only /Annots may gain the widgets of new signature fields.
  if (widgets.size) walkPages(dictOf(get(old, root0["/Pages"])), dictOf(get(cur, root1["/Pages"])), 0);
  function walkPages(a: Record<string, Json> | null, b: Record<string, Json> | null, depth: number) {
    if (!a || !b || depth > 32) return;
    if (!same(a["/Kids"], b["/Kids"])) return other("Unexpected change to page tree structure.");
    for (const kid of (get(cur, b["/Kids"]) as Json[]) ?? []) {
      const p0 = dictOf(get(old, kid));
      const p1 = dictOf(get(cur, kid));
      if (!p0 || !p1) continue;
      if (p0["/Type"] === "/Pages") {
        walkPages(p0, p1, depth + 1);
        continue;
      }
      const annots0 = ((get(old, p0["/Annots"]) as Json[] | null) ?? []).map(String);
      const annots1 = ((get(cur, p1["/Annots"]) as Json[] | null) ?? []).map(String);
      if (same(annots0, annots1)) continue;
      if (annots0.some((x) => !annots1.includes(x))) other(`Annotations were deleted from page ${kid}`);
      const unknown = annots1.filter((x) => !annots0.includes(x) && !(isRef(x) && widgets.has(refKey(x))));
      if (unknown.length) other(`The newly added annotations ${unknown} were not recognised.`);
      if (!compareDicts(p0, p1, new Set(["/Annots"]), `page ${kid}`)) continue;
      explain(kid, "lta");
      const ref = p1["/Annots"];
      if (isRef(ref) && (same(p0["/Annots"], ref) || isNew(ref))) explain(ref, "lta");
    }
  }

  // Orphans: new objects nothing old-and-changed (or the trailer) reaches through new objects.
  const reached = newDeps(cur.trailer);
  for (const k of changed) if (!isNew(`${k} R`)) newDeps(cur.objects.get(k) ?? null, reached);
  for (const k of changed) if (isNew(`${k} R`) && !reached.has(k)) explain(`${k} R`, "lta");

  let level: Level = "none";
  const unexplained: string[] = [];
  for (const k of changed) {
    const l = explained.get(k);
    if (l === undefined) unexplained.push(k);
    else level = max(level, l);
  }
  if (unexplained.length) other(`There are unexplained xrefs: ${unexplained.map((k) => `${k} R`).join(", ")}`);
  return reasons.length ? { level: "other", reasons } : { level, reasons };

  function visible(field: Record<string, Json>): boolean {
    const area = (d: Record<string, Json> | null) => {
      const r = get(cur, d?.["/Rect"] ?? null);
      return Array.isArray(r) && r.length === 4
        ? Math.abs(((r[0] as number) - (r[2] as number)) * ((r[1] as number) - (r[3] as number)))
        : 0;
    };
    const kids = get(cur, field["/Kids"]);
    return area(field) > 0 || (Array.isArray(kids) && kids.some((k) => area(dictOf(get(cur, k))) > 0));
  }
}

interface Field {
  ref: string;
  type: Json;
}

/** Fields by fully qualified name (pyHanko's _list_fields: /Kids entries with /T are fields, /FT inherited). */
function listFields(
  rev: Revision,
  fields: Json,
  prefix = "",
  inherited: Json = null,
  depth = 0,
  out = new Map<string, Field>(),
): Map<string, Field> {
  if (!Array.isArray(fields) || depth > 32) return out;
  for (const ref of fields) {
    const d = dictOf(isRef(ref) ? (rev.objects.get(refKey(ref)) ?? null) : null);
    if (!d || typeof d["/T"] !== "string") continue;
    const name = prefix ? `${prefix}.${d["/T"].replace(/^[ub]:/, "")}` : d["/T"].replace(/^[ub]:/, "");
    const type = d["/FT"] ?? inherited;
    out.set(name, { ref: ref as string, type });
    const kids = isRef(d["/Kids"]) ? rev.objects.get(refKey(d["/Kids"])) : d["/Kids"];
    listFields(rev, kids ?? null, name, type, depth + 1, out);
  }
  return out;
}
