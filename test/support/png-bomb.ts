/**
 * Test support: a PNG whose header promises `width` x `height` 8-bit grey pixels and whose image
 * data inflates to `inflatedBytes` zero bytes: a decompression bomb built directly as one dynamic
 * Huffman deflate block (literal 0, then copies of 258 bytes at distance 1 coded in 2 bits each:
 * 1032 output bytes per compressed byte, deflate's best), so 3 GiB takes 3.1 MB and no time to make.
 * Runs in workerd and Node.
 */
import { PNG_SIGNATURE, pngChunk } from "../../src/render/paint/gif-to-png";
import { concatBytes } from "../../src/util/bytes";

class BitWriter {
  private bytes: number[] = [];
  private acc = 0;
  private n = 0;
  /** `count` bits of `value`, least significant first (deflate's header fields). */
  bits(value: number, count: number): void {
    for (let i = 0; i < count; i++) this.bit((value >>> i) & 1);
  }
  /** A Huffman code of `length` bits, most significant bit first. */
  code(code: number, length: number): void {
    for (let i = length - 1; i >= 0; i--) this.bit((code >>> i) & 1);
  }
  bit(b: number): void {
    this.acc |= b << this.n;
    if (++this.n === 8) this.flush();
  }
  private flush(): void {
    this.bytes.push(this.acc);
    this.acc = 0;
    this.n = 0;
  }
  /** The bytes so far, then `zeroBits` zero bits, then `tail` written by the callback. */
  finish(zeroBits: number, tail: (w: BitWriter) => void): Uint8Array {
    // Fill the current byte with zeros, then whole zero bytes, then the rest bit by bit.
    let left = zeroBits;
    while (left > 0 && this.n !== 0) {
      this.bit(0);
      left--;
    }
    const head = Uint8Array.from(this.bytes);
    const zeroBytes = Math.floor(left / 8);
    this.bytes = [];
    for (let i = 0; i < left % 8; i++) this.bit(0);
    tail(this);
    if (this.n > 0) this.flush();
    const out = new Uint8Array(head.length + zeroBytes + this.bytes.length);
    out.set(head);
    out.set(this.bytes, head.length + zeroBytes);
    return out;
  }
}

/** A zlib stream inflating to at least `size` zero bytes (1 + 258 k of them). */
export function zeroBombZlib(size: number): Uint8Array {
  const copies = Math.max(0, Math.ceil((size - 1) / 258));
  const w = new BitWriter();
  w.bits(1, 1); // BFINAL
  w.bits(2, 2); // dynamic Huffman
  w.bits(29, 5); // HLIT: 286 literal/length codes
  w.bits(0, 5); // HDIST: 1 distance code
  w.bits(14, 4); // HCLEN: 18 code length codes
  // Code length code lengths in deflate's order 16,17,18,0,8,7,9,6,10,5,11,4,12,3,13,2,14,1: 18 -> 1 bit, 2 and 1 -> 2 bits.
  for (const len of [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2]) w.bits(len, 3);
  // Canonical codes of the code-length alphabet: 18 = 0, 1 = 10, 2 = 11.
  const zeros = (n: number) => {
    while (n > 0) {
      const k = Math.min(138, n);
      w.code(0, 1);
      w.bits(k - 11, 7);
      n -= k;
    }
  };
  w.code(0b11, 2); // literal 0: length 2
  zeros(255);
  w.code(0b11, 2); // 256 (end of block): length 2
  zeros(28);
  w.code(0b10, 2); // 285 (length 258): length 1
  w.code(0b10, 2); // distance code 0: length 1
  // Literal/length codes: 285 = 0, 0 = 10, 256 = 11; distance 0 = 0.
  w.code(0b10, 2); // literal 0
  return zlibWrap(
    w.finish(copies * 2, (t) => t.code(0b11, 2)),
    1 + copies * 258,
  );
}

function zlibWrap(deflate: Uint8Array, inflatedSize: number): Uint8Array {
  const out = new Uint8Array(2 + deflate.length + 4);
  out.set([0x78, 0x01]);
  out.set(deflate, 2);
  // Adler-32 of zeros: a stays 1, b adds 1 per byte.
  const b = inflatedSize % 65521;
  new DataView(out.buffer).setUint32(2 + deflate.length, ((b << 16) | 1) >>> 0);
  return out;
}

/** An 8-bit grey PNG of `width` x `height` whose image data inflates to `inflatedBytes` zeros. */
export function inflationBombPng(width: number, height: number, inflatedBytes: number): Uint8Array {
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const data = zeroBombZlib(inflatedBytes);
  const idat: Uint8Array[] = [];
  for (let at = 0; at < data.length; at += 1 << 20) idat.push(pngChunk("IDAT", data.subarray(at, at + (1 << 20))));
  return concatBytes([PNG_SIGNATURE, pngChunk("IHDR", ihdr), ...idat, pngChunk("IEND", new Uint8Array(0))]);
}
