import { LimitExceeded } from "../../errors";
import { concatBytes } from "../../util/bytes";

/**
 * A whole request body as bytes, refused with 413 `payload_too_large` as soon as it passes
 * `maxBytes` (a declared Content-Length above the cap is refused before anything is read).
 */
export async function readBodyCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number, declaredLength?: number): Promise<Uint8Array> {
  const tooLarge = () => new LimitExceeded("payload_too_large", `The request body is larger than ${maxBytes} bytes.`, { maxBytes });
  if (declaredLength !== undefined && declaredLength > maxBytes) {
    await body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
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
