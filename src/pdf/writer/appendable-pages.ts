import { concatBytes, latin1Bytes } from "../../util/bytes";

/**
 * Pages made by another engine (the certificate pages) as PDF objects ready to be written into a
 * file: the objects refer to each other by local index, and whoever writes them gives them object
 * numbers. The signer appends them to a document's incremental update as they are, with no
 * parsing and no copying between object models; `writeStandalonePdf` makes a file of them alone.
 */
export interface AppendablePages {
  /** Object bodies (what goes between `N G obj` and `endobj`), given how to reference object k. */
  objects: ((ref: (local: number) => string) => Uint8Array)[];
  /** The pages in order: their MediaBox (points), content streams and resource dictionary (local indices). */
  pages: { mediaBox: readonly [number, number, number, number]; contents: readonly number[]; resources: number }[];
}

/** A stream object's body: its dictionary entries (without /Length) and its (encoded) data. */
export function streamBody(entries: string, data: Uint8Array): Uint8Array {
  const head = latin1Bytes(`<<${entries} /Length ${data.length}>>\nstream\n`);
  const tail = latin1Bytes("\nendstream");
  return concatBytes([head, data, tail]);
}

/** The page dictionary of page `i`, given its /Parent and any extra entries. */
export function pageDictionary(
  pages: AppendablePages,
  i: number,
  ref: (local: number) => string,
  parent: string,
  extra = "",
): Uint8Array {
  const page = pages.pages[i]!;
  const box = `[${page.mediaBox.join(" ")}]`;
  const contents = page.contents.map(ref).join(" ");
  return latin1Bytes(
    `<</Type /Page /Parent ${parent} /MediaBox ${box} /Resources ${ref(page.resources)} /Contents [${contents}]${extra}>>`,
  );
}

/**
 * A standalone PDF of the pages: catalog, page tree, then the objects, a classic xref table.
 * Deterministic: the same pages give the same bytes.
 */
export function writeStandalonePdf(pages: AppendablePages, info: Record<string, string> = {}): Uint8Array {
  const catalog = 1;
  const tree = 2;
  const infoNum = 3;
  const firstPage = 4;
  const firstObject = firstPage + pages.pages.length;
  const ref = (k: number) => `${firstObject + k} 0 R`;
  const bodies: Uint8Array[] = [
    latin1Bytes(`<</Type /Catalog /Pages ${tree} 0 R>>`),
    latin1Bytes(
      `<</Type /Pages /Kids [${pages.pages.map((_, i) => `${firstPage + i} 0 R`).join(" ")}] /Count ${pages.pages.length}>>`,
    ),
    latin1Bytes(
      `<<${Object.entries(info)
        .map(([k, v]) => `/${k} ${pdfTextString(v)}`)
        .join(" ")}>>`,
    ),
    ...pages.pages.map((_, i) => pageDictionary(pages, i, ref, `${tree} 0 R`)),
    ...pages.objects.map((body) => body(ref)),
  ];
  const chunks: Uint8Array[] = [];
  let length = 0;
  const push = (b: Uint8Array) => {
    chunks.push(b);
    length += b.length;
  };
  push(latin1Bytes("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"));
  const offsets: number[] = [];
  bodies.forEach((body, i) => {
    offsets.push(length);
    push(latin1Bytes(`${i + 1} 0 obj\n`));
    push(body);
    push(latin1Bytes("\nendobj\n"));
  });
  const xref = length;
  let table = `xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) table += `${String(o).padStart(10, "0")} 00000 n \n`;
  push(
    latin1Bytes(
      `${table}trailer\n<</Size ${bodies.length + 1} /Root ${catalog} 0 R /Info ${infoNum} 0 R>>\nstartxref\n${xref}\n%%EOF\n`,
    ),
  );
  return concatBytes(chunks);
}

/** A text string as UTF-16BE hex with a byte-order mark (any Unicode text). */
function pdfTextString(text: string): string {
  let hex = "<feff";
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).padStart(4, "0");
  return `${hex}>`;
}
