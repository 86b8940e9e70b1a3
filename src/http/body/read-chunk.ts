import { ClientAborted, RequestTimeout } from "../../errors";
import { openBodyReader, type ChunkReader } from "../../util/body-reader";

export { openBodyReader };

/**
 * The next chunk of the body. The body stream failing is the client's side going away (workerd:
 * "Network connection lost."): ClientAborted, not an internal error; no chunk for `idleTimeoutMs`
 * is a stalled client: RequestTimeout.
 *
 * One watchdog timer per body, not one per chunk: it notes when the last chunk came and, when it
 * fires, either fails the pending read or sleeps for the rest of the window (a timer per chunk cost
 * ~90 ms of CPU on a 25 MB upload). It stops when the reader closes, errors or is released.
 */
export function readChunk(
  reader: ChunkReader,
  idleTimeoutMs: number | undefined,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  const watch = idleTimeoutMs === undefined ? null : watchOf(reader, idleTimeoutMs);
  return new Promise((resolve, reject) => {
    if (watch) watch.pending = reject;
    reader.read().then(
      (result) => {
        if (watch) watch.arrived(result.done);
        resolve(result);
      },
      (err: unknown) => {
        watch?.stop();
        reject(
          new ClientAborted(
            `The client went away while sending the request body (${err instanceof Error ? err.message : String(err)}).`,
          ),
        );
      },
    );
  });
}

/**
 * Hands every chunk of `body` to `take`, then resolves with `finish()`; on any error (also one `take`
 * throws) `abandon` runs and the stream is cancelled.
 */
export async function consumeBody<T>(
  body: ReadableStream<Uint8Array>,
  idleTimeoutMs: number | undefined,
  sink: { take(chunk: Uint8Array): void; finish(): Promise<T>; abandon(): void },
): Promise<T> {
  const reader = openBodyReader(body);
  try {
    for (;;) {
      const { done, value } = await readChunk(reader, idleTimeoutMs);
      if (done) break;
      sink.take(value);
    }
    return await sink.finish();
  } catch (err) {
    sink.abandon();
    await reader.cancel(err).catch(() => {});
    throw err;
  }
}

const watches = new WeakMap<ChunkReader, IdleWatch>();

function watchOf(reader: ChunkReader, idleTimeoutMs: number): IdleWatch {
  let watch = watches.get(reader);
  if (!watch) {
    watch = new IdleWatch(idleTimeoutMs);
    watches.set(reader, watch);
    const stop = watch.stop.bind(watch);
    reader.closed.then(stop, stop);
  }
  return watch;
}

class IdleWatch {
  /** Rejects the read in progress, if any. */
  pending: ((err: Error) => void) | null = null;
  private last = Date.now();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(private readonly idleMs: number) {
    this.arm(idleMs);
  }

  arrived(done: boolean): void {
    this.pending = null;
    this.last = Date.now();
    if (done) this.stop();
  }

  stop(): void {
    this.stopped = true;
    this.pending = null;
    if (this.timer !== undefined) clearTimeout(this.timer);
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => {
      if (this.stopped) return;
      const idle = Date.now() - this.last;
      if (idle < this.idleMs) return this.arm(this.idleMs - idle);
      const fail = this.pending;
      this.stop();
      fail?.(new RequestTimeout(`The request body stalled: no bytes arrived for ${this.idleMs / 1000} s.`));
    }, ms);
  }
}
