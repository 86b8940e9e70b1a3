import { ClientAborted, RequestTimeout } from "../../errors";

/** What readChunk reads from: a stream's default reader, or a BodyReader reading it in large pieces. */
export interface ChunkReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  readonly closed: Promise<unknown>;
  cancel(reason?: unknown): Promise<void>;
}

/** Bytes asked for per read of a byte stream; a read returns what has arrived, up to this. */
const PIECE_BYTES = 256 * 1024;

/**
 * Reads a request body in pieces of up to PIECE_BYTES. workerd hands a default reader the body in
 * 4 KiB chunks (6,400 reads for 25 MB, each a promise and a turn of every consumer's loop: about half
 * the time of receiving it); a BYOB read into a large buffer returns everything that has arrived, up
 * to the buffer's size, and still returns as soon as anything has (so readChunk's idle timeout keeps
 * its meaning). Streams that are not byte streams are read as they come.
 *
 * A piece much smaller than its buffer is copied out and the buffer read into again, so a consumer
 * that keeps chunks never keeps more than about four times their bytes.
 */
export function openBodyReader(body: ReadableStream<Uint8Array>): ChunkReader {
  let byob: ReadableStreamBYOBReader;
  try {
    byob = body.getReader({ mode: "byob" });
  } catch {
    return body.getReader();
  }
  let spare: Uint8Array | null = null;
  return {
    closed: byob.closed,
    cancel: (reason) => byob.cancel(reason),
    async read() {
      const view = spare ?? new Uint8Array(PIECE_BYTES);
      spare = null;
      const { done, value } = await byob.read(view);
      if (done || !value) return { done: true, value: undefined };
      if (value.length * 4 < PIECE_BYTES) {
        spare = new Uint8Array(value.buffer); // read into again; the caller gets a copy
        return { done: false, value: value.slice() };
      }
      return { done: false, value };
    },
  };
}

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
