import { PdfUnparseable } from "../../errors";
import { LIMITS } from "../../limits";

/**
 * A budget of `LIMITS.pdf` (or of the verifier, `LIMITS.verify`) was exceeded: 422
 * `pdf_too_complex`. Still a `PdfUnparseable` for callers; the reader's recovery paths
 * never swallow it (a hostile file must not be "repaired" into doing the same work again).
 */
export class PdfBudgetExceeded extends PdfUnparseable {
  constructor(message: string) {
    super(message, "pdf_too_complex");
  }
}

/** The reader's budgets (`LIMITS.pdf`), widened to plain numbers so callers and tests can lower them. */
export type PdfLimits = { -readonly [K in keyof typeof LIMITS.pdf]: number };

/**
 * Per-reader accounting: a work counter (objects parsed, references resolved,
 * page-tree nodes visited) and the total of decoded stream bytes. Exceeding a
 * budget throws `PdfUnparseable` naming the limit.
 */
export class Budget {
  readonly limits: PdfLimits;
  work = 0;
  inflated = 0;
  /** Objects parsed (each is parsed once and kept): what reading a file costs, in time and memory. */
  parsed = 0;

  constructor(overrides?: Partial<PdfLimits>) {
    const limits: PdfLimits = { ...LIMITS.pdf };
    if (overrides) {
      for (const [k, v] of Object.entries(overrides)) {
        if (typeof v === "number" && Number.isFinite(v) && v >= 0 && k in limits) limits[k as keyof PdfLimits] = v;
      }
    }
    this.limits = limits;
  }

  tick(units = 1): void {
    this.work += units;
    if (this.work > this.limits.maxWorkUnits) {
      throw new PdfBudgetExceeded(
        `Reading this PDF needs more than ${this.limits.maxWorkUnits} units of work (objects parsed and references followed); it is too complex or hostile.`,
      );
    }
  }

  /** Counts one object parsed from the file or from an object stream. */
  objectParsed(): void {
    if (++this.parsed > this.limits.maxParsedObjects) {
      throw new PdfBudgetExceeded(
        `Reading this PDF means parsing more than ${this.limits.maxParsedObjects} objects (limit maxParsedObjects); it is too large or too complex to check here.`,
      );
    }
  }

  /** Bytes one more decoded stream may still produce (the smaller of the per-stream and remaining total caps). */
  streamRoom(): { cap: number; perStream: boolean } {
    const total = this.limits.maxInflatedBytes - this.inflated;
    const per = this.limits.maxStreamBytes;
    return per <= total ? { cap: per, perStream: true } : { cap: Math.max(0, total), perStream: false };
  }

  addInflated(n: number): void {
    this.inflated += n;
  }

  depthExceeded(): PdfUnparseable {
    return new PdfBudgetExceeded(`The PDF nests arrays or dictionaries deeper than ${this.limits.maxDepth} levels.`);
  }
}

/**
 * A bounded output buffer for stream decoders. Writing past `cap` throws
 * `PdfBudgetExceeded` before anything larger than the cap is allocated. Data is
 * kept as a list of blocks (no doubling copies), joined once at the end.
 */
export class Sink {
  /** The current block: byte-level writers write at the index `reserve` returns. */
  buf: Uint8Array;
  /** Total bytes written. */
  len = 0;
  private used = 0;
  private readonly blocks: Uint8Array[] = [];

  constructor(
    readonly cap: number,
    private readonly perStream: boolean,
    sizeHint: number,
  ) {
    this.buf = new Uint8Array(Math.max(64, Math.min(cap, sizeHint, 1 << 20)));
  }

  room(): number {
    return this.cap - this.len;
  }

  /** Drops everything written (a decoder starting over). */
  reset(): void {
    this.blocks.length = 0;
    this.used = 0;
    this.len = 0;
  }

  /** Makes room for `n` more bytes in `buf`; returns the write position there. */
  reserve(n: number): number {
    if (this.len + n > this.cap) this.overflow();
    if (this.used + n > this.buf.length) {
      this.flush();
      this.buf = new Uint8Array(Math.max(n, Math.min(this.cap - this.len, Math.max(65536, this.len >> 1))));
    }
    const at = this.used;
    this.used += n;
    this.len += n;
    return at;
  }

  /** Appends a chunk; large chunks are kept as they are (the caller must not reuse them). */
  write(chunk: Uint8Array): void {
    if (chunk.length >= 4096) {
      if (this.len + chunk.length > this.cap) this.overflow();
      this.flush();
      this.blocks.push(chunk);
      this.len += chunk.length;
      return;
    }
    const at = this.reserve(chunk.length);
    this.buf.set(chunk, at);
  }

  byte(b: number): void {
    if (this.used < this.buf.length && this.len < this.cap) {
      this.buf[this.used++] = b;
      this.len++;
    } else this.buf[this.reserve(1)] = b;
  }

  result(): Uint8Array {
    if (this.blocks.length === 0) return this.used === this.buf.length ? this.buf : this.buf.slice(0, this.used);
    this.flush();
    if (this.blocks.length === 1) return this.blocks[0]!;
    const out = new Uint8Array(this.len);
    let at = 0;
    for (const b of this.blocks) {
      out.set(b, at);
      at += b.length;
    }
    return out;
  }

  private flush(): void {
    if (this.used > 0) this.blocks.push(this.buf.subarray(0, this.used));
    this.buf = this.buf.subarray(this.used);
    this.used = 0;
  }

  private overflow(): never {
    throw new PdfBudgetExceeded(
      this.perStream
        ? `A stream of the PDF decodes to more than ${this.cap} bytes (limit maxStreamBytes); it is a decompression bomb or too large.`
        : `The streams of the PDF decode to more bytes in total than the reader allows (limit maxInflatedBytes).`,
    );
  }
}
