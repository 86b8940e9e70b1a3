import { describe, expect, it } from "vitest";
import { unzlibSync } from "fflate";
import { gifToPng } from "./gif-to-png";

/**
 * A GIF written the simplest valid way: 2-bit palette indices, each pixel's code preceded by a
 * clear code so every code stays 3 bits wide.
 */
function gif(
  width: number,
  height: number,
  palette: number[][],
  pixels: number[],
  opts: { transparent?: number; interlaced?: boolean } = {},
): Uint8Array {
  const out: number[] = [..."GIF89a"].map((c) => c.charCodeAt(0));
  out.push(width & 255, width >> 8, height & 255, height >> 8, 0x80 | 1, 0, 0); // global table of 4 colours
  for (let i = 0; i < 4; i++) out.push(...(palette[i] ?? [0, 0, 0]));
  if (opts.transparent !== undefined) out.push(0x21, 0xf9, 4, 1, 0, 0, opts.transparent, 0);
  out.push(0x2c, 0, 0, 0, 0, width & 255, width >> 8, height & 255, height >> 8, opts.interlaced ? 0x40 : 0);
  const codes: number[] = [];
  for (const p of pixels) codes.push(4, p); // clear, index
  codes.push(5); // end of information
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const c of codes) {
    acc |= c << bits;
    bits += 3;
    while (bits >= 8) {
      bytes.push(acc & 255);
      acc >>= 8;
      bits -= 8;
    }
  }
  if (bits > 0) bytes.push(acc & 255);
  out.push(2); // minimum code size
  for (let i = 0; i < bytes.length; i += 255) out.push(Math.min(255, bytes.length - i), ...bytes.slice(i, i + 255));
  out.push(0, 0x3b);
  return new Uint8Array(out);
}

/** RGBA rows of an 8-bit RGBA PNG written with filter 0 (as gifToPng writes them). */
function pixelsOf(png: Uint8Array): { width: number; height: number; rgba: number[][] } {
  const view = new DataView(png.buffer, png.byteOffset);
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  let at = 8;
  const idat: Uint8Array[] = [];
  while (at < png.length) {
    const len = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    if (type === "IDAT") idat.push(png.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  const raw = unzlibSync(idat[0]!);
  const rgba: number[][] = [];
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      rgba.push([...raw.subarray(y * (width * 4 + 1) + 1 + x * 4, y * (width * 4 + 1) + 5 + x * 4)]);
  return { width, height, rgba };
}

const RED = [255, 0, 0];
const BLUE = [0, 0, 255];
const WHITE = [255, 255, 255];

describe("gifToPng", () => {
  it("decodes the palette colours of every pixel into an RGBA PNG", () => {
    const png = gifToPng(gif(3, 2, [RED, BLUE, WHITE], [0, 1, 2, 2, 1, 0]), 1_000_000)!;
    const { width, height, rgba } = pixelsOf(png);
    expect([width, height]).toEqual([3, 2]);
    expect(rgba).toEqual([
      [...RED, 255],
      [...BLUE, 255],
      [...WHITE, 255],
      [...WHITE, 255],
      [...BLUE, 255],
      [...RED, 255],
    ]);
  });

  it("leaves the transparent index transparent and puts interlaced rows back in order", () => {
    expect(pixelsOf(gifToPng(gif(2, 1, [RED, BLUE], [0, 1], { transparent: 1 }), 100)!).rgba).toEqual([
      [...RED, 255],
      [0, 0, 0, 0],
    ]);
    // 1 x 4 interlaced: stored rows are y = 0, 2, 1, 3 (passes 1, 3, 4).
    const rows = pixelsOf(
      gifToPng(gif(1, 4, [RED, BLUE, WHITE, [0, 255, 0]], [0, 2, 1, 3], { interlaced: true }), 100)!,
    ).rgba;
    expect(rows).toEqual([
      [...RED, 255],
      [...BLUE, 255],
      [...WHITE, 255],
      [0, 255, 0, 255],
    ]);
  });

  it("refuses what is not a GIF, truncated or over the pixel budget, without throwing", () => {
    const good = gif(3, 2, [RED, BLUE, WHITE], [0, 1, 2, 2, 1, 0]);
    expect(gifToPng(new Uint8Array([1, 2, 3]), 100)).toBeNull();
    expect(gifToPng(good.subarray(0, 20), 100)).toBeNull();
    expect(gifToPng(good, 5)).toBeNull();
    // Random bytes after a valid header: null or a picture, never an exception or a hang.
    let seed = 7;
    for (let n = 0; n < 200; n++) {
      const junk = good.slice();
      for (let i = 13; i < junk.length; i++)
        if (((seed = (seed * 1103515245 + 12345) >>> 0) & 7) === 0) junk[i] = seed >>> 24;
      const png = gifToPng(junk, 100);
      if (png) expect(pixelsOf(png).width).toBeGreaterThan(0);
    }
  });
});
