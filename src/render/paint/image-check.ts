/**
 * Which pictures pdf-lib may embed, and what they cost. A JPEG is copied as it is; a PNG (or a
 * GIF, converted to PNG) is decoded in memory (inflated rows, RGBA copy, then colour and alpha
 * planes: about 9 bytes per pixel) and compressed again. So a PNG must have a readable header,
 * at most `LIMITS.paint.maxPngPixels` pixels and image data that inflates to no more than its
 * header says (`png-data.ts`); else its box stays empty. The pixels decoded count against the
 * document's image budget (`imageBudget()`), which refuses the document past it.
 */
import { readImageInfo } from "../../docx/images";
import { LIMITS } from "../../limits";
import type { WorkBudget } from "../../util/work-budget";
import type { ImageResource } from "../model/types";
import { gifToPng } from "./gif-to-png";
import { checkPngData, readPngHeader } from "./png-data";

export function embeddableImage(
  res: ImageResource | undefined,
  budget: WorkBudget,
): { type: "png" | "jpeg"; bytes: Uint8Array } | null {
  if (!res || res.type === "other") return null;
  const info = headerInfo(res.bytes);
  if (!info || info.type !== res.type) return null; // corrupt, or over the header-level pixel limit
  if (res.type === "jpeg") return { type: "jpeg", bytes: res.bytes };
  if (info.width * info.height > LIMITS.paint.maxPngPixels) return null;
  if (res.type === "gif") {
    // GIFs (picture bullets, old logos) are converted to PNG, which pdf-lib embeds.
    budget.tick(info.width * info.height);
    const png = gifToPng(res.bytes, LIMITS.paint.maxPngPixels);
    return png ? { type: "png", bytes: png } : null;
  }
  const header = readPngHeader(res.bytes);
  if (!header) return null;
  budget.tick(header.width * header.height);
  return checkPngData(res.bytes, header).fits ? { type: "png", bytes: res.bytes } : null;
}

function headerInfo(bytes: Uint8Array): ReturnType<typeof readImageInfo> | null {
  try {
    return readImageInfo(bytes);
  } catch {
    return null;
  }
}
