/** A body's reader: the stream's default reader, or openBodyReader's reading it in large pieces. */
export interface ChunkReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  readonly closed: Promise<unknown>;
  cancel(reason?: unknown): Promise<void>;
  releaseLock(): void;
}

/** Bytes asked for per read of a byte stream; a read returns what has arrived, up to this. */
const PIECE_BYTES = 256 * 1024;

/**
 * Reads a body (a request's, or a fetched response's) in pieces of up to PIECE_BYTES. workerd hands a default reader the body in
 * 4 KiB chunks (6,400 reads for 25 MB, each a promise and a turn of every consumer's loop: about half
 * the time of receiving it); a BYOB read into a large buffer returns everything that has arrived, up
 * to the buffer's size, and still returns as soon as anything has (so readChunk's idle timeout keeps
 * its meaning: src/http/body/read-chunk.ts). Streams that are not byte streams are read as they come.
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
  let spare: Uint8Array<ArrayBuffer> | null = null;
  return {
    closed: byob.closed,
    cancel: (reason) => byob.cancel(reason),
    releaseLock: () => byob.releaseLock(),
    async read() {
      const view: Uint8Array<ArrayBuffer> = spare ?? new Uint8Array(PIECE_BYTES);
      spare = null;
      const { done, value } = (await byob.read(view)) as ReadableStreamReadResult<Uint8Array<ArrayBuffer>>;
      if (done || !value) return { done: true, value: undefined };
      if (value.length * 4 < PIECE_BYTES) {
        spare = new Uint8Array(value.buffer); // read into again; the caller gets a copy
        return { done: false, value: value.slice() };
      }
      return { done: false, value };
    },
  };
}
