/**
 * Windows Metafiles (WMF), best effort: the text and the lines of a picture, which is what the WMF
 * previews of Equation Editor 3.0 objects, ActiveX form controls and embedded-object icons carry.
 * Bitmaps, fills, clipping and curves are not read. The picture keeps its logical coordinates
 * (window origin and extent); layout scales it into the picture's box (layout/objects/metafile.ts).
 *
 * Hostile input is bounded: records and text are limited (LIMITS.render.metafile), every read is
 * checked against the record, and anything malformed ends the reading with what was read so far.
 */
import { LIMITS } from "../../limits";
import { mapSymbolText, isSymbolFont } from "./symbols";

export interface MetafileFont {
  name: string;
  /** Em size in logical units. */
  size: number;
  bold: boolean;
  italic: boolean;
}

export type MetafileItem =
  /** `y` is the reference point the text alignment names (`align`: baseline, top or bottom; left, centre or right). */
  | {
      kind: "text";
      x: number;
      y: number;
      text: string;
      font: MetafileFont;
      color: string;
      vAlign: "baseline" | "top" | "bottom";
      hAlign: "left" | "center" | "right";
    }
  | { kind: "line"; x1: number; y1: number; x2: number; y2: number; width: number; color: string };

export interface MetafilePicture {
  /** The logical window: origin and extent (y grows downwards). */
  x: number;
  y: number;
  width: number;
  height: number;
  items: MetafileItem[];
}

const PLACEABLE = 0x9ac6cdd7;

type GdiObject =
  | { kind: "font"; font: MetafileFont }
  | { kind: "pen"; width: number; color: string; none: boolean }
  | { kind: "other" };

/** The text and lines of a WMF file, or null when it is not one. */
export function parseWmf(b: Uint8Array): MetafilePicture | null {
  if (b.length < 18) return null;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const u16 = (at: number) => view.getUint16(at, true);
  const i16 = (at: number) => view.getInt16(at, true);
  let at = 0;
  let window = { x: 0, y: 0, width: 0, height: 0 };
  if (view.getUint32(0, true) === PLACEABLE) {
    if (b.length < 40) return null;
    const left = i16(6),
      top = i16(8),
      right = i16(10),
      bottom = i16(12);
    window = { x: left, y: top, width: right - left, height: bottom - top };
    at = 22;
  }
  // The standard header: type (1 or 2), header size 9 words.
  if (u16(at + 2) !== 9) return null;
  at += 18;

  const items: MetafileItem[] = [];
  const objects: (GdiObject | null)[] = [];
  let font: MetafileFont = { name: "Times New Roman", size: 12, bold: false, italic: false };
  let pen = { width: 1, color: "000000", none: false };
  let textColor = "000000";
  let align = 0;
  let cp = { x: 0, y: 0 };
  let textChars = 0;
  const add = (o: GdiObject) => {
    const free = objects.indexOf(null);
    if (free >= 0) objects[free] = o;
    else if (objects.length < LIMITS.render.metafile.maxObjects) objects.push(o);
  };
  const text = (x: number, y: number, bytes: Uint8Array) => {
    if (textChars >= LIMITS.render.metafile.maxTextChars) return;
    let s = decodeAnsi(bytes).replace(/\u0000+$/, "");
    if (isSymbolFont(font.name)) s = mapSymbolText(font.name, s);
    else if (font.name === "MT Extra") s = s.replace(/[LMNO]/g, (c) => MT_EXTRA[c]!);
    textChars += s.length;
    if (!s.trim()) return;
    const hAlign = (align & 6) === 6 ? "center" : align & 2 ? "right" : "left";
    const vAlign = (align & 24) === 24 ? "baseline" : align & 8 ? "bottom" : "top";
    items.push({ kind: "text", x, y, text: s, font, color: textColor, vAlign, hAlign });
  };

  for (let records = 0; at + 6 <= b.length && records < LIMITS.render.metafile.maxRecords; records++) {
    const words = view.getUint32(at, true);
    const fn = u16(at + 4);
    const size = words * 2;
    if (words < 3 || at + size > b.length) break;
    const p = at + 6; // parameters
    const end = at + size;
    const has = (bytes: number) => p + bytes <= end;
    switch (fn) {
      case 0x0000: // EOF
        at = b.length;
        continue;
      case 0x020b: // SETWINDOWORG y, x
        if (has(4)) window = { ...window, y: i16(p), x: i16(p + 2) };
        break;
      case 0x020c: // SETWINDOWEXT height, width
        if (has(4)) window = { ...window, height: i16(p), width: i16(p + 2) };
        break;
      case 0x0209: // SETTEXTCOLOR
        if (has(4)) textColor = rgbHex(b, p);
        break;
      case 0x012e: // SETTEXTALIGN
        if (has(2)) align = u16(p);
        break;
      case 0x02fb: // CREATEFONTINDIRECT (LOGFONT16)
        if (has(18)) {
          const height = i16(p);
          const weight = i16(p + 8);
          const italic = b[p + 10]! !== 0;
          const name =
            decodeAnsi(b.subarray(p + 18, Math.min(end, p + 18 + 32)))
              .split("\u0000")[0]!
              .trim() || "Times New Roman";
          // A negative height is the em size; a positive one the cell height (about 1.15 em).
          add({
            kind: "font",
            font: { name, size: height < 0 ? -height : height / 1.15, bold: weight >= 600, italic },
          });
        }
        break;
      case 0x02fa: // CREATEPENINDIRECT: style, width (point), colour
        if (has(10)) add({ kind: "pen", none: u16(p) === 5, width: Math.max(1, i16(p + 2)), color: rgbHex(b, p + 6) });
        break;
      case 0x02fc: // CREATEBRUSHINDIRECT
      case 0x00f7: // CREATEPALETTE
      case 0x06ff: // CREATEREGION
      case 0x0142: // DIBCREATEPATTERNBRUSH
        add({ kind: "other" });
        break;
      case 0x012d: {
        // SELECTOBJECT
        const o = has(2) ? objects[u16(p)] : undefined;
        if (o?.kind === "font") font = o.font;
        else if (o?.kind === "pen") pen = o;
        break;
      }
      case 0x01f0: // DELETEOBJECT
        if (has(2) && u16(p) < objects.length) objects[u16(p)] = null;
        break;
      case 0x0214: // MOVETO y, x
        if (has(4)) cp = { x: i16(p + 2), y: i16(p) };
        break;
      case 0x0213: // LINETO y, x
        if (has(4)) {
          const next = { x: i16(p + 2), y: i16(p) };
          if (!pen.none)
            items.push({
              kind: "line",
              x1: cp.x,
              y1: cp.y,
              x2: next.x,
              y2: next.y,
              width: pen.width,
              color: pen.color,
            });
          cp = next;
        }
        break;
      case 0x0325: {
        // POLYLINE count, points
        const n = has(2) ? i16(p) : 0;
        if (n > 1 && has(2 + n * 4) && !pen.none) {
          for (let k = 1; k < n; k++) {
            items.push({
              kind: "line",
              x1: i16(p + 2 + (k - 1) * 4),
              y1: i16(p + 4 + (k - 1) * 4),
              x2: i16(p + 2 + k * 4),
              y2: i16(p + 4 + k * 4),
              width: pen.width,
              color: pen.color,
            });
          }
        }
        break;
      }
      case 0x0521: {
        // TEXTOUT count, string (padded), y, x
        const n = has(2) ? i16(p) : 0;
        const padded = n + (n & 1);
        if (n > 0 && has(2 + padded + 4))
          text(i16(p + 2 + padded + 2), i16(p + 2 + padded), b.subarray(p + 2, p + 2 + n));
        break;
      }
      case 0x0a32: {
        // EXTTEXTOUT y, x, count, options, [rect], string
        if (!has(8)) break;
        const y = i16(p);
        const x = i16(p + 2);
        const n = i16(p + 4);
        const options = u16(p + 6);
        const start = p + 8 + (options & 0x0006 ? 8 : 0);
        if (n > 0 && start + n <= end) text(x, y, b.subarray(start, start + n));
        break;
      }
    }
    at = end;
  }
  if (!window.width || !window.height) return null;
  return { ...window, items };
}

function rgbHex(b: Uint8Array, at: number): string {
  return [b[at]!, b[at + 1]!, b[at + 2]!]
    .map((v) => v.toString(16).padStart(2, "0"))
    .join("")
    .toUpperCase();
}

/** Equation Editor's MT Extra font: the ellipses it draws as letters. */
const MT_EXTRA: Record<string, string> = { L: "\u22ef", M: "\u22ee", N: "\u22f0", O: "\u22f1" };

/** Windows-1252 (the ANSI charset of Western metafiles); 0x80–0x9F through its table. */
const CP1252 = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ";

function decodeAnsi(bytes: Uint8Array): string {
  let s = "";
  for (const c of bytes) s += c >= 0x80 && c <= 0x9f ? CP1252[c - 0x80]! : String.fromCharCode(c);
  return s;
}
