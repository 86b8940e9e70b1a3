import { describe, expect, it } from "vitest";
import { kashidaPositions } from "./kashida";

// Where LibreOffice 7.4 stretched the words of a justified Persian line (poi__stress004, page 5:
// "هـدف اول: خوانـدن قـرآن بـرای وصـول بـه علم و").
const split = (w: string) => kashidaPositions(w).map((i) => [w.slice(0, i), w.slice(i)]);

describe("kashida positions", () => {
  it("follow LibreOffice's priorities", () => {
    expect(split("هدف")).toEqual([["ه", "دف"]]); // before a dal
    expect(split("خواندن")).toEqual([["خوان", "دن"]]); // dal beats waw
    expect(split("قرآن")).toEqual([["ق", "رآن"]]); // before a reh
    expect(split("برای")).toEqual([["ب", "رای"]]);
    expect(split("وصول")).toEqual([["وص", "ول"]]); // after a sad, the highest priority
    expect(split("به")).toEqual([["ب", "ه"]]); // before a word-final heh
  });

  it("leave words without a joining place alone", () => {
    expect(kashidaPositions("علم")).toEqual([]); // a final meem is no place
    expect(kashidaPositions("اول")).toEqual([]); // alef and waw do not join forward
    expect(kashidaPositions("و")).toEqual([]);
    expect(kashidaPositions("hello world")).toEqual([]);
  });

  it("give one place per word, after the marks of its letter, and none inside lam-alef", () => {
    const text = "هدف اول: خواندن";
    expect(kashidaPositions(text)).toEqual([1, 13]);
    // A fatha on the heh: the stretch goes after the mark.
    expect(split("هَدف")).toEqual([["هَ", "دف"]]);
    // Lam + alef is one ligature: no stretch between them.
    expect(kashidaPositions("لا")).toEqual([]);
    // Not before a zero-width non-joiner after a seen.
    expect(kashidaPositions("س\u200cا")).toEqual([]);
  });
});
