import { ClientAborted, RequestTimeout } from "../../errors";

/**
 * The next chunk of the body. The body stream failing is the client's side going away (workerd:
 * "Network connection lost."): ClientAborted, not an internal error; no chunk for `idleTimeoutMs`
 * is a stalled client: RequestTimeout.
 */
export async function readChunk(reader: ReadableStreamDefaultReader<Uint8Array>, idleTimeoutMs: number | undefined): Promise<ReadableStreamReadResult<Uint8Array>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stalled =
    idleTimeoutMs === undefined
      ? null
      : new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new RequestTimeout(`The request body stalled: no bytes arrived for ${idleTimeoutMs / 1000} s.`)), idleTimeoutMs);
        });
  try {
    const read = reader.read().catch((err: unknown) => {
      throw new ClientAborted(`The client went away while sending the request body (${err instanceof Error ? err.message : String(err)}).`);
    });
    return await (stalled ? Promise.race([read, stalled]) : read);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
