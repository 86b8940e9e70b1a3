/**
 * Visual order inside one text item on a left-to-right line, checked against the Unicode bidi
 * algorithm's results for the same strings (UAX #9: RTL letters reverse, European digits inside
 * an RTL run keep their order, neutrals between RTL letters join the run).
 */
import { describe, expect, it } from "vitest";
import { hasRtl, visualSegments } from "./bidi-runs";

/** What the reader sees left to right: RTL segments are drawn reversed (fontkit reverses their glyphs). */
const visual = (text: string) =>
  visualSegments(text)
    .map((s) => (s.rtl ? [...s.text].reverse().join("") : s.text))
    .join("");

describe("visualSegments", () => {
  it("leaves left-to-right text as one segment", () => {
    expect(visualSegments("Signed on 21 Nov 2026 (draft)")).toEqual([
      { text: "Signed on 21 Nov 2026 (draft)", rtl: false },
    ]);
    expect(hasRtl("Договор Σύμβαση")).toBe(false);
  });

  it("reverses a Hebrew phrase inside Latin text, keeping the surrounding order", () => {
    expect(visual("Name: שלום עולם, ok")).toBe("Name: םלוע םולש, ok");
  });

  it("keeps numbers inside a right-to-left run in reading order", () => {
    // Logical: shalom 123 olam → visual: olam(reversed) 123 shalom(reversed).
    expect(visual("שלום 123 עולם")).toBe("םלוע 123 םולש");
    expect(visual("סכום 1,250.50 ש")).toBe("ש 1,250.50 םוכס");
  });

  it("draws Arabic segments as RTL for shaping, splitting nothing inside a word", () => {
    const segs = visualSegments("Total: مرحبا بالعالم");
    expect(segs).toEqual([
      { text: "Total: ", rtl: false },
      { text: "مرحبا بالعالم", rtl: true },
    ]);
  });

  it("joins all pieces back to the original characters", () => {
    for (const s of ["a ש 1 ב c", "שלום", "12 שלום 34", "(שלום)", "ש.ב"]) {
      expect(
        [
          ...visualSegments(s)
            .map((x) => x.text)
            .join(""),
        ].sort(),
      ).toEqual([...s].sort());
    }
  });
});

describe("visualSegments of a right-to-left item", () => {
  it("draws the whole item reversed with mirrored brackets, letters as one shaped segment", () => {
    // Mirrored brackets keep the typed character for copy and search (ToUnicode).
    expect(visualSegments("{#תלמידים}", true)).toEqual([
      { text: "{", rtl: false, typed: "}" },
      { text: "תלמידים", rtl: true },
      { text: "#}", rtl: false, typed: "#{" },
    ]);
    expect(visual2("(שלום):")).toBe(":(םולש)");
  });

  it("keeps an Arabic word with tatweel and marks in one segment for joining", () => {
    expect(visualSegments("الأمــم", true)).toEqual([{ text: "الأمــم", rtl: true }]);
    expect(visualSegments("مُحَمَّد.", true)).toEqual([
      { text: ".", rtl: false },
      { text: "مُحَمَّد", rtl: true },
    ]);
  });
});

describe("visualSegments drops format characters", () => {
  it("splits a Persian word at its zero-width non-joiner, kept as a zero-width segment for the copied text (fontkit drew a space)", () => {
    expect(visualSegments("می\u200Cخواهم", true)).toEqual([
      { text: "خواهم", rtl: true },
      { text: "\u200c", rtl: false, zeroWidth: true },
      { text: "می", rtl: true },
    ]);
    expect(visualSegments("\u200Fשלום", true)).toEqual([{ text: "שלום", rtl: true }]);
  });
});

/** Drawn left to right when the item is at a right-to-left level. */
const visual2 = (text: string) =>
  visualSegments(text, true)
    .map((s) => (s.rtl ? [...s.text].reverse().join("") : s.text))
    .join("");
