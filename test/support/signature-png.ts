/**
 * A drawn signature as SuperDoc's e-sign pad gives it: an RGBA PNG, transparent background, a dark
 * blue stroke (a looping curve), made here with zlib and CRC (no image library). Node and workerd.
 */
import { zlibSync } from "fflate";
import { crc32 } from "../../src/docx/zip";

export function drawnSignaturePng(width = 300, height = 100): Uint8Array {
  const stride = 1 + width * 4;
  const raw = new Uint8Array(stride * height);
  const ink = (x: number, y: number) => {
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const px = Math.round(x) + dx;
        const py = Math.round(y) + dy;
        if (px < 0 || py < 0 || px >= width || py >= height) continue;
        raw.set([20, 40, 120, 255], py * stride + 1 + px * 4);
      }
    }
  };
  for (let t = 0; t <= 1; t += 1 / (width * 8)) {
    const x = 10 + t * (width - 20);
    const y = height / 2 + Math.sin(t * Math.PI * 5) * height * 0.3 + Math.cos(t * Math.PI * 13) * height * 0.08;
    ink(x, y);
  }
  const chunk = (type: string, data: Uint8Array) => {
    const out = new Uint8Array(12 + data.length);
    const dv = new DataView(out.buffer);
    dv.setUint32(0, data.length);
    for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
    out.set(data, 8);
    dv.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
    return out;
  };
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, width);
  new DataView(ihdr.buffer).setUint32(4, height);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  const parts = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", zlibSync(raw)), chunk("IEND", new Uint8Array(0))];
  const png = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    png.set(p, at);
    at += p.length;
  }
  return png;
}

export function pngDataUri(png: Uint8Array): string {
  let s = "";
  for (let i = 0; i < png.length; i += 0x8000) s += String.fromCharCode(...png.subarray(i, i + 0x8000));
  return `data:image/png;base64,${btoa(s)}`;
}
