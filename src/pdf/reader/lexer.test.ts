import { describe, expect, it } from "vitest";
import { PdfName, PdfString } from "../model";
import { Lexer, TK, type Token } from "./lexer";
import { latin1Decode, latin1Encode } from "../../../test/support/pdf-assembler";

function tokens(src: string): Token[] {
  const lx = new Lexer(latin1Encode(src));
  const out: Token[] = [];
  for (let t = lx.next(); t.kind !== TK.EOF; t = lx.next()) out.push(t);
  return out;
}
const values = (src: string) => tokens(src).map((t) => t.value);
const str = (src: string) => {
  const t = tokens(src)[0]!;
  expect(t.kind).toBe(TK.String);
  return latin1Decode((t.value as PdfString).bytes);
};

describe("lexer: numbers", () => {
  it("reads integers and reals, keeping them apart", () => {
    const ts = tokens("0 17 -98 +3 34.5 -3.62 +123.6 4. -.002 .5 0.0");
    expect(ts.map((t) => t.value)).toEqual([0, 17, -98, 3, 34.5, -3.62, 123.6, 4, -0.002, 0.5, 0]);
    expect(ts.map((t) => t.kind)).toEqual([
      TK.Int,
      TK.Int,
      TK.Int,
      TK.Int,
      TK.Real,
      TK.Real,
      TK.Real,
      TK.Real,
      TK.Real,
      TK.Real,
      TK.Real,
    ]);
  });
  it("tolerates writer quirks: double minus, a lone sign", () => {
    expect(values("--5")).toEqual([-5]);
    expect(values("- 3")).toEqual([0, 3]);
  });
  it("keeps precision of long integers", () => {
    expect(values("9007199254740991")).toEqual([9007199254740991]);
  });
  it("ends a number at a delimiter or a regular character", () => {
    expect(values("12/Name")).toEqual([12, new PdfName("Name")]);
    expect(values("[1 2]")).toEqual([null, 1, 2, null]);
  });
});

describe("lexer: names", () => {
  it("decodes #xx escapes to Latin-1 characters", () => {
    expect(values("/A#20B /Lime#20Green /paired#28#29parentheses /The_Key_of_F#23_Minor /#C3#A9")).toEqual([
      new PdfName("A B"),
      new PdfName("Lime Green"),
      new PdfName("paired()parentheses"),
      new PdfName("The_Key_of_F#_Minor"),
      new PdfName("\xc3\xa9"),
    ]);
  });
  it("keeps a stray # (PDF 1.0 style) and allows the empty name", () => {
    expect(values("/A#zz /B# /")).toEqual([new PdfName("A#zz"), new PdfName("B#"), new PdfName("")]);
  });
  it("ends names at delimiters", () => {
    expect(values("/Type/Page<<")).toEqual([new PdfName("Type"), new PdfName("Page"), null]);
  });
});

describe("lexer: literal strings", () => {
  it("handles the standard escapes", () => {
    expect(str("(a\\nb\\rc\\td\\be\\ff\\(g\\)h\\\\i)")).toBe("a\nb\rc\td\be\ff(g)h\\i");
  });
  it("handles octal escapes of 1 to 3 digits, ignoring overflow", () => {
    expect(str("(\\053\\53\\5x\\0053\\777)")).toBe("++\x05x\x053\xff");
  });
  it("keeps balanced parentheses without escapes", () => {
    expect(str("(outer (inner (deep)) done)")).toBe("outer (inner (deep)) done");
  });
  it("drops a backslash-EOL line continuation", () => {
    expect(str("(one \\\r\ntwo \\\nthree \\\rfour)")).toBe("one two three four");
  });
  it("reads an unescaped EOL of any kind as a single LF", () => {
    expect(str("(a\r\nb\rc\nd)")).toBe("a\nb\nc\nd");
  });
  it("ignores the backslash of an unknown escape", () => {
    expect(str("(\\q\\%)")).toBe("q%");
  });
  it("records the token's file offsets including delimiters", () => {
    const src = "  /Contents (ab\\)c) ";
    const t = tokens(src)[1]!;
    const s = t.value as PdfString;
    expect(s.hex).toBe(false);
    expect([s.start, s.end]).toEqual([12, 19]);
    expect(src.slice(s.start, s.end)).toBe("(ab\\)c)");
  });
  it("does not run past the end of input on an unterminated string", () => {
    expect(str("(abc")).toBe("abc");
  });
});

describe("lexer: hex strings", () => {
  it("decodes hex with white-space and pads an odd digit with 0", () => {
    expect(str("<48 65\n6C6c 6F>")).toBe("Hello");
    expect(str("<901FA>")).toBe("\x90\x1f\xa0");
    expect(str("<>")).toBe("");
  });
  it("keeps the exact offsets of a signature-sized /Contents", () => {
    const hex = "0".repeat(16384);
    const src = `<</Contents <${hex}> /M (x)>>`;
    const ts = tokens(src);
    const s = ts[2]!.value as PdfString;
    expect(s.hex).toBe(true);
    expect(s.bytes.length).toBe(8192);
    expect(s.start).toBe(src.indexOf("<0"));
    expect(s.end).toBe(src.indexOf("> /M") + 1);
  });
  it("gives -1 offsets for strings outside the file (object streams)", () => {
    const lx = new Lexer(latin1Encode("(x) <00>"), 0, 8, false);
    const a = lx.next().value as PdfString;
    const b = lx.next().value as PdfString;
    expect([a.start, a.end, b.start, b.end]).toEqual([-1, -1, -1, -1]);
  });
});

describe("lexer: structure", () => {
  it("skips comments and recognizes delimiters and keywords", () => {
    const ts = tokens("% comment\n<< /K [1 {2}] >> true false null obj endobj R %%EOF");
    expect(ts.map((t) => t.kind)).toEqual([
      TK.DictOpen,
      TK.Name,
      TK.ArrayOpen,
      TK.Int,
      TK.BraceOpen,
      TK.Int,
      TK.BraceClose,
      TK.ArrayClose,
      TK.DictClose,
      TK.Keyword,
      TK.Keyword,
      TK.Keyword,
      TK.Keyword,
      TK.Keyword,
      TK.Keyword,
    ]);
    expect(ts.slice(9).map((t) => t.value)).toEqual(["true", "false", "null", "obj", "endobj", "R"]);
  });
  it("respects its end bound", () => {
    const lx = new Lexer(latin1Encode("12 34 56"), 0, 5);
    expect([lx.next().value, lx.next().value, lx.next().kind]).toEqual([12, 34, TK.EOF]);
  });
});
