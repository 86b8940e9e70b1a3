import { describe, expect, it } from "vitest";
import { eastAsianContext } from "./text-pieces";

/** The context as a string: "A" where shared characters take the East Asian script, "." elsewhere. */
const context = (text: string) => {
  const c = eastAsianContext(text);
  return c ? [...c].map((v) => (v ? "A" : ".")).join("") : undefined;
};

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
