/**
 * A page's content stream written as text, not as pdf-lib operator objects: building one
 * PDFOperator (and a PDFNumber per operand) per drawing call, then serializing and pako-deflating
 * them at save time, was most of the painting time (about 70 % for a 30-page report).
 *
 * Text items share one BT ... ET block while they follow each other; font, size, fill colour,
 * character spacing and horizontal scaling are written only when they change (they are text and
 * graphics state, which BT/ET do not reset). Rectangles, lines and images close the text block and
 * bracket themselves in q ... Q, so the tracked state stays true after them.
 */

/** Operands are written with at most 4 decimals (1/10000 pt), never in exponent notation. */
export function num(n: number): string {
  if (!Number.isFinite(n)) return "0";
  // Beyond ±1e9 a PDF reader's real range is exceeded anyway; clamp so String() never gives "1e+21".
  const r = Math.round(Math.max(-1e9, Math.min(1e9, n)) * 10_000) / 10_000;
  return r === 0 ? "0" : String(r);
}

/** "r g b" operands (0..1 each) of a 6-hex-digit colour. */
export function rgbOperands(hex: string): string {
  const n = parseInt(hex, 16);
  return `${num(((n >> 16) & 255) / 255)} ${num(((n >> 8) & 255) / 255)} ${num((n & 255) / 255)}`;
}

export interface TextRun {
  /** Font resource name without the slash ("F1"). */
  font: string;
  size: number;
  /** Fill colour operands ("r g b"). */
  fill: string;
  charSpacing: number;
  /** Horizontal scaling in percent. */
  scale: number;
}

export class ContentStreamBuilder {
  private readonly parts: string[] = [];
  private inText = false;
  private font = "";
  private size = Number.NaN;
  private fill = "";
  private charSpacing = 0;
  private scale = 100;

  /** Starts (or continues) a text block with the run's state; then call `show` for each segment. */
  textRun(run: TextRun): void {
    if (!this.inText) {
      this.parts.push("BT");
      this.inText = true;
    }
    if (run.font !== this.font || run.size !== this.size) {
      this.parts.push(`/${run.font} ${num(run.size)} Tf`);
      this.font = run.font;
      this.size = run.size;
    }
    if (run.fill !== this.fill) {
      this.parts.push(`${run.fill} rg`);
      this.fill = run.fill;
    }
    if (run.charSpacing !== this.charSpacing) {
      this.parts.push(`${num(run.charSpacing)} Tc`);
      this.charSpacing = run.charSpacing;
    }
    if (run.scale !== this.scale) {
      this.parts.push(`${num(run.scale)} Tz`);
      this.scale = run.scale;
    }
  }

  /** Shows glyphs (`ops`: Tj/TJ operators, from the embedded font) with their origin at (x, y), PDF coordinates. */
  show(x: number, y: number, ops: string): void {
    if (ops) this.parts.push(`1 0 0 1 ${num(x)} ${num(y)} Tm ${ops}`);
  }

  /** A filled rectangle (lower-left corner at x, y). */
  rect(x: number, y: number, width: number, height: number, fill: string): void {
    this.endText();
    this.parts.push(`q ${fill} rg ${num(x)} ${num(y)} ${num(width)} ${num(height)} re f Q`);
  }

  /** A stroked straight line, optionally dashed. */
  line(x1: number, y1: number, x2: number, y2: number, width: number, stroke: string, dash?: readonly number[]): void {
    this.endText();
    const d = dash ? `[${dash.map(num).join(" ")}] 0 d ` : "";
    this.parts.push(`q ${stroke} RG ${num(width)} w ${d}${num(x1)} ${num(y1)} m ${num(x2)} ${num(y2)} l S Q`);
  }

  /** A filled polygon through the points (x0, y0, x1, y1 ..., PDF coordinates). */
  polygon(points: readonly number[], fill: string): void {
    if (points.length < 6) return;
    this.endText();
    const path = [`${num(points[0]!)} ${num(points[1]!)} m`];
    for (let i = 2; i + 1 < points.length; i += 2) path.push(`${num(points[i]!)} ${num(points[i + 1]!)} l`);
    this.parts.push(`q ${fill} rg ${path.join(" ")} h f Q`);
  }

  /** An image XObject scaled into the box whose lower-left corner is (x, y). */
  image(name: string, x: number, y: number, width: number, height: number): void {
    this.endText();
    this.parts.push(`q ${num(width)} 0 0 ${num(height)} ${num(x)} ${num(y)} cm /${name} Do Q`);
  }

  /** The finished stream text (ASCII only). */
  toString(): string {
    this.endText();
    return this.parts.join("\n");
  }

  private endText(): void {
    if (this.inText) {
      this.parts.push("ET");
      this.inText = false;
    }
  }
}
