/**
 * The binary answer of sign: with `Accept: application/pdf` the signed PDF is the response body,
 * streamed from its segments (the untouched input, then the update) or from the stored replay, and
 * the JSON fields of the JSON answer travel in the `Signet-Result` header.
 *
 * `Signet-Result` is JSON in which every character outside printable ASCII is escaped as `\uXXXX`
 * (JSON's own escape): the header is plain ASCII, valid in HTTP, and `JSON.parse` of it gives back
 * every string exactly (non-ASCII signer-chosen event ids, field names, warnings).
 */

export const SIGNET_RESULT_HEADER = "Signet-Result";

/**
 * True when the client prefers the PDF itself: `application/pdf` is acceptable and ranked above
 * JSON (by q, then by order). Without `application/pdf` in Accept, the answer stays JSON.
 */
export function prefersPdf(accept: string | undefined): boolean {
  if (!accept) return false;
  let pdf: { q: number; at: number } | null = null;
  let json: { q: number; at: number } | null = null;
  accept.split(",").forEach((item, at) => {
    const [type, ...params] = item.split(";").map((s) => s.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    const entry = { q: Number.isFinite(q) ? q : 0, at };
    if (type === "application/pdf" && !pdf) pdf = entry;
    if (type === "application/json" && !json) json = entry;
  });
  const p = pdf as { q: number; at: number } | null;
  const j = json as { q: number; at: number } | null;
  if (!p || p.q <= 0) return false;
  return !j || p.q > j.q || (p.q === j.q && p.at < j.at);
}

/** JSON as pure printable ASCII: what JSON.stringify gives, with everything else escaped as \uXXXX. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The PDF as the body (Content-Length set where the runtime can keep it), `fields` in Signet-Result. */
export function pdfResponse(
  document: readonly Uint8Array[] | ReadableStream<Uint8Array>,
  length: number,
  fields: unknown,
  headers: Record<string, string>,
): Response {
  return new Response(fixedLengthBody(document, length), {
    status: 200,
    headers: {
      ...headers,
      "Content-Type": "application/pdf",
      "Content-Length": String(length),
      "Content-Disposition": 'attachment; filename="signed.pdf"',
      [SIGNET_RESULT_HEADER]: asciiJson(fields),
    },
  });
}

interface FixedLengthStreamConstructor {
  new (length: number): TransformStream<Uint8Array, Uint8Array>;
}

/**
 * The document as a stream the client reads as it is written: segment by segment (each a view,
 * never joined). In workerd a FixedLengthStream carries the length, so the response has a
 * Content-Length instead of chunked encoding.
 */
function fixedLengthBody(
  document: readonly Uint8Array[] | ReadableStream<Uint8Array>,
  length: number,
): ReadableStream<Uint8Array> {
  const source = document instanceof ReadableStream ? document : segmentStream(document);
  const Fixed = (globalThis as { FixedLengthStream?: FixedLengthStreamConstructor }).FixedLengthStream;
  if (!Fixed) return source;
  const fixed = new Fixed(length);
  source.pipeTo(fixed.writable).catch(() => {}); // a client that goes away cancels both sides
  return fixed.readable;
}

function segmentStream(segments: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      while (next < segments.length && segments[next]!.length === 0) next++;
      if (next < segments.length) controller.enqueue(segments[next++]!);
      else controller.close();
    },
  });
}
