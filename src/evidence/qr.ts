/**
 * A small QR Code encoder (ISO/IEC 18004): byte mode, error correction level M,
 * versions 1–10 (up to 213 bytes of UTF-8), automatic mask selection.
 *
 * Written for the certificate page: the pdfme barcode schema goes through
 * bwip-js, whose browser build (the one workerd resolves) has no `toBuffer`.
 * The matrix is drawn as vector squares instead of a raster image.
 */

/** Square matrix of modules, `true` = dark. Row-major: `modules[y][x]`. No quiet zone. */
export interface QrMatrix {
  version: number;
  size: number;
  modules: boolean[][];
}

/** Error-correction level M block layout, index = version - 1. */
const ECC_M: readonly { ecPerBlock: number; groups: readonly [blocks: number, dataPerBlock: number][] }[] = [
  { ecPerBlock: 10, groups: [[1, 16]] },
  { ecPerBlock: 16, groups: [[1, 28]] },
  { ecPerBlock: 26, groups: [[1, 44]] },
  { ecPerBlock: 18, groups: [[2, 32]] },
  { ecPerBlock: 24, groups: [[2, 43]] },
  { ecPerBlock: 16, groups: [[4, 27]] },
  { ecPerBlock: 18, groups: [[4, 31]] },
  {
    ecPerBlock: 22,
    groups: [
      [2, 38],
      [2, 39],
    ],
  },
  {
    ecPerBlock: 22,
    groups: [
      [3, 36],
      [2, 37],
    ],
  },
  {
    ecPerBlock: 26,
    groups: [
      [4, 43],
      [1, 44],
    ],
  },
];

/** Alignment pattern centre coordinates, index = version - 1. */
const ALIGNMENT: readonly (readonly number[])[] = [
  [],
  [6, 18],
  [6, 22],
  [6, 26],
  [6, 30],
  [6, 34],
  [6, 22, 38],
  [6, 24, 42],
  [6, 26, 46],
  [6, 28, 50],
];

export const QR_MAX_VERSION = 10;

function dataCapacity(version: number): number {
  const spec = ECC_M[version - 1]!;
  return spec.groups.reduce((sum, [blocks, per]) => sum + blocks * per, 0);
}

/** Largest payload (bytes) that fits: 213 at version 10-M. */
export const QR_MAX_BYTES = dataCapacity(QR_MAX_VERSION) - 3;

// ---- GF(256) arithmetic, primitive polynomial x^8 + x^4 + x^3 + x^2 + 1 ----

function gfMultiply(x: number, y: number): number {
  let z = 0;
  for (let i = 7; i >= 0; i--) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((y >>> i) & 1) * x;
  }
  return z & 0xff;
}

/** Generator polynomial of the given degree, highest coefficient (always 1) dropped. */
function rsDivisor(degree: number): number[] {
  const result = new Array<number>(degree).fill(0);
  result[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      result[j] = gfMultiply(result[j]!, root);
      if (j + 1 < degree) result[j] = result[j]! ^ result[j + 1]!;
    }
    root = gfMultiply(root, 0x02);
  }
  return result;
}

function rsRemainder(data: readonly number[], divisor: readonly number[]): number[] {
  const result = new Array<number>(divisor.length).fill(0);
  for (const b of data) {
    const factor = b ^ result.shift()!;
    result.push(0);
    for (let i = 0; i < divisor.length; i++) result[i] = result[i]! ^ gfMultiply(divisor[i]!, factor);
  }
  return result;
}

// ---- data encoding ----

function encodeCodewords(payload: Uint8Array, version: number): number[] {
  const capacityBits = dataCapacity(version) * 8;
  const bits: number[] = [];
  const push = (value: number, length: number) => {
    for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1);
  };
  push(0b0100, 4); // byte mode
  push(payload.length, version <= 9 ? 8 : 16);
  for (const b of payload) push(b, 8);
  push(0, Math.min(4, capacityBits - bits.length)); // terminator
  push(0, (8 - (bits.length % 8)) % 8);
  for (let pad = 0xec; bits.length < capacityBits; pad ^= 0xec ^ 0x11) push(pad, 8);

  const data: number[] = [];
  for (let i = 0; i < bits.length; i += 8) {
    let byte = 0;
    for (let j = 0; j < 8; j++) byte = (byte << 1) | bits[i + j]!;
    data.push(byte);
  }

  // Split into blocks, add error correction, interleave.
  const spec = ECC_M[version - 1]!;
  const divisor = rsDivisor(spec.ecPerBlock);
  const dataBlocks: number[][] = [];
  const ecBlocks: number[][] = [];
  let offset = 0;
  for (const [blocks, per] of spec.groups) {
    for (let b = 0; b < blocks; b++) {
      const block = data.slice(offset, offset + per);
      offset += per;
      dataBlocks.push(block);
      ecBlocks.push(rsRemainder(block, divisor));
    }
  }
  const result: number[] = [];
  const longest = Math.max(...dataBlocks.map((b) => b.length));
  for (let i = 0; i < longest; i++) for (const block of dataBlocks) if (i < block.length) result.push(block[i]!);
  for (let i = 0; i < spec.ecPerBlock; i++) for (const block of ecBlocks) result.push(block[i]!);
  return result;
}

// ---- matrix construction ----

class Builder {
  readonly version: number;
  readonly size: number;
  readonly modules: boolean[][];
  readonly isFunction: boolean[][];

  constructor(version: number) {
    this.version = version;
    this.size = version * 4 + 17;
    this.modules = Array.from({ length: this.size }, () => new Array<boolean>(this.size).fill(false));
    this.isFunction = Array.from({ length: this.size }, () => new Array<boolean>(this.size).fill(false));
  }

  setFunction(x: number, y: number, dark: boolean): void {
    this.modules[y]![x] = dark;
    this.isFunction[y]![x] = true;
  }

  drawFunctionPatterns(): void {
    const size = this.size;
    for (let i = 0; i < size; i++) {
      this.setFunction(6, i, i % 2 === 0);
      this.setFunction(i, 6, i % 2 === 0);
    }
    this.drawFinder(3, 3);
    this.drawFinder(size - 4, 3);
    this.drawFinder(3, size - 4);
    const positions = ALIGNMENT[this.version - 1]!;
    const last = positions.length - 1;
    for (let i = 0; i < positions.length; i++) {
      for (let j = 0; j < positions.length; j++) {
        if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) continue;
        this.drawAlignment(positions[i]!, positions[j]!);
      }
    }
    this.drawFormatBits(0); // reserve; overwritten once the mask is chosen
    this.drawVersion();
  }

  private drawFinder(cx: number, cy: number): void {
    for (let dy = -4; dy <= 4; dy++) {
      for (let dx = -4; dx <= 4; dx++) {
        const x = cx + dx;
        const y = cy + dy;
        if (x < 0 || y < 0 || x >= this.size || y >= this.size) continue;
        const dist = Math.max(Math.abs(dx), Math.abs(dy));
        this.setFunction(x, y, dist !== 2 && dist !== 4);
      }
    }
  }

  private drawAlignment(cx: number, cy: number): void {
    for (let dy = -2; dy <= 2; dy++) {
      for (let dx = -2; dx <= 2; dx++) {
        this.setFunction(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
      }
    }
  }

  drawFormatBits(mask: number): void {
    const data = (0b00 << 3) | mask; // level M = 00
    let rem = data;
    for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
    const bits = ((data << 10) | rem) ^ 0x5412;
    const bit = (i: number) => ((bits >>> i) & 1) !== 0;
    const size = this.size;
    for (let i = 0; i <= 5; i++) this.setFunction(8, i, bit(i));
    this.setFunction(8, 7, bit(6));
    this.setFunction(8, 8, bit(7));
    this.setFunction(7, 8, bit(8));
    for (let i = 9; i < 15; i++) this.setFunction(14 - i, 8, bit(i));
    for (let i = 0; i < 8; i++) this.setFunction(size - 1 - i, 8, bit(i));
    for (let i = 8; i < 15; i++) this.setFunction(8, size - 15 + i, bit(i));
    this.setFunction(8, size - 8, true); // the dark module
  }

  private drawVersion(): void {
    if (this.version < 7) return;
    let rem = this.version;
    for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
    const bits = (this.version << 12) | rem;
    for (let i = 0; i < 18; i++) {
      const dark = ((bits >>> i) & 1) !== 0;
      const a = this.size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      this.setFunction(a, b, dark);
      this.setFunction(b, a, dark);
    }
  }

  drawCodewords(codewords: readonly number[]): void {
    const size = this.size;
    let i = 0;
    for (let right = size - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5; // skip the vertical timing column
      for (let vert = 0; vert < size; vert++) {
        for (let j = 0; j < 2; j++) {
          const x = right - j;
          const upward = ((right + 1) & 2) === 0;
          const y = upward ? size - 1 - vert : vert;
          if (!this.isFunction[y]![x] && i < codewords.length * 8) {
            this.modules[y]![x] = ((codewords[i >>> 3]! >>> (7 - (i & 7))) & 1) !== 0;
            i++;
          }
        }
      }
    }
  }

  applyMask(mask: number): void {
    for (let y = 0; y < this.size; y++) {
      for (let x = 0; x < this.size; x++) {
        if (this.isFunction[y]![x]) continue;
        let invert: boolean;
        switch (mask) {
          case 0:
            invert = (x + y) % 2 === 0;
            break;
          case 1:
            invert = y % 2 === 0;
            break;
          case 2:
            invert = x % 3 === 0;
            break;
          case 3:
            invert = (x + y) % 3 === 0;
            break;
          case 4:
            invert = (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0;
            break;
          case 5:
            invert = ((x * y) % 2) + ((x * y) % 3) === 0;
            break;
          case 6:
            invert = (((x * y) % 2) + ((x * y) % 3)) % 2 === 0;
            break;
          default:
            invert = (((x + y) % 2) + ((x * y) % 3)) % 2 === 0;
            break;
        }
        if (invert) this.modules[y]![x] = !this.modules[y]![x];
      }
    }
  }

  /** Penalty score of the current matrix (rules N1–N4 of the standard). */
  penalty(): number {
    const size = this.size;
    const m = this.modules;
    let score = 0;
    // Rows and columns as 0/1 arrays padded with light modules (the quiet zone),
    // so the pattern checks below are plain index reads (8 masks per symbol).
    const LEFT = 8;
    const padded = new Uint8Array(LEFT + size + 10);
    for (let line = 0; line < 2 * size; line++) {
      const horizontal = line < size;
      const a = horizontal ? line : line - size;
      for (let b = 0; b < size; b++) padded[LEFT + b] = (horizontal ? m[a]![b] : m[b]![a]) ? 1 : 0;
      // N1: runs of five or more same-coloured modules.
      let run = 1;
      for (let b = 1; b <= size; b++) {
        if (b < size && padded[LEFT + b] === padded[LEFT + b - 1]) {
          run++;
        } else {
          if (run >= 5) score += 3 + (run - 5);
          run = 1;
        }
      }
      // N3: finder-like 1:1:3:1:1 patterns with four light modules on one side.
      for (let b = -4; b < size; b++) {
        const i = LEFT + b;
        if (!(
          padded[i] &&
          !padded[i + 1] &&
          padded[i + 2] &&
          padded[i + 3] &&
          padded[i + 4] &&
          !padded[i + 5] &&
          padded[i + 6]
        ))
          continue;
        const lightBefore = !padded[i - 1] && !padded[i - 2] && !padded[i - 3] && !padded[i - 4];
        const lightAfter = !padded[i + 7] && !padded[i + 8] && !padded[i + 9] && !padded[i + 10];
        if (lightBefore || lightAfter) score += 40;
      }
    }
    // N2: 2x2 blocks of one colour.
    for (let y = 0; y < size - 1; y++) {
      for (let x = 0; x < size - 1; x++) {
        const c = m[y]![x];
        if (c === m[y]![x + 1] && c === m[y + 1]![x] && c === m[y + 1]![x + 1]) score += 3;
      }
    }
    // N4: balance of dark and light modules.
    let dark = 0;
    for (const row of m) for (const cell of row) if (cell) dark++;
    const total = size * size;
    const k = Math.ceil(Math.abs(dark * 20 - total * 10) / total) - 1;
    score += Math.max(0, k) * 10;
    return score;
  }
}

/** Recent symbols: a certificate checks its payload before drawing it, and draws it once. */
const recent = new Map<string, QrMatrix>();

/** Encodes `text` (as UTF-8) into a QR symbol, level M, the smallest version 1–10 that fits. Treat it as read-only. */
export function encodeQr(text: string): QrMatrix {
  const hit = recent.get(text);
  if (hit) return hit;
  const symbol = encodeSymbol(text);
  if (recent.size >= 8) recent.delete(recent.keys().next().value!);
  recent.set(text, symbol);
  return symbol;
}

function encodeSymbol(text: string): QrMatrix {
  const payload = new TextEncoder().encode(text);
  let version = 0;
  for (let v = 1; v <= QR_MAX_VERSION; v++) {
    const headerBits = 4 + (v <= 9 ? 8 : 16);
    if (headerBits + payload.length * 8 <= dataCapacity(v) * 8) {
      version = v;
      break;
    }
  }
  if (version === 0) {
    throw new RangeError(`QR payload too long: ${payload.length} bytes (at most ${QR_MAX_BYTES})`);
  }
  const codewords = encodeCodewords(payload, version);

  let best: Builder | undefined;
  let bestScore = Infinity;
  for (let mask = 0; mask < 8; mask++) {
    const builder = new Builder(version);
    builder.drawFunctionPatterns();
    builder.drawCodewords(codewords);
    builder.applyMask(mask);
    builder.drawFormatBits(mask);
    const score = builder.penalty();
    if (score < bestScore) {
      best = builder;
      bestScore = score;
    }
  }
  return { version, size: best!.size, modules: best!.modules };
}
