/**
 * Image decoding within budgets: a PNG's data is inflated only as far as its header allows, and the
 * pictures one document has decoded are bounded (LIMITS.paint.maxDecodedPixels). Through the engine
 * and through the HTTP edge (annotate?to=pdf, sign of a DOCX).
 */
import { describe, expect, it } from "vitest";
import { unzipSync, zipSync } from "fflate";
import { PDFDocument, PDFName, PDFRawStream } from "pdf-lib";
import { LIMITS } from "../../src/limits";
import { checkPngData, readPngHeader } from "../../src/render/paint/png-data";
import { buildDocx, inlineImage, p } from "../support/docx-builder";
import { inflationBombPng } from "../support/png-bomb";
import { b64, fromDataUri, post, problem, signRequest } from "./helpers";
import { makePng } from "../support/png-images";

describe("PNG image data is inflated only as far as its header allows", () => {
  it("stops a 2000 x 2000 grey PNG whose 3 MB of data inflate to 3 GiB after the 4 MB its header holds", () => {
    const bomb = inflationBombPng(2000, 2000, 3 * 1024 ** 3);
    expect(bomb.length).toBeLessThan(3.5 * 1024 * 1024);
    const header = readPngHeader(bomb)!;
    expect(header).toEqual({ width: 2000, height: 2000, dataBytes: 2000 * 2001 });
    const { fits, inflated } = checkPngData(bomb, header);
    expect(fits).toBe(false);
    // One 4 KiB step of input at most past the header's size (deflate inflates 1032:1 at best).
    expect(inflated).toBeLessThanOrEqual(header.dataBytes + 4096 * 1032);
  });

  it("lets an honest PNG through, and one whose data ends short (pdf-lib draws what there is)", () => {
    const png = makePng(30, 20);
    const header = readPngHeader(png)!;
    expect(header.dataBytes).toBe(20 * (30 * 3 + 1));
    expect(checkPngData(png, header)).toEqual({ fits: true, inflated: header.dataBytes });
    expect(
      checkPngData(inflationBombPng(100, 100, 5_000), readPngHeader(inflationBombPng(100, 100, 5_000))!).fits,
    ).toBe(true);
    // Exactly the header's size fits; one byte more does not.
    const exact = inflationBombPng(258, 1, 259); // 1 + 258 zeros = one row of 258 grey pixels and its filter byte
    expect(checkPngData(exact, readPngHeader(exact)!).fits).toBe(true);
    const over = inflationBombPng(257, 1, 259);
    expect(checkPngData(over, readPngHeader(over)!).fits).toBe(false);
  });

  it("counts interlaced PNGs pass by pass, and refuses impossible headers", () => {
    const ihdr = (w: number, h: number, depth: number, colour: number, interlace: number) => {
      const png = makePng(1, 1);
      const v = new DataView(png.buffer, png.byteOffset);
      v.setUint32(16, w);
      v.setUint32(20, h);
      png.set([depth, colour, 0, 0, interlace], 24);
      return readPngHeader(png);
    };
    // 8 x 8 RGB interlaced: passes of 1x1, 1x1, 2x1, 2x2, 4x2, 4x4, 8x4 pixels, each row with its filter byte.
    expect(ihdr(8, 8, 8, 2, 1)!.dataBytes).toBe(1 * 4 + 1 * 4 + 1 * 7 + 2 * 7 + 2 * 13 + 4 * 13 + 4 * 25);
    expect(ihdr(8, 8, 3, 2, 0)).toBeNull();
    expect(ihdr(8, 8, 8, 5, 0)).toBeNull();
    expect(ihdr(0, 8, 8, 0, 0)).toBeNull();
  });
});

/** Image XObjects in a PDF. */
async function imageCount(pdf: Uint8Array): Promise<number> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  let n = 0;
  for (const [, obj] of doc.context.enumerateIndirectObjects())
    if (obj instanceof PDFRawStream && obj.dict.get(PDFName.of("Subtype")) === PDFName.of("Image")) n++;
  return n;
}

const stored = (docx: Uint8Array) => zipSync(unzipSync(docx), { level: 0 });
const bomb = () => inflationBombPng(2000, 2000, 3 * 1024 ** 3);
const picture = (id: string) => inlineImage(id, 100, 100);

describe("hostile pictures through the HTTP edge", () => {
  it("annotate?to=pdf refuses a picture value whose data inflates to 3 GiB behind a 2000 x 2000 header: 422 image_invalid (it took 45 s)", async () => {
    const template = buildDocx({
      body: p(`<w:sdt><w:sdtPr><w:tag w:val="photo"/></w:sdtPr><w:sdtContent>${p("x")}</w:sdtContent></w:sdt>`),
    });
    const res = await post("/v1/annotate?to=pdf", {
      document: { base64: b64(template) },
      fields: [{ id: "photo", type: "image", value: `data:image/png;base64,${b64(bomb())}` }],
    });
    expect(res.status).toBe(422);
    const prob = await problem(res);
    expect(prob.code).toBe("image_invalid");
    expect(prob.detail).toMatch(/inflates past the 2000x2000 pixels its header gives/);
  });

  it("a DOCX whose picture is such a PNG signs and renders without decoding it: the picture's box stays empty, an honest one beside it is drawn", async () => {
    // Stored, not deflated, as an attacker would send it (deflated, the zeros would trip the ZIP ratio check).
    const docx = stored(
      buildDocx({
        body: p([picture("rIdBomb")]) + p([picture("rIdOk")]),
        media: { rIdBomb: bomb(), rIdOk: makePng(40, 40) },
      }),
    );
    const signed = await post("/v1/sign", signRequest(docx, { certificate: { enabled: false } }));
    expect(signed.status).toBe(200);
    const pdf = fromDataUri(((await signed.json()) as { document: { base64: string } }).document.base64);
    expect(await imageCount(pdf)).toBe(1);
    const annotated = await post("/v1/annotate?to=pdf", { document: { base64: b64(docx) }, fields: [] });
    expect(annotated.status).toBe(200);
    expect(
      await imageCount(fromDataUri(((await annotated.json()) as { document: { base64: string } }).document.base64)),
    ).toBe(1);
  });

  it("pictures of more than LIMITS.paint.maxDecodedPixels together: 422 render_limit before they are all decoded", async () => {
    // Three honest 2449 x 2449 PNGs (6.0 M pixels each, a few KB compressed).
    const side = Math.floor(Math.sqrt(LIMITS.paint.maxPngPixels));
    const images = [0, 1, 2].map((k) => makePng(side, side, [k * 40, 90, 160]));
    expect(3 * side * side).toBeGreaterThan(LIMITS.paint.maxDecodedPixels);
    const docx = buildDocx({
      body: images.map((_, k) => p([picture(`rIdP${k}`)])).join(""),
      media: Object.fromEntries(images.map((png, k) => [`rIdP${k}`, png])),
    });
    const res = await post("/v1/annotate?to=pdf", { document: { base64: b64(docx) }, fields: [] });
    expect(res.status).toBe(422);
    const prob = await problem(res);
    expect(prob.code).toBe("render_limit");
    expect(prob.detail).toMatch(/pictures to decode of more than 16000000 pixels/);
    // Two of them are within the budget.
    const two = buildDocx({
      body: [0, 1].map((k) => p([picture(`rIdP${k}`)])).join(""),
      media: { rIdP0: images[0]!, rIdP1: images[1]! },
    });
    expect((await post("/v1/annotate?to=pdf", { document: { base64: b64(two) }, fields: [] })).status).toBe(200);
  });
});
