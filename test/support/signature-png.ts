/**
 * A drawn signature as SuperDoc's e-sign pad gives it: an RGBA PNG, transparent background, a dark
 * blue stroke (a looping curve), made here (no image library). Node and workerd.
 */
import { dataUri, encodePng } from "./png-images";

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
  return encodePng(width, height, 6, raw); // 8-bit RGBA
}

export const pngDataUri = (png: Uint8Array) => dataUri(png, "image/png");
