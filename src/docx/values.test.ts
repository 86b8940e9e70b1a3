import { describe, expect, it } from "vitest";
import { pictureExtent, readImageInfo } from "./images";
import { formatDate, formatNumber, fullDateValue, parseCheckbox, parseIsoDate, textOfValue } from "./values";
import { makePng } from "../../test/support/png-images";

describe("dates", () => {
  it("parses ISO dates and keeps a date-time's own wall clock", () => {
    expect(parseIsoDate("2025-05-05")).toMatchObject({ year: 2025, month: 5, day: 5, hasTime: false });
    expect(parseIsoDate("2025-05-05T23:30:00-05:00")).toMatchObject({ day: 5, hour: 23, minute: 30 });
    for (const bad of ["2025-02-30", "05/05/2025", "2025-13-01", "2025-05-05T25:00", "tomorrow"])
      expect(parseIsoDate(bad), bad).toBeNull();
  });

  it("formats Word date pictures, the default, and month names by language", () => {
    const d = parseIsoDate("2025-05-05T14:07:09+02:00")!;
    expect(formatDate(d, "MMMM dd, yyyy")).toBe("May 05, 2025");
    expect(formatDate(d, "M/d/yyyy")).toBe("5/5/2025");
    expect(formatDate(d, "dddd, d. MMMM yyyy", "de-DE")).toBe("Montag, 5. Mai 2025");
    expect(formatDate(d, "d MMMM yyyy", "fr-FR")).toBe("5 mai 2025");
    expect(formatDate(d, "DD/MM/YYYY")).toBe("05/05/2025");
    expect(formatDate(d, "h:mm AM/PM 'at' HH:mm:ss")).toBe("2:07 PM at 14:07:09");
    expect(formatDate(d, "ddd MMM yy", "xx")).toBe("Mon May 25");
    expect(fullDateValue(d)).toBe("2025-05-05T14:07:09Z");
  });
});

describe("other values", () => {
  it("numbers, checkboxes and SuperDoc's loose text shapes", () => {
    expect(formatNumber(" 12.5 ")).toBe("12.5");
    expect(formatNumber("12.345", 2)).toBe("12.35");
    expect(formatNumber(3, 2)).toBe("3.00");
    expect([parseCheckbox(true), parseCheckbox("FALSE"), parseCheckbox("yes")]).toEqual([true, false, null]);
    expect([textOfValue(null), textOfValue(7), textOfValue(false), textOfValue("x")]).toEqual(["", "7", "false", "x"]);
  });
});

describe("images", () => {
  it("reads PNG, GIF and JPEG sizes from headers and refuses what is not an image", () => {
    expect(readImageInfo(makePng(33, 12))).toEqual({ type: "png", width: 33, height: 12 });
    const gif = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x10, 0x00, 0x08, 0x00, 0, 0, 0]);
    expect(readImageInfo(gif)).toEqual({ type: "gif", width: 16, height: 8 });
    const jpeg = new Uint8Array([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc2, 0x00, 0x11, 0x08, 0x01, 0x00, 0x02, 0x00, 0x03,
    ]);
    expect(readImageInfo(jpeg)).toEqual({ type: "jpeg", width: 512, height: 256 });
    expect(() => readImageInfo(new TextEncoder().encode("<svg/>"))).toThrow(
      expect.objectContaining({ code: "image_invalid" }),
    );
    expect(() => readImageInfo(jpeg.subarray(0, 9))).toThrow(expect.objectContaining({ code: "image_invalid" }));
    const huge = makePng(1, 1);
    new DataView(huge.buffer).setUint32(16, 100_000);
    new DataView(huge.buffer).setUint32(20, 100_000);
    expect(() => readImageInfo(huge)).toThrow(expect.objectContaining({ code: "image_too_large" }));
  });

  it("sizes pictures: dimensions in px, one side with aspect, fit to a box, natural size capped", () => {
    const info = { type: "png" as const, width: 400, height: 200 };
    const max = 6 * 914400;
    expect(pictureExtent(info, { width: 100, height: 10, maxWidthEmu: max })).toEqual({ cx: 952500, cy: 95250 });
    expect(pictureExtent(info, { width: 100, maxWidthEmu: max })).toEqual({ cx: 952500, cy: 476250 });
    expect(pictureExtent(info, { height: 100, maxWidthEmu: max })).toEqual({ cx: 1905000, cy: 952500 });
    expect(pictureExtent(info, { box: { cx: 1000000, cy: 1000000 }, maxWidthEmu: max })).toEqual({
      cx: 1000000,
      cy: 500000,
    });
    expect(pictureExtent(info, { maxWidthEmu: max })).toEqual({ cx: 400 * 9525, cy: 200 * 9525 });
    expect(pictureExtent({ ...info, width: 4000, height: 2000 }, { maxWidthEmu: max })).toEqual({
      cx: max,
      cy: max / 2,
    });
  });
});
