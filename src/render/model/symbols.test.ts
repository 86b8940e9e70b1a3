/** Symbol-font characters mapped to Unicode: what a reader sees and copies instead of Latin-1 letters. */
import { describe, expect, it } from "vitest";
import { mapSymbolChar, mapSymbolText } from "./symbols";

describe("Symbol font", () => {
  it("maps primes, relations and operators of Adobe's Symbol encoding", () => {
    expect(mapSymbolText("Symbol", "c\u00a2 \u00b2 \u00b9 \u00ba \u00bb \u00ce \u00cf \u00d7")).toBe(
      "χ′ ″ ≠ ≡ ≈ ∈ ∉ ⋅",
    );
    expect(mapSymbolText("Symbol", "\u0022\u0024\u0027\u005c\u005e")).toBe("∀∃∋∴⊥");
  });

  it("maps the pieces Equation Editor builds tall brackets from", () => {
    expect(mapSymbolText("Symbol", "\u00e6\u00e7\u00e8\u00f6\u00f7\u00f8")).toBe("⎛⎜⎝⎞⎟⎠");
    expect(mapSymbolText("Symbol", "\u00ec\u00ed\u00ee\u00ef\u00f3\u00f4\u00f5")).toBe("⎧⎨⎩⎪⌠⎮⌡");
  });

  it("reads the private-use form w:sym writes (U+F0xx)", () => {
    expect(mapSymbolChar("Symbol", 0xf0a2)).toBe("′");
    expect(mapSymbolChar("symbol", 0xf0b7)).toBe("•");
  });

  it("leaves unassigned codes unmapped", () => {
    expect(mapSymbolChar("Symbol", 0xf0)).toBeUndefined();
    expect(mapSymbolChar("Symbol", 0xff)).toBeUndefined();
  });
});
