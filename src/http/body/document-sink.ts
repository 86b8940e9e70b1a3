import { toHex } from "../../util/bytes";
import { GrowableBytes } from "./growable-bytes";
import { consumeBody } from "./read-chunk";

/** A document received from a binary body: its bytes and their SHA-256 (lowercase hex) when it was asked for. */
export interface ReceivedDocument {
  bytes: Uint8Array;
  sha256: string | null;
}

/**
 * Where a document goes as it arrives: one buffer (each chunk copied once, up to `maxBytes`) and,
 * when asked, a running SHA-256 (workerd's `crypto.DigestStream`, fed the chunks as they come;
 * where it is missing, one digest over the bytes at the end).
 */
export class DocumentSink {
  private readonly buffer: GrowableBytes;
  private readonly digest: ReturnType<typeof openDigest> | null;
  private lastWrite: Promise<unknown> = Promise.resolve();

  constructor(
    maxBytes: number,
    tooLarge: () => Error,
    private readonly hash: boolean,
    sizeHint = 0,
  ) {
    this.buffer = new GrowableBytes(maxBytes, tooLarge, sizeHint);
    this.digest = hash && typeof crypto.DigestStream === "function" ? openDigest() : null;
  }

  write(bytes: Uint8Array): void {
    if (!bytes.length) return;
    this.buffer.append(bytes);
    // The chunk is the body stream's own (never reused), so the digest may read it while we go on.
    if (this.digest)
      this.lastWrite = this.digest.writer.write(bytes).catch((err: unknown) => err ?? new Error("digest failed"));
  }

  async finish(): Promise<ReceivedDocument> {
    const bytes = this.buffer.finish();
    if (this.digest) {
      const failed = await this.lastWrite;
      if (failed) throw failed;
      await this.digest.writer.close();
      return { bytes, sha256: toHex(new Uint8Array(await this.digest.stream.digest)) };
    }
    return { bytes, sha256: this.hash ? toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))) : null };
  }

  abandon(): void {
    this.digest?.writer.abort().catch(() => {});
  }
}

function openDigest() {
  const stream = new crypto.DigestStream("SHA-256");
  stream.digest.catch(() => {}); // rejects when abandoned; awaited only by finish()
  return { stream, writer: stream.getWriter() };
}

/**
 * A raw request body that is the document itself, hashed as it arrives when asked. The cap is `maxBytes`
 * (`tooLarge()` past it, before anything is read when the declared length says so); a client that
 * stalls is 408, one that goes away 499 (readChunk).
 */
export async function readRawDocument(
  body: ReadableStream<Uint8Array> | null,
  opts: { maxBytes: number; tooLarge: () => Error; contentLength?: number; idleTimeoutMs?: number; sha256: boolean },
): Promise<ReceivedDocument> {
  if (opts.contentLength !== undefined && opts.contentLength > opts.maxBytes) {
    await body?.cancel().catch(() => {});
    throw opts.tooLarge();
  }
  const sink = new DocumentSink(opts.maxBytes, opts.tooLarge, opts.sha256, opts.contentLength);
  if (!body) return sink.finish();
  return consumeBody(body, opts.idleTimeoutMs, {
    take: (chunk) => sink.write(chunk),
    finish: () => sink.finish(),
    abandon: () => sink.abandon(),
  });
}
