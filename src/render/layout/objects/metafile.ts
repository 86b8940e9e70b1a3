/**
 * Metafile pictures (model/wmf.ts) drawn into their boxes: each picture item of a laid-out page
 * whose image is a metafile becomes the metafile's text and lines, scaled from its logical window
 * into the box (fonts through the font book, as body text).
 */
import type { FontBook } from "../../fonts/types";
import type { ImageResource } from "../../model/types";
import type { MetafilePicture } from "../../model/wmf";
import type { LaidOutPage, PaintItem } from "../types";

export function drawMetafiles(
  pages: LaidOutPage[],
  images: ReadonlyMap<string, ImageResource> | undefined,
  fonts: FontBook,
): LaidOutPage[] {
  if (!images || ![...images.values()].some((i) => i.picture)) return pages;
  return pages.map((page) => {
    if (!page.items.some((i) => i.kind === "image" && images.get(i.image)?.picture)) return page;
    const items: PaintItem[] = [];
    for (const item of page.items) {
      const picture = item.kind === "image" ? images.get(item.image)?.picture : undefined;
      if (item.kind === "image" && picture) items.push(...metafileItems(picture, item, fonts));
      else items.push(item);
    }
    return { ...page, items };
  });
}

function metafileItems(
  pic: MetafilePicture,
  box: { x: number; y: number; width: number; height: number },
  fonts: FontBook,
): PaintItem[] {
  const sx = box.width / pic.width;
  const sy = box.height / pic.height;
  if (!Number.isFinite(sx) || !Number.isFinite(sy)) return [];
  const X = (x: number) => box.x + (x - pic.x) * sx;
  const Y = (y: number) => box.y + (y - pic.y) * sy;
  const out: PaintItem[] = [];
  for (const item of pic.items) {
    if (item.kind === "line") {
      out.push({
        kind: "line",
        x1: X(item.x1),
        y1: Y(item.y1),
        x2: X(item.x2),
        y2: Y(item.y2),
        width: Math.max(0.25, item.width * Math.abs(sy)),
        color: item.color,
      });
      continue;
    }
    const size = item.font.size * Math.abs(sy);
    if (!(size > 0.5) || size > 1000) continue;
    const req = { family: item.font.name, bold: item.font.bold, italic: item.font.italic };
    const primary = fonts.face(req);
    let x = X(item.x);
    const parts = fonts.split(item.text, req);
    const width = parts.reduce((w, p) => w + p.face.widthOf(p.text, size), 0);
    if (item.hAlign === "center") x -= width / 2;
    else if (item.hAlign === "right") x -= width;
    const y =
      item.vAlign === "baseline"
        ? Y(item.y)
        : item.vAlign === "top"
          ? Y(item.y) + primary.ascent(size)
          : Y(item.y) - primary.descent(size);
    for (const part of parts) {
      const w = part.face.widthOf(part.text, size);
      out.push({ kind: "text", x, y, text: part.text, face: part.face, size, color: item.color, width: w });
      x += w;
    }
  }
  return out;
}
