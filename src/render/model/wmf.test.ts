import { describe, expect, it } from "vitest";
import { parseWmf } from "./wmf";

/** A WMF built record by record: [function, ...16-bit parameters] (strings as raw bytes). */
function wmf(records: (number | number[])[][], placeable?: { right: number; bottom: number }): Uint8Array {
  const body: number[] = [];
  const push16 = (v: number) => body.push(v & 255, (v >> 8) & 255);
  for (const [fn, ...params] of records) {
    const bytes: number[] = [];
    for (const p of params) {
      if (Array.isArray(p)) bytes.push(...p, ...(p.length % 2 ? [0] : []));
      else bytes.push(p & 255, (p >> 8) & 255);
    }
    const words = 3 + bytes.length / 2;
    push16(words & 0xffff);
    push16(words >>> 16);
    push16(fn as number);
    body.push(...bytes);
  }
  for (const v of [3, 0, 0]) push16(v); // EOF
  const header = [1, 0, 9, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  const out = [...header, ...body];
  if (!placeable) return new Uint8Array(out);
  const p = [
    0xd7,
    0xcd,
    0xc6,
    0x9a,
    0,
    0,
    0,
    0,
    0,
    0,
    placeable.right & 255,
    placeable.right >> 8,
    placeable.bottom & 255,
    placeable.bottom >> 8,
    0xa0,
    0x05,
    0,
    0,
    0,
    0,
    0,
    0,
  ];
  return new Uint8Array([...p, ...out]);
}

const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
/** LOGFONT16: height, width, escapement, orientation, weight, italic/underline, strike/charset, precision..., face name. */
const logfont = (height: number, weight: number, italic: boolean, face: string) => [
  height & 0xffff,
  0,
  0,
  0,
  weight,
  italic ? 1 : 0,
  0,
  0,
  0,
  ascii(face.padEnd(32, "\0")),
];

describe("parseWmf", () => {
  it("reads the window, fonts, text with its alignment and colour, and lines", () => {
    const pic = parseWmf(
      wmf([
        [0x020b, 0, 0], // window origin
        [0x020c, 500, 1000], // extent: height 500, width 1000
        [0x02fb, ...logfont(-200, 700, true, "Times New Roman")],
        [0x012d, 0],
        [0x0209, 0x00ff, 0x0000], // text colour: red 255, green 0, blue 0
        [0x012e, 24], // TA_BASELINE
        [0x0a32, 300, 100, 3, 0, ascii("x=1")], // EXTTEXTOUT y=300 x=100
        [0x02fa, 0, 10, 0, 0, 0], // pen: solid, 10 wide, black
        [0x012d, 1],
        [0x0214, 400, 50], // MOVETO y=400 x=50
        [0x0213, 400, 950], // LINETO
      ]),
    )!;
    expect(pic).toMatchObject({ x: 0, y: 0, width: 1000, height: 500 });
    expect(pic.items).toEqual([
      {
        kind: "text",
        x: 100,
        y: 300,
        text: "x=1",
        font: { name: "Times New Roman", size: 200, bold: true, italic: true },
        color: "FF0000",
        vAlign: "baseline",
        hAlign: "left",
      },
      { kind: "line", x1: 50, y1: 400, x2: 950, y2: 400, width: 10, color: "000000" },
    ]);
  });

  it("maps Symbol and MT Extra text (Equation Editor previews) and takes the placeable header's box", () => {
    const pic = parseWmf(
      wmf(
        [
          [0x02fb, ...logfont(-100, 400, false, "Symbol")],
          [0x012d, 0],
          [0x0521, 1, [0x61], 20, 10], // TEXTOUT "a" (alpha in Symbol) at y=20 x=10
          [0x02fb, ...logfont(-100, 400, false, "MT Extra")],
          [0x012d, 1],
          [0x0521, 1, ascii("L"), 20, 30],
        ],
        { right: 800, bottom: 400 },
      ),
    )!;
    expect(pic).toMatchObject({ width: 800, height: 400 });
    expect(pic.items.map((i) => (i.kind === "text" ? i.text : ""))).toEqual(["α", "⋯"]);
  });

  it("gives null or what was read for damaged files, never an exception", () => {
    const good = wmf([
      [0x020c, 500, 1000],
      [0x0521, 2, ascii("ok"), 10, 10],
    ]);
    expect(parseWmf(new Uint8Array(10))).toBeNull();
    expect(parseWmf(good.subarray(0, 25))).toBeNull(); // no extent read yet
    let seed = 11;
    for (let n = 0; n < 300; n++) {
      const junk = good.slice();
      for (let i = 18; i < junk.length; i++)
        if (((seed = (seed * 1103515245 + 12345) >>> 0) & 3) === 0) junk[i] = seed >>> 24;
      expect(() => parseWmf(junk)).not.toThrow();
    }
  });
});
