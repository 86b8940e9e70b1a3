import { encodeBase64Bytes } from "../input/base64";

/**
 * A JSON response whose one large field (a document as a base64 data URI) is
 * streamed: the document is read segment by segment and encoded in slices as the
 * client reads (a pull stream: nothing is encoded ahead of what the connection
 * takes), so a 25 MB PDF never exists as one 33 MB string in the isolate.
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
  const slices = base64Slices(document);
  let stage: "before" | "document" | "after" | "done" = "before";
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (stage === "before") {
        controller.enqueue(encoder.encode(before));
        stage = "document";
        return;
      }
      if (stage === "document") {
        const next = await slices.next();
        if (!next.done) {
          controller.enqueue(next.value);
          return;
        }
        stage = "after";
      }
      if (stage === "after") {
        controller.enqueue(encoder.encode(after));
        stage = "done";
      }
      controller.close();
    },
    async cancel(reason) {
      await slices.return?.(reason);
    },
  });
  return new Response(body, {
    status: init.status ?? 200,
    headers: { "Content-Type": "application/json; charset=utf-8", ...init.headers },
  });
}

/** Slice size of the encoding: a multiple of 3, so base64 slices concatenate cleanly. */
const SLICE = 3 * 128 * 1024;

/**
 * The document as base64 (ASCII bytes) in slices of SLICE bytes. Segments may be tiny (a DOCX is many ZIP
 * records) or large (a 25 MB original): small ones are gathered, large ones encoded from views.
 */
async function* base64Slices(document: Iterable<Uint8Array> | ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  let carry: Uint8Array | null = null; // fewer than SLICE bytes waiting for more
  let carried = 0;
  for await (const segment of chunksOf(document)) {
    let at = 0;
    if (carry) {
      const n = Math.min(SLICE - carried, segment.length);
      carry.set(segment.subarray(0, n), carried);
      carried += n;
      at = n;
      if (carried < SLICE) continue;
      yield encodeBase64Bytes(carry);
      carry = null;
      carried = 0;
    }
    for (; segment.length - at >= SLICE; at += SLICE) yield encodeBase64Bytes(segment.subarray(at, at + SLICE));
    if (at < segment.length) {
      carry = new Uint8Array(SLICE);
      carry.set(segment.subarray(at));
      carried = segment.length - at;
    }
  }
  if (carry) yield encodeBase64Bytes(carry.subarray(0, carried));
}

async function* chunksOf(document: Iterable<Uint8Array> | ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  if (!(document instanceof ReadableStream)) {
    yield* document;
    return;
  }
  const reader = document.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    // The client went away: stop the source too (an R2 object body).
    if (!finished) await reader.cancel().catch(() => {});
  }
}
