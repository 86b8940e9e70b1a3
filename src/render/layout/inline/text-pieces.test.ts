import { describe, expect, it } from "vitest";
import { eastAsianContext, weakAfterAsian } from "./text-pieces";

/** A per-character mark array as a string: "A" where it is set, "." elsewhere. */
const marks = (c: Uint8Array | undefined) => (c ? [...c].map((v) => (v ? "A" : ".")).join("") : undefined);
/** Where shared characters take the East Asian script. */
const context = (text: string) => marks(eastAsianContext(text));
/** Where a weak character follows East Asian text (set with the East Asian font). */
const weak = (text: string) => marks(weakAfterAsian(text));

describe("eastAsianContext: the script LibreOffice gives shared characters", () => {
  it("is undefined for a paragraph without East Asian letters", () => {
    expect(context("“quoted” ☐ text 12")).toBeUndefined();
  });

  it("follows the nearest letter before, digits and punctuation being shared", () => {
    expect(context("中“3”ab“")).toBe("AAAA...");
  });

  it("takes the first letter's script before it, at the paragraph's start", () => {
    expect(context("☐ 中")).toBe("AAA");
    expect(context("☐ a中")).toBe("...A");
  });

  it("covers both code units of a character outside the BMP", () => {
    expect(context("中\u{20000}“")).toBe("AAAA");
  });
});

describe("weakAfterAsian: weak characters take the script of the strong one before them", () => {
  it("is undefined for a paragraph without East Asian characters", () => {
    expect(weak("1−2 → 3")).toBeUndefined();
  });

  it("marks symbols after full-width and ideographic text, not after Latin letters or digits", () => {
    expect(weak("３−４")).toBe(".A.");
    expect(weak("字※→ab−1−")).toBe(".AA.....");
  });

  it("leaves weak characters at the paragraph's start, spaces and private-use characters alone", () => {
    expect(weak("−字")).toBe("..");
    expect(weak("字 \u00a0\ue089")).toBe("....");
  });

  it("covers both code units of a weak character outside the BMP", () => {
    expect(weak("字\u{1F600}")).toBe(".AA");
  });
});
