import type { PdfDict, PdfString } from "../model";

/**
 * The one place where decryption will plug in (ISO 32000-2 §7.6). Today Signet
 * refuses encrypted input, so `createSecurityHandler` returns null and the
 * reader only reports `encrypted`. A later handler (standard security handler
 * with the empty user password, RC4 / AES-128 / AES-256) implements this
 * interface; the reader already calls it at the right points:
 *
 * - `decryptString` for every string of an indirect object parsed from the file
 *   (not for strings inside object streams, whose stream is decrypted as a whole,
 *   not for the xref stream dictionary, and not for the `/Encrypt` dictionary);
 * - `decryptStream` on raw stream data before its filters run (not for xref
 *   streams, nor for streams whose first filter is `/Crypt /Identity`).
 *
 * Signature `/Contents` strings are never encrypted (§7.6.2); verification reads
 * them through `PdfString.start/end` on the file bytes, which a handler keeps.
 */
export interface SecurityHandler {
  decryptString(num: number, gen: number, s: PdfString): PdfString;
  decryptStream(num: number, gen: number, dict: PdfDict, data: Uint8Array): Uint8Array;
}

export function createSecurityHandler(_encrypt: PdfDict, _trailer: PdfDict): SecurityHandler | null {
  return null;
}
