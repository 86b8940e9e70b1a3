/**
 * Reading an answer from a remote service we call (time-stamp authority, KMS) within a deadline
 * and a byte cap: a slow or endless body cannot hold the request or fill memory.
 */
import { concatBytes } from "./bytes";

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error("aborted");
}

/** `promise`, or a rejection as soon as `signal` aborts (some runtimes do not abort a pending read). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

/** The body, at most `maxBytes` (else `tooLarge()` is thrown), read until `signal` aborts. */
export async function readCappedBody(
  response: Response,
  maxBytes: number,
  signal: AbortSignal,
  tooLarge: () => Error,
): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await untilAborted(reader.read(), signal);
      if (done) break;
      total += value.length;
      if (total > maxBytes) throw tooLarge();
      chunks.push(value);
    }
  } catch (e) {
    reader.cancel().catch(() => {});
    throw e;
  }
  return concatBytes(chunks);
}
