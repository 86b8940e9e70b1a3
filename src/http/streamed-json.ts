import { encodeBase64 } from "../input/base64";

/**
 * A JSON response whose one large field (a document as a base64 data URI) is
 * streamed: the document is read segment by segment and encoded in slices, so
 * a 25 MB PDF never exists as one 33 MB string in the isolate.
 *
 * `before` must end just inside the opening quote of the string value and
 * `after` start with its closing quote.
 */
export function streamedJsonResponse(
  before: string,
  document: Iterable<Uint8Array> | ReadableStream<Uint8Array>,
  after: string,
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  const encoder = new TextEncoder();
  const SLICE = 3 * 64 * 1024; // multiple of 3: base64 slices concatenate cleanly
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const pump = async () => {
    const writer = writable.getWriter();
    try {
      await writer.write(encoder.encode(before));
      // Segments may be tiny (a DOCX is many ZIP records): gather them into full slices, so the
      // response goes out in a few large chunks instead of thousands of small writes.
      const slice = new Uint8Array(SLICE);
      let fill = 0;
      const emit = async (chunk: Uint8Array) => {
        for (let at = 0; at < chunk.length; ) {
          const n = Math.min(SLICE - fill, chunk.length - at);
          slice.set(chunk.subarray(at, at + n), fill);
          fill += n;
          at += n;
          if (fill === SLICE) {
            await writer.write(encoder.encode(encodeBase64(slice)));
            fill = 0;
          }
        }
      };
      if (document instanceof ReadableStream) {
        const reader = document.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          await emit(value);
        }
      } else {
        for (const segment of document) await emit(segment);
      }
      if (fill) await writer.write(encoder.encode(encodeBase64(slice.subarray(0, fill))));
      await writer.write(encoder.encode(after));
      await writer.close();
    } catch (err) {
      await writer.abort(err).catch(() => {});
    }
  };
  void pump();
  return new Response(readable, {
    status: init.status ?? 200,
    headers: { "Content-Type": "application/json; charset=utf-8", ...init.headers },
  });
}
