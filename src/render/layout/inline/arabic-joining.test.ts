/**
 * Arabic joining forms (ArabicShaping.txt rules): what shape each letter takes in a word decides
 * how wide the word is, and so where lines break.
 */
import { describe, expect, it } from "vitest";
import { isDefaultIgnorable, joiningForms, needsJoining } from "./arabic-joining";

const forms = (s: string) => joiningForms([...s].map((c) => c.codePointAt(0)!));
const [ISO, FIN, INI, MED] = [0, 1, 2, 3];

describe("joiningForms", () => {
  it("joins dual-joining letters on both sides and stops after a right-joining letter", () => {
    // بنغلاديش: ب initial, ن غ ل medial, ا final; ا and د join nothing after them, so د is isolated.
    expect(forms("بنغلاديش")).toEqual([INI, MED, MED, MED, FIN, ISO, INI, FIN]);
    expect(forms("في")).toEqual([INI, FIN]);
    expect(forms("و")).toEqual([ISO]);
  });

  it("lets marks and tatweel carry the joining", () => {
    expect(forms("مُحَمَّد")).toEqual([INI, 0, MED, 0, MED, 0, 0, FIN]);
    expect(forms("مــم")).toEqual([INI, MED, MED, FIN]);
  });

  it("breaks joining at a zero-width non-joiner (Persian)", () => {
    expect(forms("می\u200Cخواهم")).toEqual([INI, FIN, ISO, INI, FIN, ISO, INI, FIN]);
  });

  it("needs no joining for Hebrew or Latin, and knows the format characters that draw nothing", () => {
    expect(needsJoining("שלום world")).toBe(false);
    expect(needsJoining("سلام")).toBe(true);
    expect([0x200c, 0x200f, 0x61c, 0x41].map(isDefaultIgnorable)).toEqual([true, true, true, false]);
  });
});
