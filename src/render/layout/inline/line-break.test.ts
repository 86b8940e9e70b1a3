/**
 * Line-break opportunities (our UAX #14 subset) on strings where wrapping goes wrong in practice:
 * glue characters, hyphens next to digits, CJK punctuation, surrogate pairs, combining marks.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BREAK, lineBreakOpportunities, PULLED_BACK } from "./line-break";

/** The text cut at every opportunity of `kind` (plain ones by default). */
function segments(text: string, kind = BREAK): string[] {
  const breaks = lineBreakOpportunities(text);
  const out: string[] = [];
  let start = 0;
  for (let i = 1; i < text.length; i++) {
    if (breaks[i] === kind) {
      out.push(text.slice(start, i));
      start = i;
    }
  }
  out.push(text.slice(start));
  return out;
}

describe("lineBreakOpportunities", () => {
  it("breaks between closing punctuation and an opening bracket, not after a closing quote", () => {
    expect(segments("Profile,(2000), a)(b) end.(x)")).toEqual(["Profile,", "(2000), ", "a)", "(b) ", "end.", "(x)"]);
    expect(segments("quote\u201d(inner)")).toEqual(["quote\u201d(inner)"]);
    expect(segments("f(x) a[b]")).toEqual(["f(x) ", "a[b]"]);
    expect(segments("5%(x) a-(b) Wow!Next C:\\Dir")).toEqual([
      "5%",
      "(x) ",
      "a-",
      "(b) ",
      "Wow!",
      "Next ",
      "C:\\",
      "Dir",
    ]);
    expect(segments("page.php?id=1")).toEqual(["page.php?", "id=1"]);
  });

  it("breaks after an ellipsis before a letter, a digit or a bracket, and before one after a space or punctuation", () => {
    expect(segments("Panik\u2026die \u202612 a\u2026(b) end.\u2026x word \u2026 y")).toEqual([
      "Panik\u2026",
      "die ",
      "\u2026",
      "12 ",
      "a\u2026",
      "(b) ",
      "end.",
      "\u2026",
      "x ",
      "word ",
      "\u2026 ",
      "y",
    ]);
    // Not before one after a letter, not before closing punctuation or a quote after it.
    expect(segments("wait\u2026) so\u2026\u201cx\u201d")).toEqual(["wait\u2026) ", "so\u2026\u201cx\u201d"]);
  });

  it("breaks after a solidus plainly only where no whitespace stands in the 65 characters before it", () => {
    expect(segments("src/main/resources")).toEqual(["src/", "main/", "resources"]);
    expect(segments("x Nurse/care")).toEqual(["x ", "Nurse/care"]);
    expect(segments(`x ${"a".repeat(64)}/b`)).toEqual(["x ", `${"a".repeat(64)}/b`]);
    // With whitespace before, the opportunity is one LibreOffice pulls back to that whitespace (line-fit.ts).
    expect(segments("x Nurse/care", PULLED_BACK)).toEqual(["x Nurse/", "care"]);
    expect(segments("at http://a-b.org/c/d", PULLED_BACK)).toEqual(["at http://", "a-b.org/", "c/", "d"]);
    expect(segments(`x ${"a".repeat(65)}/b`, PULLED_BACK)).toEqual([`x ${"a".repeat(65)}/b`]);
    expect(segments(`x ${"a".repeat(65)}/b`)).toEqual(["x ", `${"a".repeat(65)}/`, "b"]);
    // Not inside a number, not before a Hebrew letter (UAX #14 LB21b), not before punctuation.
    expect(segments("abc/123 10/12")).toEqual(["abc/", "123 ", "10/12"]);
    expect(segments("{/\u05ea\u05dc}")).toEqual(["{/\u05ea\u05dc}"]);
    expect(segments("a/(b)")).toEqual(["a/(b)"]);
  });

  it("breaks after spaces, keeping runs of spaces on the line they follow", () => {
    expect(segments("Hello  world again")).toEqual(["Hello  ", "world ", "again"]);
    expect(segments("  leading")).toEqual(["  ", "leading"]);
  });

  it("never breaks at no-break spaces, the non-breaking hyphen or word joiners", () => {
    expect(segments("10\u00A0kg of flour")).toEqual(["10\u00A0kg ", "of ", "flour"]);
    expect(segments("well\u2011known")).toEqual(["well\u2011known"]);
    expect(segments("a\u202Fb\u2060c d")).toEqual(["a\u202Fb\u2060c ", "d"]);
  });

  it("breaks after a hyphen between letters or digits, as LibreOffice does (not after one that starts a word)", () => {
    expect(segments("well-known")).toEqual(["well-", "known"]);
    expect(segments("self\u2010aware")).toEqual(["self\u2010", "aware"]);
    expect(segments("pages 10-12 and x-1")).toEqual(["pages ", "10-", "12 ", "and ", "x-", "1"]);
    expect(segments("a -b")).toEqual(["a ", "-b"]);
    expect(segments("(-5) --")).toEqual(["(-5) ", "--"]);
  });

  it("breaks after en dashes and around em dashes", () => {
    expect(segments("1990\u20132000")).toEqual(["1990\u2013", "2000"]);
    expect(segments("yes\u2014no")).toEqual(["yes", "\u2014", "no"]);
  });

  it("treats a zero-width space as an opportunity and the soft hyphen as none", () => {
    expect(segments("www.example.com/\u200Bpath")).toEqual(["www.example.com/\u200B", "path"]);
    expect(segments("co\u00ADoperate")).toEqual(["co\u00ADoperate"]);
    expect(segments("a\u200B b")).toEqual(["a\u200B ", "b"]);
  });

  it("does not break before closing punctuation, even after a space", () => {
    expect(segments("(see below) now")).toEqual(["(see ", "below) ", "now"]);
    expect(segments("Vraiment ?")).toEqual(["Vraiment ?"]);
    expect(segments("end. Next")).toEqual(["end. ", "Next"]);
  });

  it("reads ‘ “ « after a word as closing (German „so“), at a word's start as opening", () => {
    expect(segments("In „Die Tagen“ drückt")).toEqual(["In ", "„Die ", "Tagen“ ", "drückt"]);
    expect(segments("aus: „selbst.“ Mit")).toEqual(["aus: ", "„selbst.“ ", "Mit"]);
    // A quotation mark after a space is QU to LibreOffice: the spaces after it may end a line (measured).
    expect(segments("He said “ hello” and «so» too")).toEqual([
      "He ",
      "said ",
      "“ ",
      "hello” ",
      "and ",
      "«so» ",
      "too",
    ]);
    // ” ’ » after a space and before a letter open (Arabic usage ”…“, German »…«); before a space
    // they may start a line, as LibreOffice wraps `name|” and`.
    expect(segments("said ”hello“ and »so« now ” ok")).toEqual([
      "said ",
      "”hello“ ",
      "and ",
      "»so« ",
      "now ",
      "” ",
      "ok",
    ]);
    expect(segments("ein Zitat« und")).toEqual(["ein ", "Zitat« ", "und"]);
    expect(segments("引用“文字")).toEqual(["引", "用", "“文", "字"]);
  });

  it("breaks between ideographs but not before closing or after opening CJK punctuation", () => {
    expect(segments("日本語")).toEqual(["日", "本", "語"]);
    expect(segments("日本。語")).toEqual(["日", "本。", "語"]);
    expect(segments("「日本」です")).toEqual(["「日", "本」", "で", "す"]);
    expect(segments("Hello日本")).toEqual(["Hello", "日", "本"]);
  });

  it("wraps Korean at spaces, like Latin text (as Word and LibreOffice do)", () => {
    expect(segments("한국어 텍스트")).toEqual(["한국어 ", "텍스트"]);
  });

  it("keeps small kana and the prolonged sound mark with what precedes them", () => {
    expect(segments("ちょっと")).toEqual(["ちょっ", "と"]);
    expect(segments("コーヒー")).toEqual(["コー", "ヒー"]);
  });

  it("never breaks inside a surrogate pair or before a combining mark", () => {
    expect(segments("\u{20000}\u{20001}")).toEqual(["\u{20000}", "\u{20001}"]);
    expect(segments("e\u0301 x")).toEqual(["e\u0301 ", "x"]);
    expect(segments("日\u0301本")).toEqual(["日\u0301", "本"]);
  });

  it("breaks after tabs and around inline objects", () => {
    expect(segments("a\tb")).toEqual(["a\t", "b"]);
    expect(segments("a\uFFFCb")).toEqual(["a", "\uFFFC", "b"]);
  });

  it("never sets the ends, never breaks before a space or inside a pair, on any text", () => {
    const chars = fc.constantFrom(
      ..."ab1 -\u2010\u00A0\u200B\u3002\u300C日本ちょ\u0301()\t\uFFFC".split(""),
      "\u{20000}",
      "😀",
      "\u05D0",
      "\u0627",
    );
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 40 }), (parts) => {
        const text = parts.join("");
        const b = lineBreakOpportunities(text);
        expect(b.length).toBe(text.length + 1);
        expect(b[0]).toBe(0);
        expect(b[text.length]).toBe(0);
        for (let i = 1; i < text.length; i++) {
          if (!b[i]) continue;
          const c = text.charCodeAt(i);
          expect(c >= 0xdc00 && c <= 0xdfff, "inside a surrogate pair").toBe(false);
          expect(text[i] === " " || text[i] === "\u0301", "before a space or mark").toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
