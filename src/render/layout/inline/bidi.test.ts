/**
 * Bidi levels and line order, checked against the Unicode bidi algorithm's results for the same
 * strings (UAX #9 reference behaviour: what the reader sees, left to right).
 */
import { describe, expect, it } from "vitest";
import { bidiClass, mirrorChar, resolveLevels, visualOrderOfLevels } from "./bidi";

/** The text as drawn left to right: characters reordered by L2, mirrored at odd levels. */
function display(text: string, base: 0 | 1): string {
  const chars = [...text];
  const levels: number[] = [];
  for (let i = 0, u = 0; i < chars.length; u += chars[i]!.length, i++) levels.push(resolveLevels(text, base)[u]!);
  return visualOrderOfLevels(levels)
    .map((i) => (levels[i]! % 2 ? mirrorChar(chars[i]!) : chars[i]!))
    .join("");
}

describe("resolveLevels", () => {
  it("leaves a left-to-right paragraph without right-to-left text at level 0", () => {
    expect([...resolveLevels("Signed (draft) 21.11.2026", 0)].every((l) => l === 0)).toBe(true);
  });

  it("reverses Hebrew inside an English sentence, punctuation between scripts staying with the paragraph", () => {
    expect(display("Name: (שלום עולם), ok", 0)).toBe("Name: (םלוע םולש), ok");
  });

  it("puts an RTL paragraph's opening brace on the right, mirrored, and keeps digits left to right", () => {
    // Logical "{#תלמידים}" in a bidi paragraph reads from the right: the "{" is the rightmost glyph, drawn "}".
    expect(display("{#תלמידים}", 1)).toBe("{םידימלת#}");
    expect(display("סכום 1,250.50 ש", 1)).toBe("ש 1,250.50 םוכס");
    expect(display("עמוד 12 מתוך 30", 1)).toBe("30 ךותמ 12 דומע");
  });

  it("resolves paired brackets by what they enclose and what precedes them (N0)", () => {
    // Latin in a right-to-left paragraph: the closing bracket stays after "hint".
    expect(display("Context (with hint)", 1)).toBe("Context (with hint)");
    // Latin inside brackets in Hebrew: the brackets take the paragraph's direction (mirrored).
    expect(display("ראו (see 4) כאן", 1)).toBe("ןאכ (see 4) וא" + "ר");
    // A bracket without its pair is left to the neutral rules; nested pairs resolve outside in.
    expect(display("a (b [c] d) e", 0)).toBe("a (b [c] d) e");
    expect(display("abc (שלום) def", 0)).toBe("abc (םולש) def");
  });

  it("keeps an English phrase in order inside a right-to-left paragraph, with its trailing digits", () => {
    expect(display("ראה Word 2016 כאן.", 1)).toBe(".ןאכ Word 2016 האר");
  });

  it("reads European digits after Arabic letters as Arabic numbers; a percent sign joins only European digits", () => {
    expect(display("הנחה 50% בלבד", 1)).toBe("דבלב 50% החנה");
    expect(display("نسبة 50% فقط", 1)).toBe("طقف %50 ةبسن");
    // "1-2" after an Arabic letter: AN, and the minus between Arabic numbers is neutral (not joined).
    const lv = resolveLevels("ب 1-2", 1);
    expect([...lv]).toEqual([1, 1, 2, 1, 2]);
  });

  it("keeps Persian words with a zero-width non-joiner in one right-to-left run", () => {
    const lv = resolveLevels("می\u200Cخواهم", 0);
    expect([...lv].every((l) => l === 1)).toBe(true);
  });

  it("puts tabs and trailing spaces at the paragraph level (rule L1)", () => {
    expect([...resolveLevels("שלום\tעולם ", 0)]).toEqual([1, 1, 1, 1, 0, 1, 1, 1, 1, 0]);
  });
});

describe("visualOrderOfLevels", () => {
  it("reverses from the highest level down to the lowest odd level", () => {
    expect(visualOrderOfLevels([0, 1, 1, 2, 2, 1, 0])).toEqual([0, 5, 3, 4, 2, 1, 6]);
    expect(visualOrderOfLevels([1, 1, 1])).toEqual([2, 1, 0]);
    expect(visualOrderOfLevels([0, 0])).toEqual([0, 1]);
  });
});

describe("bidiClass", () => {
  it("classifies the scripts and numbers Word documents mix", () => {
    expect(
      ["A", "ש", "ب", "5", "٥", "۵", "ـ", "\u064E", "\u200C", ",", "%", " "].map((c) => bidiClass(c.codePointAt(0)!)),
    ).toEqual(["L", "R", "AL", "EN", "AN", "EN", "AL", "NSM", "BN", "CS", "ET", "WS"]);
  });
});
