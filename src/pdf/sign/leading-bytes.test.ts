import { describe, expect, it } from "vitest";
import { SignetError } from "../../errors";
import { PdfReader } from "../reader";
import { PdfAssembler, latin1Decode, type XrefRow } from "../../../test/support/pdf-assembler";
import { withoutLeadingBytes } from "./leading-bytes";

const FREE0: XrefRow = { num: 0, type: "f", a: 0, b: 65535 };
const JUNK = "%!PS-Adobe-3.0 job header\r\n@PJL ENTER LANGUAGE = PDF\r\n";

/** A one-page PDF after `JUNK`, its offsets counted from `%PDF-` (relative) or from the first byte. */
function prefixedPdf(offsets: "relative" | "absolute"): Uint8Array {
  const pdf = new PdfAssembler(JUNK + "%PDF-1.7\n");
  pdf.obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
  pdf.obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
  pdf.obj(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>");
  const base = offsets === "relative" ? JUNK.length : 0;
  const xref = pdf.table([FREE0, ...pdf.rowsFor([1, 2, 3], base)], "/Size 4 /Root 1 0 R");
  pdf.startxref(xref - base);
  return pdf.bytes();
}

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e instanceof SignetError ? e.code : String(e);
  }
  return null;
};

describe("signing a file with bytes before %PDF-", () => {
  it("leaves a file that starts with %PDF- as it is", () => {
    const bytes = prefixedPdf("relative").subarray(JUNK.length);
    const reader = PdfReader.open(bytes);
    expect(withoutLeadingBytes(reader, false)).toEqual({ reader, dropped: 0 });
  });

  it("drops the bytes when the offsets count from the header: the rest reads without repair", () => {
    const bytes = prefixedPdf("relative");
    const { reader, dropped } = withoutLeadingBytes(PdfReader.open(bytes), false);
    expect(dropped).toBe(JUNK.length);
    expect(latin1Decode(reader.bytes.subarray(0, 8))).toBe("%PDF-1.7");
    expect([reader.headerOffset, reader.offsetBase, reader.recovered]).toEqual([0, 0, false]);
    expect(reader.pages()).toHaveLength(1);
  });

  it("refuses offsets counted from the first byte (dropping the bytes would move every object)", () => {
    expect(code(() => withoutLeadingBytes(PdfReader.open(prefixedPdf("absolute")), false))).toBe("pdf_leading_bytes");
  });

  it("refuses a countersignature: earlier byte ranges may count from either place", () => {
    expect(code(() => withoutLeadingBytes(PdfReader.open(prefixedPdf("relative")), true))).toBe("pdf_leading_bytes");
  });
});
