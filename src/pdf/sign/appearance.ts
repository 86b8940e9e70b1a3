/**
 * The normal appearance (`/AP /N`) of a visible signature: a form XObject of the widget's size
 * that shows the signer's name, the signing time, the reason when one was given, and the
 * signer's drawn signature image (PNG or JPEG, e.g. SuperDoc's e-sign pad) on the left when
 * there is one. Text is set in Noto Sans (Latin, Greek, Cyrillic) with the DOCX renderer's font
 * embedding (render/paint/cid-font.ts: our own TrueType subset, a ToUnicode map, so the text can be
 * selected and searched), sized to fit the box: the name 1.4 times
 * the other lines, a line that would need a size below `MIN_SIZE` is cut with an ellipsis.
 */
import fontkit, { type Font } from "@pdf-lib/fontkit";
import {
  JpegEmbedder,
  PDFHexString,
  PngEmbedder,
  beginText,
  concatTransformationMatrix,
  drawObject,
  endText,
  moveText,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  setFillingColor,
  setFontAndSize,
  showText,
  type PDFContentStream,
  type PDFContext,
  type PDFOperator,
  type PDFRef,
} from "pdf-lib";
import { UnprocessableContent } from "../../errors";
import { glyphAdvance } from "../../render/fonts/font-face";
import { CidFont } from "../../render/paint/cid-font";

export interface AppearanceContent {
  width: number;
  height: number;
  signerName: string;
  /** The signing time as printed (UTC). */
  signedAt: Date;
  reason: string | null;
  image?: { type: "png" | "jpeg"; bytes: Uint8Array };
}

export interface AppearanceFonts {
  regular: Uint8Array;
  bold: Uint8Array;
}

const MIN_SIZE = 4;
/** Below this base size the image gives up width to the text. */
const READABLE_SIZE = 6;
const IMAGE_SHARES = [0.45, 0.35, 0.25];
const MAX_SIZE = 24;
const NAME_SCALE = 1.4;
const LEADING = 1.25;

/** The appearance stream (not yet registered) with its fonts and image registered in `context`. */
export async function buildAppearance(
  context: PDFContext,
  content: AppearanceContent,
  fonts: AppearanceFonts,
): Promise<PDFContentStream> {
  const { width, height } = content;
  const pad = Math.min(4, width * 0.04, height * 0.06);
  const ops: PDFOperator[] = [];
  const xobjects: Record<string, PDFRef> = {};

  const face = (bytes: Uint8Array, name: string) => {
    const font = fontkit.create(bytes) as Font;
    return { font, cid: new CidFont({ context }, font, bytes, name) };
  };
  const regular = face(fonts.regular, "NotoSans-Regular");
  const bold = face(fonts.bold, "NotoSans-Bold");
  const lines: { text: string; face: typeof regular; key: string; scale: number }[] = [
    { text: content.signerName, face: bold, key: "F2", scale: NAME_SCALE },
    { text: `Signed ${formatUtc(content.signedAt)}`, face: regular, key: "F1", scale: 1 },
    ...(content.reason ? [{ text: `Reason: ${content.reason}`, face: regular, key: "F1", scale: 1 }] : []),
  ];
  const totalScale = lines.reduce((n, l) => n + l.scale * LEADING, 0);
  const boxH = height - 2 * pad;
  // One base size k: the name at 1.4k, the rest at k; all lines fit the height, the name and the
  // time fit the width (the reason is cut if it must be). The image takes less of a narrow box
  // rather than the text becoming unreadable.
  const baseSize = (boxW: number) => {
    let k = Math.min(MAX_SIZE, boxH / totalScale);
    for (const l of lines.slice(0, 2)) k = Math.min(k, boxW / Math.max(1e-6, textWidth(l.face.font, l.text, l.scale)));
    return k;
  };
  const share = content.image
    ? (IMAGE_SHARES.find((f) => baseSize(width * (1 - f) - 2 * pad) >= READABLE_SIZE) ?? IMAGE_SHARES.at(-1)!)
    : 0;
  const textLeft = share ? width * share + pad : pad;
  const boxW = width - textLeft - pad;
  const k = Math.max(MIN_SIZE, baseSize(boxW));

  // The image: the left part of the box (the whole height), scaled to fit, centred in its part.
  if (content.image) {
    let embedder: PngEmbedder | JpegEmbedder;
    let ref: PDFRef;
    try {
      embedder =
        content.image.type === "png"
          ? await PngEmbedder.for(content.image.bytes)
          : await JpegEmbedder.for(content.image.bytes);
      ref = await embedder.embedIntoContext(context);
    } catch {
      throw new UnprocessableContent(
        "image_invalid",
        `signature.appearance.image is a corrupt ${content.image.type.toUpperCase()} file.`,
      );
    }
    xobjects.Im1 = ref;
    const areaW = width * share - 2 * pad;
    const areaH = height - 2 * pad;
    const scale = Math.min(areaW / embedder.width, areaH / embedder.height);
    const w = embedder.width * scale;
    const h = embedder.height * scale;
    ops.push(
      pushGraphicsState(),
      concatTransformationMatrix(w, 0, 0, h, pad + (areaW - w) / 2, pad + (areaH - h) / 2),
      drawObject("Im1"),
      popGraphicsState(),
    );
  }

  const blockH = totalScale * k;
  let baseline = pad + (boxH + blockH) / 2;
  ops.push(pushGraphicsState(), setFillingColor(rgb(0.1, 0.1, 0.1)));
  for (const line of lines) {
    const size = line.scale * k;
    baseline -= size * LEADING;
    const text = fitWidth(line.text, (t) => textWidth(line.face.font, t, size), boxW);
    const glyphs = PDFHexString.of(line.face.cid.encode(text, false));
    ops.push(
      beginText(),
      setFontAndSize(line.key, size),
      moveText(textLeft, baseline + size * (LEADING - 1)),
      showText(glyphs),
      endText(),
    );
  }
  ops.push(popGraphicsState());

  regular.cid.finish();
  bold.cid.finish();
  const fontRefs = { F1: regular.cid.ref, F2: bold.cid.ref };
  return context.formXObject(ops, {
    BBox: [0, 0, width, height],
    Resources: {
      Font: fontRefs,
      ...(Object.keys(xobjects).length ? { XObject: xobjects } : {}),
      ProcSet: ["PDF", "Text", "ImageC"],
    },
  });
}

/** Width of `text` at `size` points: the glyphs' advances, as the font's widths array gives them. */
function textWidth(font: Font, text: string, size: number): number {
  let units = 0;
  for (const ch of text) units += glyphAdvance(font, font.glyphForCodePoint(ch.codePointAt(0)!)?.id ?? 0);
  return (units / (font.unitsPerEm || 1000)) * size;
}

/** `2026-11-27 10:00:00 UTC`. */
export function formatUtc(d: Date): string {
  return `${d.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** `text`, or its longest prefix with an ellipsis that fits `maxWidth`. */
function fitWidth(text: string, widthOf: (t: string) => number, maxWidth: number): string {
  if (widthOf(text) <= maxWidth) return text;
  const chars = [...text];
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (widthOf(chars.slice(0, mid).join("") + "…") <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? "" : chars.slice(0, lo).join("") + "…";
}
