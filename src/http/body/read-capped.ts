import { LimitExceeded } from "../../errors";
import { LIMITS } from "../../limits";
import { concatBytes } from "../../util/bytes";
import { openBodyReader, readChunk } from "./read-chunk";

/**
 * A whole request body as bytes, refused with 413 `payload_too_large` as soon as it passes
 * `maxBytes` (a declared Content-Length above the cap is refused before anything is read); a
 * client that goes away is 499 `client_aborted`, one that stalls 408 `request_timeout`.
 */
export async function readBodyCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  declaredLength?: number,
  idleTimeoutMs: number = LIMITS.requestBodyIdleTimeoutMs,
): Promise<Uint8Array> {
  const tooLarge = () =>
    new LimitExceeded("payload_too_large", `The request body is larger than ${maxBytes} bytes.`, { maxBytes });
  if (declaredLength !== undefined && declaredLength > maxBytes) {
    await body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = openBodyReader(body);
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await readChunk(reader, idleTimeoutMs);
    } catch (err) {
      await reader.cancel(err).catch(() => {});
      throw err;
    }
    const { done, value } = next;
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return concatBytes(chunks);
}
