/**
 * Byte buffers that grow as a body arrives: one copy of each incoming chunk, growth by
 * `ArrayBuffer.prototype.transfer` where the runtime has it (the old buffer's memory goes back at
 * once rather than at the next GC), trimmed once at the end.
 */

interface TransferableBuffer {
  transfer?: (newLength?: number) => ArrayBuffer;
}

/** A buffer of `size` bytes holding `out`'s first bytes, made by `ArrayBuffer.prototype.transfer` (which
 * detaches `out`, releasing its memory now, and may resize in place); null where unavailable. */
export function transferBuffer(out: Uint8Array, size: number): Uint8Array | null {
  const buffer = out.buffer as ArrayBuffer & TransferableBuffer;
  if (typeof buffer.transfer !== "function" || out.byteOffset !== 0 || out.length !== buffer.byteLength) return null;
  try {
    return new Uint8Array(buffer.transfer(size));
  } catch {
    return null;
  }
}

/** `out[0..len)`, as a view when the slack is small, else as an exact buffer (moved, not copied, if possible). */
export function trimBytes(out: Uint8Array, len: number): Uint8Array {
  const slack = out.length - len;
  if (slack === 0) return out;
  if (slack < 64 * 1024 || slack * 8 < len) return out.subarray(0, len);
  return transferBuffer(out, len) ?? out.slice(0, len);
}

/**
 * Bytes appended chunk by chunk up to `maxBytes` (`onTooLarge` builds the error thrown past it).
 * `sizeHint` (e.g. a declared Content-Length) pre-sizes the buffer, never beyond the cap.
 */
export class GrowableBytes {
  private out: Uint8Array;
  private length = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly onTooLarge: () => Error,
    sizeHint = 0,
  ) {
    this.out = new Uint8Array(Math.min(maxBytes, Math.max(sizeHint, 1024)));
  }

  get size(): number {
    return this.length;
  }

  append(bytes: Uint8Array): void {
    const need = this.length + bytes.length;
    if (need > this.maxBytes) throw this.onTooLarge();
    if (need > this.out.length) {
      const size = Math.min(this.maxBytes, Math.max(need, this.out.length * 2));
      const moved = transferBuffer(this.out, size);
      if (moved) {
        this.out = moved;
      } else {
        const next = new Uint8Array(size);
        next.set(this.out.subarray(0, this.length));
        this.out = next;
      }
    }
    this.out.set(bytes, this.length);
    this.length = need;
  }

  /** The bytes appended (the buffer is not used afterwards). */
  finish(): Uint8Array {
    return trimBytes(this.out, this.length);
  }
}
