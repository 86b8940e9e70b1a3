/**
 * Side-by-side page images for the fidelity report: first pages rasterised by `pdftoppm` (PPM),
 * placed left (Signet) and right (LibreOffice) on a grey strip, written as PNG. No ImageMagick.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { crc32, deflateSync } from "node:zlib";

const run = promisify(execFile);

export interface Rgb {
  width: number;
  height: number;
  /** width × height × 3 bytes. */
  data: Uint8Array;
}

/** Parses binary PPM (P6, maxval 255) as pdftoppm writes it. */
export function parsePpm(bytes: Uint8Array): Rgb {
  let at = 0;
  const token = () => {
    for (;;) {
      while (at < bytes.length && /\s/.test(String.fromCharCode(bytes[at]!))) at++;
      if (bytes[at] !== 0x23) break; // '#' comment line
      while (at < bytes.length && bytes[at] !== 0x0a) at++;
    }
    const start = at;
    while (at < bytes.length && !/\s/.test(String.fromCharCode(bytes[at]!))) at++;
    return new TextDecoder().decode(bytes.subarray(start, at));
  };
  if (token() !== "P6") throw new Error("not a binary PPM");
  const width = Number(token());
  const height = Number(token());
  if (Number(token()) !== 255) throw new Error("PPM maxval must be 255");
  at++; // the single whitespace byte before the raster
  return { width, height, data: bytes.subarray(at, at + width * height * 3) };
}

/** First page of a PDF at `dpi`, as RGB. */
export async function firstPageRgb(pdf: Uint8Array, dpi = 50): Promise<Rgb> {
  const dir = mkdtempSync(join(tmpdir(), "signet-ppm-"));
  try {
    writeFileSync(join(dir, "in.pdf"), pdf);
    await run(
      "pdftoppm",
      ["-r", String(dpi), "-f", "1", "-l", "1", "-singlefile", join(dir, "in.pdf"), join(dir, "page")],
      { timeout: 120_000 },
    );
    return parsePpm(new Uint8Array(readFileSync(join(dir, "page.ppm"))));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Images side by side with a gap, on grey, top-aligned. */
export function sideBySide(images: Rgb[], gap = 12): Rgb {
  const width = images.reduce((n, im) => n + im.width, 0) + gap * (images.length + 1);
  const height = Math.max(...images.map((im) => im.height)) + 2 * gap;
  const data = new Uint8Array(width * height * 3).fill(0x90);
  let x0 = gap;
  for (const im of images) {
    for (let y = 0; y < im.height; y++) {
      data.set(im.data.subarray(y * im.width * 3, (y + 1) * im.width * 3), ((y + gap) * width + x0) * 3);
    }
    x0 += im.width + gap;
  }
  return { width, height, data };
}

export function encodePng(img: Rgb): Uint8Array {
  const raw = new Uint8Array((img.width * 3 + 1) * img.height);
  for (let y = 0; y < img.height; y++)
    raw.set(img.data.subarray(y * img.width * 3, (y + 1) * img.width * 3), y * (img.width * 3 + 1) + 1);
  const chunk = (type: string, body: Uint8Array) => {
    const out = new Uint8Array(12 + body.length);
    const dv = new DataView(out.buffer);
    dv.setUint32(0, body.length);
    out.set(new TextEncoder().encode(type), 4);
    out.set(body, 8);
    dv.setUint32(8 + body.length, crc32(out.subarray(4, 8 + body.length)));
    return out;
  };
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, img.width);
  new DataView(ihdr.buffer).setUint32(4, img.height);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", new Uint8Array()),
  ];
  const png = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    png.set(part, at);
    at += part.length;
  }
  return png;
}

/** Writes `<out>`: Signet's first page | LibreOffice's first page. */
export async function writePair(ours: Uint8Array, reference: Uint8Array, out: string, dpi = 50): Promise<void> {
  const [a, b] = await Promise.all([firstPageRgb(ours, dpi), firstPageRgb(reference, dpi)]);
  writeFileSync(out, encodePng(sideBySide([a, b])));
}
