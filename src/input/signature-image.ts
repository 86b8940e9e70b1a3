/**
 * The drawn signature of a visible signature (`signature.appearance.image`): a data URI (or plain
 * base64) of a PNG or JPEG, as SuperDoc's e-sign pad produces. Treated as hostile like every
 * image: the encoded size is capped before decoding base64 (MAX_IMAGE_BYTES), the type and pixel
 * size come from the header only, and a PNG must be small enough for pdf-lib to decode
 * (`LIMITS.paint.maxPngPixels`, the renderer's limit).
 */
import { Unzlib } from "fflate";
import { claimedImageType, readImageInfo } from "../docx/images";
import { LimitExceeded, UnprocessableContent } from "../errors";
import { LIMITS } from "../limits";
import { readPngHeader } from "../render/paint/png-data";
import { decodeBase64Payload, type PreDecodedValues } from "./base64";

export interface SignatureImage {
  type: "png" | "jpeg";
  bytes: Uint8Array;
}

const LABEL = "signature.appearance.image";

export function decodeSignatureImage(
  text: string,
  opts: { maxBytes: number; preDecoded?: PreDecodedValues },
): SignatureImage {
  let decoded;
  try {
    decoded = decodeBase64Payload(text, opts);
  } catch (err) {
    if (err instanceof LimitExceeded)
      throw new UnprocessableContent("image_too_large", `${LABEL} is larger than ${opts.maxBytes} bytes.`);
    throw new UnprocessableContent("image_invalid", `${LABEL} is not a data: URI or base64 PNG/JPEG image.`);
  }
  const info = readImageInfo(decoded.bytes, LABEL);
  const claim = claimedImageType(decoded.mediaType);
  if (info.type === "gif") throw new UnprocessableContent("image_invalid", `${LABEL} is a GIF; give a PNG or JPEG.`);
  if (claim === "other" || (claim !== null && claim !== info.type)) {
    throw new UnprocessableContent(
      "image_invalid",
      `${LABEL} claims to be ${decoded.mediaType} but its bytes are a ${info.type.toUpperCase()} file.`,
    );
  }
  if (info.type === "png" && info.width * info.height > LIMITS.paint.maxPngPixels) {
    throw new UnprocessableContent(
      "image_too_large",
      `${LABEL} is ${info.width} x ${info.height} pixels; a PNG may have at most ${LIMITS.paint.maxPngPixels} pixels.`,
    );
  }
  if (info.type === "png") {
    const why = pngDataProblem(decoded.bytes);
    if (why) throw new UnprocessableContent("image_invalid", `${LABEL} is not a well-formed PNG: ${why}.`);
  }
  return { type: info.type, bytes: decoded.bytes };
}

const STEP = 4096;

/**
 * Why pdf-lib must not decode this PNG, or null. pdf-lib's decoder trusts the file: chunk lengths
 * past the end and garbage image data held it for good (a 20 x 20 PNG with its data overwritten
 * never returned). So the chunks must lie inside the file and end with IEND, and the image data
 * must inflate, in small steps, to exactly the bytes the header announces (one filter byte and
 * the pixels of each row; Adam7 passes each count their own rows) and no more.
 */
export function pngDataProblem(png: Uint8Array): string | null {
  const be32 = (o: number) => ((png[o]! << 24) | (png[o + 1]! << 16) | (png[o + 2]! << 8) | png[o + 3]!) >>> 0;
  const header = readPngHeader(png);
  if (!header) return "its header is impossible";
  const expected = header.dataBytes;
  let inflated = 0;
  let ended = false;
  const inflater = new Unzlib((chunk, final) => {
    inflated += chunk.length;
    if (final) ended = true;
  });
  let at = 8;
  let sawEnd = false;
  try {
    while (at + 12 <= png.length) {
      const length = be32(at);
      const type = String.fromCharCode(png[at + 4]!, png[at + 5]!, png[at + 6]!, png[at + 7]!);
      if (at + 12 + length > png.length) return `its ${type} chunk runs past the end of the file`;
      if (type === "IEND") {
        sawEnd = true;
        break;
      }
      if (type === "IDAT") {
        const data = png.subarray(at + 8, at + 8 + length);
        for (let o = 0; o < data.length && inflated <= expected; o += STEP)
          inflater.push(data.subarray(o, Math.min(o + STEP, data.length)), false);
      }
      if (inflated > expected) return "its image data holds more than its header says";
      at += 12 + length;
    }
    inflater.push(new Uint8Array(0), true);
  } catch {
    return "its image data is not a valid zlib stream";
  }
  if (!sawEnd) return "it has no IEND chunk";
  if (!ended || inflated !== expected) return "its image data does not hold the pixels its header says";
  return null;
}
