/**
 * Whether an image may be embedded: its header must parse (type and pixel size, never decoded) and
 * a PNG must be small enough to decode. pdf-lib decodes PNGs in memory (inflated rows, RGBA copy,
 * then colour and alpha planes: about 9 bytes per pixel), while JPEGs are copied as they are.
 */
import { readImageInfo } from "../../docx/images";
import { LIMITS } from "../../limits";

export function imageFits(bytes: Uint8Array, type: "png" | "jpeg"): boolean {
  try {
    const info = readImageInfo(bytes);
    if (info.type !== type) return false;
    return type !== "png" || info.width * info.height <= LIMITS.paint.maxPngPixels;
  } catch {
    return false; // corrupt or over the header-level pixel limit: the box stays empty
  }
}
