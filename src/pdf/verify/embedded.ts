import { PdfUnparseable } from "../../errors";
import { PdfDict, PdfRef, PdfStream, PdfString, type PdfValue } from "../model";
import { PdfBudgetExceeded, type PdfReader } from "../reader";
import { textOf } from "../sign/inspect";

/**
 * The EmbeddedFiles name tree of one revision, as name → file specification
 * (unresolved). Bounded and cycle-safe; an unreadable tree is empty.
 */
export function embeddedFiles(reader: PdfReader, revision: number): Map<string, PdfValue> {
  const out = new Map<string, PdfValue>();
  const get = (v: PdfValue | undefined): PdfValue | undefined => {
    try {
      return reader.resolve(v, revision);
    } catch (e) {
      if (!(e instanceof PdfUnparseable) || e instanceof PdfBudgetExceeded) throw e;
      return undefined;
    }
  };
  let catalog: PdfDict;
  try {
    catalog = reader.catalog(revision);
  } catch (e) {
    if (!(e instanceof PdfUnparseable) || e instanceof PdfBudgetExceeded) throw e;
    return out;
  }
  const names = get(catalog.get("Names"));
  if (!(names instanceof PdfDict)) return out;
  const seen = new Set<number>();
  let budget = 50_000;
  const walk = (v: PdfValue | undefined, depth: number) => {
    if (depth > 32 || --budget < 0) return;
    if (v instanceof PdfRef) {
      if (seen.has(v.num)) return;
      seen.add(v.num);
    }
    const node = get(v);
    if (!(node instanceof PdfDict)) return;
    const list = get(node.get("Names"));
    if (Array.isArray(list)) {
      reader.spend(Math.ceil(list.length / 16)); // a leaf may list a million names
      for (let i = 0; i + 1 < list.length; i += 2) {
        const k = get(list[i]);
        if (k instanceof PdfString) out.set(textOf(k) ?? "", list[i + 1]!);
      }
    }
    const kids = get(node.get("Kids"));
    if (Array.isArray(kids)) for (const kid of kids) walk(kid, depth + 1);
  };
  walk(names.get("EmbeddedFiles"), 0);
  return out;
}

/**
 * The decoded bytes of a file specification's embedded file (/EF /F or /UF), or null; with
 * `newInRevision`, only when the file's stream was written in `revision` itself.
 */
export function embeddedFileBytes(
  reader: PdfReader,
  spec: PdfValue,
  revision: number,
  maxBytes: number,
  opts: { newInRevision?: boolean } = {},
): Uint8Array | null {
  try {
    const fs = reader.resolve(spec, revision);
    if (!(fs instanceof PdfDict)) return null;
    const ef = reader.resolve(fs.get("EF"), revision);
    if (!(ef instanceof PdfDict)) return null;
    const ref = ef.get("F") ?? ef.get("UF");
    if (opts.newInRevision && !(ref instanceof PdfRef && writtenIn(reader, ref.num, revision))) return null;
    const stream = reader.resolve(ref, revision);
    if (!(stream instanceof PdfStream)) return null;
    if (stream.dataEnd - stream.dataStart > maxBytes) return null;
    const data = reader.decodeStream(stream);
    return data.length > maxBytes ? null : data;
  } catch (e) {
    if (!(e instanceof PdfUnparseable) || e instanceof PdfBudgetExceeded) throw e;
    return null;
  }
}

/** Whether object `num` is defined differently in `revision` than in the one before (or is new). */
function writtenIn(reader: PdfReader, num: number, revision: number): boolean {
  const now = reader.objectOffset(num, revision);
  if (!now || now.type === "free") return false;
  if (revision <= 1) return true;
  const before = reader.objectOffset(num, revision - 1);
  return !before || before.type !== now.type || before.offset !== now.offset || before.gen !== now.gen;
}
