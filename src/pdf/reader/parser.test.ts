import { describe, expect, it } from "vitest";
import { PdfUnparseable } from "../../errors";
import { PdfDict, PdfName, PdfRef, PdfStream, PdfString, type PdfValue } from "../model";
import { Budget, PdfBudgetExceeded, type PdfLimits } from "./budget";
import { Lexer } from "./lexer";
import { Parser, type ParseContext } from "./parser";
import { asciiBytes, findAll } from "./search";
import { latin1Decode, latin1Encode } from "../../../test/support/pdf-assembler";

function parser(src: string | Uint8Array, limits?: Partial<PdfLimits>, extra: Partial<ParseContext> = {}) {
  const bytes = typeof src === "string" ? latin1Encode(src) : src;
  const budget = new Budget(limits);
  const ends = findAll(bytes, asciiBytes("endstream"));
  const ctx: ParseContext = {
    budget,
    findEndstream: (from) => ends.find((e) => e >= from) ?? -1,
    ...extra,
  };
  return { p: new Parser(new Lexer(bytes), ctx), budget, bytes };
}
const parse = (src: string, limits?: Partial<PdfLimits>): PdfValue => parser(src, limits).p.getObject();

describe("parser: objects", () => {
  it("builds references only from `int int R`", () => {
    expect(parse("[1 0 R 2 0 3 4 5 R 1.0 0 R -1 0 R]")).toEqual([
      new PdfRef(1, 0),
      2,
      0,
      3,
      new PdfRef(4, 5),
      1, // 1.0 is a real: not a reference ("0" follows, "R" is dropped as junk)
      0,
      -1,
      0,
    ]);
  });
  it("parses nested dictionaries and arrays with every value type", () => {
    const v = parse("<< /A true /B false /C null /D 1.5 /E (s) /F <41> /G [/N [1]] /H << /I 2 0 R >> >>");
    expect(v).toBeInstanceOf(PdfDict);
    const d = v as PdfDict;
    expect(d.get("A")).toBe(true);
    expect(d.get("B")).toBe(false);
    expect(d.get("C")).toBe(null);
    expect(d.get("D")).toBe(1.5);
    expect(latin1Decode((d.get("E") as PdfString).bytes)).toBe("s");
    expect((d.get("F") as PdfString).hex).toBe(true);
    expect(d.get("G")).toEqual([new PdfName("N"), [1]]);
    expect((d.get("H") as PdfDict).get("I")).toEqual(new PdfRef(2, 0));
  });
  it("keeps the last of duplicate keys and drops junk like other readers", () => {
    const d = parse("<< /K 1 /K 2 /J NaN /L [1 NaN 2 )] >>") as PdfDict;
    expect(d.get("K")).toBe(2);
    expect(d.has("J")).toBe(false);
    expect(d.get("L")).toEqual([1, 2]);
  });
  it("rejects unterminated collections instead of swallowing the file", () => {
    expect(() => parse("[1 2 endobj")).toThrow(PdfUnparseable);
    expect(() => parse("<< /A 1 endobj")).toThrow(PdfUnparseable);
    expect(() => parse("<< /A [1 2")).toThrow(PdfUnparseable);
    expect(() => parse("")).toThrow(PdfUnparseable);
  });
});

describe("parser: budgets", () => {
  it("stops deep nesting at maxDepth", () => {
    expect(parse("[".repeat(64) + "]".repeat(64))).toBeDefined();
    const deep = "[".repeat(100_000);
    expect(() => parse(deep)).toThrow(PdfBudgetExceeded);
    expect(() => parse("<< /A ".repeat(65) + ">>".repeat(65))).toThrow(/deeper than 64/);
  });
  it("stops huge arrays and dictionaries at maxCollectionSize", () => {
    const n = 1_000_001;
    const big = "[" + "0 ".repeat(n) + "]";
    expect(() => parse(big)).toThrow(/more than 1000000 elements/);
    expect(() =>
      parse("<< " + Array.from({ length: 11 }, (_, i) => `/K${i} 1`).join(" ") + " >>", { maxCollectionSize: 10 }),
    ).toThrow(PdfBudgetExceeded);
    expect((parse("[" + "1 ".repeat(10) + "]", { maxCollectionSize: 10 }) as number[]).length).toBe(10);
  });
  it("counts work and stops at maxWorkUnits", () => {
    const many = "[" + "[] ".repeat(200) + "]";
    expect(() => parse(many, { maxWorkUnits: 100 })).toThrow(/units of work/);
    expect(() => parse(many, { maxWorkUnits: 1000 })).not.toThrow();
  });
});

describe("parser: indirect objects and streams", () => {
  it("parses `N G obj ... endobj` and reports where it ends", () => {
    const src = "12 3 obj << /A 1 >> endobj 13 0 obj";
    const { p } = parser(src);
    const o = p.indirectObject();
    expect([o.num, o.gen, o.end]).toEqual([12, 3, src.indexOf("endobj") + 6]);
  });
  it("finds stream data from a direct /Length", () => {
    const src = "5 0 obj\n<< /Length 5 >>\nstream\r\nhello\nendstream\nendobj\n";
    const o = parser(src).p.indirectObject();
    const s = o.value as PdfStream;
    expect(s).toBeInstanceOf(PdfStream);
    expect(src.slice(s.dataStart, s.dataEnd)).toBe("hello");
  });
  it("resolves an indirect /Length through the context", () => {
    const src = "5 0 obj\n<< /Length 9 0 R >>\nstream\nhel\nlo\nendstream\nendobj\n";
    const o = parser(src, {}, { resolveLength: (r) => (r.num === 9 ? 6 : undefined) }).p.indirectObject();
    const s = o.value as PdfStream;
    expect(src.slice(s.dataStart, s.dataEnd)).toBe("hel\nlo");
  });
  it("falls back to `endstream` when /Length is wrong, missing or unresolvable", () => {
    for (const len of ["/Length 3", "/Length 999999", "", "/Length 7 0 R", "/Length (x)"]) {
      const src = `5 0 obj\n<< ${len} >>\nstream\nhello world\r\nendstream\nendobj\n`;
      const o = parser(src).p.indirectObject();
      const s = o.value as PdfStream;
      expect(src.slice(s.dataStart, s.dataEnd)).toBe("hello world");
      expect(o.end).toBe(src.lastIndexOf("endobj") + 6);
    }
  });
  it("uses /Length when `endstream` is missing, and fails cleanly when both are", () => {
    const ok = "5 0 obj\n<< /Length 5 >>\nstream\nhelloXXXX";
    const s = parser(ok).p.indirectObject().value as PdfStream;
    expect([s.dataStart, s.dataEnd]).toEqual([ok.indexOf("hello"), ok.indexOf("hello") + 5]);
    expect(() => parser("5 0 obj\n<< >>\nstream\nhello").p.indirectObject()).toThrow(PdfUnparseable);
  });
  it("rejects a missing object header", () => {
    expect(() => parser("5 0 << >> endobj").p.indirectObject()).toThrow(/N G obj/);
  });
  it("passes strings through the decryption hook with the object's number", () => {
    const seen: string[] = [];
    const { p } = parser(
      "7 2 obj [(a) <62>] endobj",
      {},
      {
        decryptString: (s, n, g) => {
          seen.push(`${n}/${g}`);
          return new PdfString(
            s.bytes.map((b) => b + 1),
            s.hex,
            s.start,
            s.end,
          );
        },
      },
    );
    const v = p.indirectObject().value as PdfString[];
    expect(v.map((s) => latin1Decode(s.bytes))).toEqual(["b", "c"]);
    expect(seen).toEqual(["7/2", "7/2"]);
  });
});
