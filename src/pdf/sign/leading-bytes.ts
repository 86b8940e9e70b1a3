import { UnprocessableContent } from "../../errors";
import { PdfReader } from "../reader";

/**
 * Files with bytes before `%PDF-` (a print workflow's job header, mail junk) are read by
 * validators in three ways: Adobe counts a signature's byte ranges from `%PDF-` (as the file's
 * own cross-reference offsets), poppler from the file's first byte, and MuPDF (1.21) cannot check
 * a signature in such a file at all ("byte range extends past end of file": it never learns the
 * file's size when the header is not at offset 0). No byte range satisfies all three, so Signet
 * signs such a file without its leading bytes: what remains starts with `%PDF-` and its offsets
 * were already counted from there, so every validator reads the same byte ranges.
 *
 * Refused (422 `pdf_leading_bytes`) when dropping the bytes would change what the file says:
 * offsets counted from the first byte (they would all move), a cross-reference the reader had to
 * rebuild, or earlier signatures (their byte ranges were counted one way or the other).
 */
export interface WithoutLeadingBytes {
  reader: PdfReader;
  /** How many bytes before `%PDF-` were dropped (0: the file already started with it). */
  dropped: number;
}

export function withoutLeadingBytes(reader: PdfReader, countersign: boolean): WithoutLeadingBytes {
  const dropped = reader.headerOffset;
  if (dropped === 0) return { reader, dropped: 0 };
  const where = `The PDF has ${dropped} bytes before its %PDF- header`;
  if (countersign) {
    throw leadingBytes(
      `${where} and already carries signatures: validators disagree where their byte ranges start (Adobe counts from %PDF-, poppler from the first byte, MuPDF cannot check them), so no countersignature would be valid in all of them. Remove the bytes before %PDF- first.`,
    );
  }
  if (reader.offsetBase !== dropped || reader.recovered) {
    throw leadingBytes(
      `${where}, and its cross-reference offsets do not count from the header; Signet cannot drop those bytes without breaking the file, and a signature over them would not be valid in every validator. Save the document again (any PDF tool) and sign that.`,
    );
  }
  return { reader: PdfReader.open(reader.bytes.subarray(dropped)), dropped };
}

function leadingBytes(message: string) {
  return new UnprocessableContent("pdf_leading_bytes", message);
}
