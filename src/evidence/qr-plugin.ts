/**
 * A pdfme plugin that draws a QR code (our own encoder, qr.ts) as vector
 * squares: one filled path made of one rectangle per horizontal run of dark
 * modules, in the page's content stream (no image, no document-level object).
 *
 * Schema: `{ type: "signetQr", position, width, height, color? }`, the value is
 * the payload. The symbol is drawn with its 4-module quiet zone inside the box
 * (the box must be square); the quiet zone is left unpainted.
 */
import type { Plugin, Schema } from "@pdfme/common";
import { encodeQr } from "./qr";

export const QR_SCHEMA_TYPE = "signetQr";
export const QR_QUIET_ZONE = 4;

const MM_TO_PT = 72 / 25.4;

function hexToRgb(hex: string): [number, number, number] {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return [0, 0, 0];
  return [parseInt(m[1]!, 16) / 255, parseInt(m[2]!, 16) / 255, parseInt(m[3]!, 16) / 255];
}

export const qrPlugin: Plugin<Schema> = {
  pdf({ value, schema, page, pdfLib }) {
    if (!value) return;
    const { modules, size } = encodeQr(value);
    const total = size + 2 * QR_QUIET_ZONE;
    const boxPt = Math.min(schema.width, schema.height) * MM_TO_PT;
    const modulePt = boxPt / total;
    const left = schema.position.x * MM_TO_PT + QR_QUIET_ZONE * modulePt;
    const top = page.getHeight() - schema.position.y * MM_TO_PT - QR_QUIET_ZONE * modulePt;
    const color = typeof schema.color === "string" ? schema.color : "#000000";
    const [r, g, b] = hexToRgb(color);
    const ops = [pdfLib.pushGraphicsState(), pdfLib.setFillingRgbColor(r, g, b)];
    for (let y = 0; y < size; y++) {
      const row = modules[y]!;
      let x = 0;
      while (x < size) {
        if (!row[x]) {
          x++;
          continue;
        }
        const start = x;
        while (x < size && row[x]) x++;
        const rectX = left + start * modulePt;
        const rectY = top - (y + 1) * modulePt;
        ops.push(pdfLib.rectangle(rectX, rectY, (x - start) * modulePt, modulePt));
      }
    }
    ops.push(pdfLib.fill(), pdfLib.popGraphicsState());
    page.pushOperators(...ops);
  },
  ui() {
    // Server-side only: the generator never calls it.
  },
  propPanel: {
    schema: {},
    defaultSchema: {
      name: "",
      type: QR_SCHEMA_TYPE,
      position: { x: 0, y: 0 },
      width: 30,
      height: 30,
    },
  },
};
