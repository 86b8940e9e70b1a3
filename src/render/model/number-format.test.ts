import { describe, expect, it } from "vitest";
import { formatNumber } from "./number-format";

describe("formatNumber: page numbers and list labels as Word prints them", () => {
  it("decimal and zero-padded decimal", () => {
    expect(formatNumber(7, "decimal")).toBe("7");
    expect(formatNumber(7, "decimalZero")).toBe("07");
    expect(formatNumber(12, "decimalZero")).toBe("12");
  });

  it("roman numerals, subtractive forms, beyond 3999 as digits", () => {
    expect(formatNumber(1, "lowerRoman")).toBe("i");
    expect(formatNumber(4, "lowerRoman")).toBe("iv");
    expect(formatNumber(9, "upperRoman")).toBe("IX");
    expect(formatNumber(14, "upperRoman")).toBe("XIV");
    expect(formatNumber(1994, "upperRoman")).toBe("MCMXCIV");
    expect(formatNumber(3999, "upperRoman")).toBe("MMMCMXCIX");
    expect(formatNumber(4000, "upperRoman")).toBe("4000");
    expect(formatNumber(0, "upperRoman")).toBe("0");
  });

  it("letters repeat past z (aa, bb), as Word's list and page numbering do", () => {
    expect(formatNumber(1, "lowerLetter")).toBe("a");
    expect(formatNumber(26, "lowerLetter")).toBe("z");
    expect(formatNumber(27, "lowerLetter")).toBe("aa");
    expect(formatNumber(28, "upperLetter")).toBe("BB");
    expect(formatNumber(53, "upperLetter")).toBe("AAA");
  });

  it("ordinals in digits and words, cardinal words", () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].map((n) => formatNumber(n, "ordinal"))).toEqual([
      "1st",
      "2nd",
      "3rd",
      "4th",
      "11th",
      "12th",
      "13th",
      "21st",
      "22nd",
      "101st",
      "111th",
    ]);
    expect(formatNumber(1, "ordinalText")).toBe("First");
    expect(formatNumber(12, "ordinalText")).toBe("Twelfth");
    expect(formatNumber(20, "ordinalText")).toBe("Twentieth");
    expect(formatNumber(42, "ordinalText")).toBe("Forty-second");
    expect(formatNumber(42, "cardinalText")).toBe("Forty-two");
    expect(formatNumber(115, "cardinalText")).toBe("One hundred fifteen");
  });

  it("chicago footnote symbols double after the fourth", () => {
    expect([1, 2, 3, 4, 5, 8].map((n) => formatNumber(n, "chicago"))).toEqual(["*", "†", "‡", "§", "**", "§§"]);
  });

  it("hebrew numerals write 15 and 16 as 9+6 and 9+7", () => {
    expect(formatNumber(1, "hebrew1")).toBe("א");
    expect(formatNumber(15, "hebrew1")).toBe("טו");
    expect(formatNumber(16, "hebrew1")).toBe("טז");
    expect(formatNumber(11, "hebrew1")).toBe("יא");
  });

  it("russian letters skip the letters that cannot start a word", () => {
    expect(formatNumber(1, "russianLower")).toBe("а");
    expect(formatNumber(10, "russianLower")).toBe("к");
    expect(formatNumber(1, "russianUpper")).toBe("А");
  });

  it("none is empty; non-finite input is empty, never throws", () => {
    expect(formatNumber(3, "none")).toBe("");
    expect(formatNumber(Number.NaN, "decimal")).toBe("");
    expect(formatNumber(-3, "lowerLetter")).toBe("-3");
  });

  it("hostile start values come out as digits, not megabytes of letters or symbols", () => {
    expect(formatNumber(1_000_000_000, "lowerLetter")).toBe("1000000000");
    expect(formatNumber(1_000_000_000, "chicago")).toBe("1000000000");
    expect(formatNumber(1_000_000_000, "arabicAbjad")).toBe("1000000000");
  });
});
