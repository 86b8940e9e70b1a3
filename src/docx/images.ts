/**
 * Pictures for image and signature fields: type and pixel size read from the file header (PNG
 * IHDR, GIF screen descriptor, JPEG SOFn marker), never decoded; extents in EMU; the inline
 * DrawingML that Word writes for a picture.
 */
import { UnprocessableContent } from "../errors";
import { LIMITS } from "../limits";
import { escapeAttr } from "./xml";

export type ImageType = "png" | "jpeg" | "gif";

export interface ImageInfo {
  type: ImageType;
  width: number;
  height: number;
}

export const IMAGE_CONTENT_TYPES: Record<ImageType, string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  gif: "image/gif",
};
export const IMAGE_EXTENSIONS: Record<ImageType, string> = { png: "png", jpeg: "jpeg", gif: "gif" };

/** CSS pixel in EMU (interface.md: 1 px = 9525 EMU). */
export const EMU_PER_PX = 9525;

const bad = (msg: string) => new UnprocessableContent("image_invalid", msg);

const be16 = (b: Uint8Array, o: number) => (b[o]! << 8) | b[o + 1]!;
const be32 = (b: Uint8Array, o: number) => ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0;
const le16 = (b: Uint8Array, o: number) => b[o]! | (b[o + 1]! << 8);

function startsWith(b: Uint8Array, sig: number[]): boolean {
  return b.length >= sig.length && sig.every((v, i) => b[i] === v);
}

/** The type of an image from its first bytes, or null. */
export function sniffImageType(b: Uint8Array): ImageType | null {
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(b, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(b, [0x47, 0x49, 0x46, 0x38]) && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61) return "gif";
  return null;
}

/** Reads type and size from the header. Throws `image_invalid` / `image_too_large`. */
export function readImageInfo(b: Uint8Array, label = "The image"): ImageInfo {
  const type = sniffImageType(b);
  if (!type) throw bad(`${label} is not a PNG, JPEG or GIF file.`);
  let width = 0;
  let height = 0;
  if (type === "png") {
    if (b.length < 33 || be32(b, 8) !== 13 || String.fromCharCode(b[12]!, b[13]!, b[14]!, b[15]!) !== "IHDR") {
      throw bad(`${label} is a truncated or corrupt PNG (no IHDR chunk).`);
    }
    width = be32(b, 16);
    height = be32(b, 20);
  } else if (type === "gif") {
    if (b.length < 13) throw bad(`${label} is a truncated GIF.`);
    width = le16(b, 6);
    height = le16(b, 8);
  } else {
    let p = 2;
    for (;;) {
      while (p < b.length && b[p] === 0xff) p++; // fill bytes
      if (p >= b.length) throw bad(`${label} is a JPEG without a frame header.`);
      const marker = b[p++]!;
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue;
      if (marker === 0xd9 || marker === 0xda) throw bad(`${label} is a JPEG without a frame header.`);
      if (p + 2 > b.length) throw bad(`${label} is a truncated JPEG.`);
      const len = be16(b, p);
      if (len < 2) throw bad(`${label} is a corrupt JPEG.`);
      const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (isSof) {
        if (p + 7 > b.length) throw bad(`${label} is a truncated JPEG.`);
        height = be16(b, p + 3);
        width = be16(b, p + 5);
        break;
      }
      p += len;
    }
  }
  if (!(width > 0 && height > 0)) throw bad(`${label} has no size (${width}x${height}).`);
  if (width * height > LIMITS.docx.maxImagePixels) {
    throw new UnprocessableContent(
      "image_too_large",
      `${label} is ${width}x${height} pixels; the limit is ${LIMITS.docx.maxImagePixels} pixels.`,
    );
  }
  return { type, width, height };
}

/** Media types a source may claim for an image, normalized; null when it claims nothing useful. */
export function claimedImageType(mediaType: string | null | undefined): ImageType | "other" | null {
  if (!mediaType) return null;
  const t = mediaType.split(";")[0]!.trim().toLowerCase();
  if (t === "image/png" || t === "image/x-png" || t === "image/apng") return "png";
  if (t === "image/jpeg" || t === "image/jpg" || t === "image/pjpeg") return "jpeg";
  if (t === "image/gif") return "gif";
  if (t.startsWith("image/")) return "other";
  return null;
}

export interface Extent {
  cx: number;
  cy: number;
}

/**
 * The picture's extent in EMU. `dimensions` (CSS px, either side optional) wins; else the picture
 * fits the control's existing picture box (aspect kept); else its natural size (96 dpi), scaled
 * down to the text width.
 */
export function pictureExtent(
  info: ImageInfo,
  opts: { width?: number; height?: number; box?: Extent | null; maxWidthEmu: number },
): Extent {
  const ratio = info.height / info.width;
  const { width, height } = opts;
  let cx: number;
  let cy: number;
  if (width !== undefined && height !== undefined) {
    cx = width * EMU_PER_PX;
    cy = height * EMU_PER_PX;
  } else if (width !== undefined) {
    cx = width * EMU_PER_PX;
    cy = cx * ratio;
  } else if (height !== undefined) {
    cy = height * EMU_PER_PX;
    cx = cy / ratio;
  } else if (opts.box && opts.box.cx > 0 && opts.box.cy > 0) {
    const scale = Math.min(opts.box.cx / info.width, opts.box.cy / info.height);
    cx = info.width * scale;
    cy = info.height * scale;
  } else {
    cx = info.width * EMU_PER_PX;
    cy = info.height * EMU_PER_PX;
    if (cx > opts.maxWidthEmu) {
      cy = cy * (opts.maxWidthEmu / cx);
      cx = opts.maxWidthEmu;
    }
  }
  return { cx: Math.max(1, Math.round(cx)), cy: Math.max(1, Math.round(cy)) };
}

export interface DrawingNamespaces {
  wp: string;
  a: string;
  pic: string;
  r: string;
}

export const TRANSITIONAL_DRAWING: DrawingNamespaces = {
  wp: "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing",
  a: "http://schemas.openxmlformats.org/drawingml/2006/main",
  pic: "http://schemas.openxmlformats.org/drawingml/2006/picture",
  r: "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
};

export const STRICT_DRAWING: DrawingNamespaces = {
  wp: "http://purl.oclc.org/ooxml/drawingml/wordprocessingDrawing",
  a: "http://purl.oclc.org/ooxml/drawingml/main",
  pic: "http://purl.oclc.org/ooxml/drawingml/picture",
  r: "http://purl.oclc.org/ooxml/officeDocument/relationships",
};

/**
 * `<w:drawing>` with an inline picture. Namespaces are declared on the elements that use them
 * (as Word does for `a:` and `pic:`), so the part's root needs no change.
 */
export function inlineDrawingXml(
  w: (local: string) => string,
  o: { relId: string; extent: Extent; docPrId: number; name: string; description?: string; ns: DrawingNamespaces },
): string {
  const { cx, cy } = o.extent;
  const name = escapeAttr(o.name);
  const descr = o.description ? ` descr="${escapeAttr(o.description)}"` : "";
  return (
    `<${w("drawing")}><wp:inline xmlns:wp="${o.ns.wp}" distT="0" distB="0" distL="0" distR="0">` +
    `<wp:extent cx="${cx}" cy="${cy}"/><wp:effectExtent l="0" t="0" r="0" b="0"/>` +
    `<wp:docPr id="${o.docPrId}" name="${name}"${descr}/>` +
    `<wp:cNvGraphicFramePr><a:graphicFrameLocks xmlns:a="${o.ns.a}" noChangeAspect="1"/></wp:cNvGraphicFramePr>` +
    `<a:graphic xmlns:a="${o.ns.a}"><a:graphicData uri="${o.ns.pic}">` +
    `<pic:pic xmlns:pic="${o.ns.pic}"><pic:nvPicPr><pic:cNvPr id="${o.docPrId}" name="${name}"/><pic:cNvPicPr/></pic:nvPicPr>` +
    `<pic:blipFill><a:blip xmlns:r="${o.ns.r}" r:embed="${escapeAttr(o.relId)}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
    `<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>` +
    `</pic:pic></a:graphicData></a:graphic></wp:inline></${w("drawing")}>`
  );
}
