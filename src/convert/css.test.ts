import { describe, expect, it } from "vitest";
import { cascade, fontFamily, fontSizePt, lengthPt, parseColor, parseStylesheet, type StyledElement } from "./css";

const el = (tag: string, cls: string[] = [], id?: string, parent?: StyledElement): StyledElement => ({
  tag,
  classes: cls,
  id,
  parent,
});

describe("CSS cascade", () => {
  it("applies rules by specificity then order, and the style attribute last", () => {
    const rules = parseStylesheet(
      `p { color: red } .note { color: blue } p.note { color: green } #x { color: navy } p { color: black }`,
    );
    expect(cascade(rules, el("p"), undefined).get("color")).toBe("black");
    expect(cascade(rules, el("p", ["note"]), undefined).get("color")).toBe("green");
    expect(cascade(rules, el("p", ["note"], "x"), undefined).get("color")).toBe("navy");
    expect(cascade(rules, el("p", ["note"], "x"), "color: teal !important").get("color")).toBe("teal");
  });

  it("matches descendant and child combinators, and skips selectors it does not understand whole", () => {
    const rules = parseStylesheet(
      `table td { padding: 4px } ul > li { margin: 0 } a:hover, li + li, [href] { color: red }`,
    );
    const td = el("td", [], undefined, el("tr", [], undefined, el("tbody", [], undefined, el("table"))));
    expect(cascade(rules, td, undefined).get("padding-left")).toBe("4px");
    const nested = el("li", [], undefined, el("div", [], undefined, el("ul")));
    expect(cascade(rules, nested, undefined).has("margin-top")).toBe(false);
    expect(cascade(rules, el("li", [], undefined, el("ul")), undefined).get("margin-top")).toBe("0");
    expect(rules.some((r) => JSON.stringify(r.declarations).includes("red"))).toBe(false);
  });

  it("reads @media print and all, skips screen, @import and @font-face", () => {
    const rules =
      parseStylesheet(`@import url(https://evil.example/x.css); @font-face { font-family: X; src: url(https://evil.example/x.woff) }
      @media screen { p { color: red } } @media print { p { color: blue } }`);
    expect(cascade(rules, el("p"), undefined).get("color")).toBe("blue");
    expect(rules).toHaveLength(1);
  });

  it("expands margin, padding and border shorthands, later longhands winning", () => {
    const d = cascade(
      parseStylesheet(`p { margin: 1px 2px 3px; margin-left: 9px; border: 1px solid #ccc }`),
      el("p"),
      undefined,
    );
    expect([d.get("margin-top"), d.get("margin-right"), d.get("margin-bottom"), d.get("margin-left")]).toEqual([
      "1px",
      "2px",
      "3px",
      "9px",
    ]);
    expect(d.get("border-bottom")).toBe("1px solid #ccc");
  });
});

describe("CSS values", () => {
  it("reads colours, lengths, font sizes and families", () => {
    expect([
      parseColor("#abc"),
      parseColor("rgb(255, 0, 16)"),
      parseColor("Navy"),
      parseColor("transparent"),
      parseColor("rgba(1,2,3,0)"),
    ]).toEqual(["AABBCC", "FF0010", "000080", undefined, undefined]);
    expect([
      lengthPt("16px", 12),
      lengthPt("2em", 10),
      lengthPt("1in", 12),
      lengthPt("50%", 12, 400),
      lengthPt("0", 12),
      lengthPt("auto", 12),
    ]).toEqual([12, 20, 72, 200, 0, undefined]);
    expect([fontSizePt("small", 12), fontSizePt("150%", 10), fontSizePt("larger", 10)]).toEqual([10, 15, 12]);
    expect([fontFamily("'Helvetica Neue', Arial, sans-serif"), fontFamily("monospace")]).toEqual([
      "Helvetica Neue",
      "Courier New",
    ]);
  });
});
