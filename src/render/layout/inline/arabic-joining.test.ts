/**
 * Arabic joining types (ArabicShaping.txt): which letters join, for kashida places and joins across
 * runs (the forms themselves are HarfBuzz's).
 */
import { describe, expect, it } from "vitest";
import { isDefaultIgnorable, joiningType, needsJoining } from "./arabic-joining";

describe("joiningType", () => {
  it("tells dual-joining letters, right-joining letters, marks and the tatweel apart", () => {
    expect([..."بادُـء"].map((c) => joiningType(c.codePointAt(0)!))).toEqual(["D", "R", "R", "T", "C", "U"]);
  });

  it("needs no joining for Hebrew or Latin, and knows the format characters that draw nothing", () => {
    expect(needsJoining("שלום world")).toBe(false);
    expect(needsJoining("سلام")).toBe(true);
    expect([0x200c, 0x200f, 0x61c, 0x41].map(isDefaultIgnorable)).toEqual([true, true, true, false]);
  });
});
