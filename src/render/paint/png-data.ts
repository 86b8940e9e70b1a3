/**
 * What decoding a PNG costs, checked before pdf-lib decodes it. A PNG's header gives the bytes its
 * image data must inflate to: per row, one filter byte and the row's pixels (each interlace pass
 * counting its own rows). pdf-lib's decoder inflates into a buffer of that size but keeps inflating
 * whatever follows, so a 3 MB file whose header says 2000 x 2000 grey and whose data inflates to
 * 3 GiB held the worker for 45 s. Here the data is inflated (and dropped) in small steps and the
 * check stops as soon as it passes the header's size.
 */
import { Inflate } from "fflate";

export interface PngHeader {
  width: number;
  height: number;
  /** Bytes the image data inflates to, from the header. */
  dataBytes: number;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;
/** Compressed bytes inflated per step: at most about 4 MB of output (deflate's 1032:1) before the next check. */
const STEP = 4 * 1024;

const be32 = (b: Uint8Array, o: number) => ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0;

/** The header of a PNG (IHDR right after the signature), or null when it is missing or impossible. */
export function readPngHeader(png: Uint8Array): PngHeader | null {
  if (png.length < 33 || be32(png, 8) !== 13 || String.fromCharCode(png[12]!, png[13]!, png[14]!, png[15]!) !== "IHDR")
    return null;
  const width = be32(png, 16);
  const height = be32(png, 20);
  const depth = png[24]!;
  const channels = CHANNELS[png[25]!];
  const interlace = png[28]!;
  if (!width || !height || !channels || ![1, 2, 4, 8, 16].includes(depth) || interlace > 1) return null;
  const rowBytes = (w: number) => Math.ceil((w * channels * depth) / 8) + 1;
  let dataBytes = 0;
  if (interlace === 0) dataBytes = height * rowBytes(width);
  else {
    for (const [x0, y0, dx, dy] of ADAM7) {
      const w = Math.ceil((width - x0) / dx);
      const h = Math.ceil((height - y0) / dy);
      if (w > 0 && h > 0) dataBytes += h * rowBytes(w);
    }
  }
  return { width, height, dataBytes };
}

/**
 * Inflates the PNG's image data (its IDAT chunks, read the way pdf-lib reads them: a raw deflate
 * stream after the 2-byte zlib header, the checksum ignored) and counts the bytes, stopping as
 * soon as they pass `header.dataBytes`. `inflated` is what was inflated (at most one step past
 * the header's size); `fits` is false when the data holds more than the header says.
 */
export function checkPngData(png: Uint8Array, header: PngHeader): { fits: boolean; inflated: number } {
  let inflated = 0;
  let over = false;
  const inflater = new Inflate((chunk) => {
    inflated += chunk.length;
    if (inflated > header.dataBytes) over = true;
  });
  let skip = 2; // the zlib header
  try {
    for (let at = 8; at + 8 <= png.length && !over;) {
      const length = be32(png, at);
      const type = String.fromCharCode(png[at + 4]!, png[at + 5]!, png[at + 6]!, png[at + 7]!);
      const data = png.subarray(at + 8, Math.min(png.length, at + 8 + length));
      if (type === "IEND") break;
      if (type === "IDAT") {
        const from = Math.min(skip, data.length);
        skip -= from;
        for (let o = from; o < data.length && !over; o += STEP)
          inflater.push(data.subarray(o, Math.min(o + STEP, data.length)), false);
      }
      at += 12 + length;
    }
  } catch {
    // Corrupt deflate data: pdf-lib fails on it too, and its box stays empty.
  }
  return { fits: !over, inflated };
}
