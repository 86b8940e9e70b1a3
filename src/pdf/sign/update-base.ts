import { sha256, toHex, utf8 } from "../../util/bytes";
import { PdfString, isArray, isRef } from "../model";
import type { PdfReader } from "../reader";
import type { UpdateBase } from "../writer/incremental";

/**
 * What an incremental update after `reader`'s file needs to know about it: where it ends,
 * where its last cross-reference section is, which kind of section to write, the trailer's
 * /Root, /Info and /ID (first element kept, the second new, derived from `seed`).
 */
export async function incrementalBase(reader: PdfReader, seed: string): Promise<UpdateBase> {
  const original = reader.bytes;
  const last = original[original.length - 1];
  const trailerId = reader.trailer.get("ID");
  const firstId = isArray(trailerId) && trailerId[0] instanceof PdfString ? trailerId[0].bytes : null;
  const digest = await sha256(
    utf8(`${toHex(await sha256(original.subarray(0, Math.min(original.length, 65536))))}|${seed}`),
  );
  // /Info as the newest trailer has it: one written by an earlier update without /Info stays without.
  const info = reader.revisions[reader.revisions.length - 1]!.trailer.get("Info");
  return {
    fileLength: original.length,
    endsWithEol: last === 0x0a || last === 0x0d,
    prevXref: previousXref(reader),
    offsetBase: reader.offsetBase,
    size: reader.size,
    useXrefStream: reader.usesXrefStreams,
    root: reader.catalogRef(),
    info: isRef(info) ? info : undefined,
    id: [firstId ?? digest.subarray(0, 16), digest.subarray(16, 32)],
  };
}

/**
 * Where a new `/Prev` points: the last xref as written, or, when the reader had to repair
 * the file (a wrong `startxref`), the start of the section it actually found (never the
 * `trailer` keyword after a table); none when repair found no section.
 */
export function previousXref(reader: PdfReader): number | null {
  const last = reader.revisions[reader.revisions.length - 1];
  if (reader.recovered) return last && last.xrefOffset >= 0 ? last.xrefOffset - reader.offsetBase : null;
  return reader.startxref >= 0 ? reader.startxref : null;
}
