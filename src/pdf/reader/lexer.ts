import { PdfName, PdfString } from "../model";
import { latin1Text } from "../../util/bytes";

/**
 * Layer 1 of the reader: a tokenizer over a byte array (ISO 32000-2 §7.2).
 * It never converts the file to a JS string; only tokens that need it (names,
 * keywords, reals) become short strings. Every token carries its start/end
 * offsets so signature verification can point at the exact bytes of a string.
 */

/** Character classes: 0 regular, 1 white-space, 2 delimiter. */
export const CHAR_CLASS = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) CHAR_CLASS[c] = 1;
for (const c of "()<>[]{}/%") CHAR_CLASS[c.charCodeAt(0)] = 2;

export const isWhite = (c: number | undefined): boolean => c !== undefined && CHAR_CLASS[c] === 1;
export const isRegular = (c: number | undefined): boolean => c !== undefined && CHAR_CLASS[c] === 0;
export const isDigit = (c: number | undefined): boolean => c !== undefined && c >= 0x30 && c <= 0x39;

export const TK = {
  EOF: 0,
  Int: 1,
  Real: 2,
  Name: 3,
  String: 4,
  Keyword: 5,
  ArrayOpen: 6,
  ArrayClose: 7,
  DictOpen: 8,
  DictClose: 9,
  BraceOpen: 10,
  BraceClose: 11,
} as const;
export type TokenKind = (typeof TK)[keyof typeof TK];

export type Token =
  | { kind: typeof TK.Int | typeof TK.Real; value: number; start: number; end: number }
  | { kind: typeof TK.Name; value: PdfName; start: number; end: number }
  | { kind: typeof TK.String; value: PdfString; start: number; end: number }
  | { kind: typeof TK.Keyword; value: string; start: number; end: number }
  | {
      kind:
        | typeof TK.EOF
        | typeof TK.ArrayOpen
        | typeof TK.ArrayClose
        | typeof TK.DictOpen
        | typeof TK.DictClose
        | typeof TK.BraceOpen
        | typeof TK.BraceClose;
      value: null;
      start: number;
      end: number;
    };

const HEX_VALUE = new Int8Array(256).fill(-1);
for (let i = 0; i < 10; i++) HEX_VALUE[0x30 + i] = i;
for (let i = 0; i < 6; i++) {
  HEX_VALUE[0x41 + i] = 10 + i;
  HEX_VALUE[0x61 + i] = 10 + i;
}
export const hexValue = (c: number | undefined): number => (c === undefined ? -1 : HEX_VALUE[c]!);

/** A growable byte buffer, reused by the lexer for string and name bodies. */
class Scratch {
  buf = new Uint8Array(256);
  len = 0;
  push(b: number): void {
    if (this.len === this.buf.length) {
      const n = new Uint8Array(this.buf.length * 2);
      n.set(this.buf);
      this.buf = n;
    }
    this.buf[this.len++] = b;
  }
  take(): Uint8Array {
    const out = this.buf.slice(0, this.len);
    this.len = 0;
    return out;
  }
}

/** One scratch buffer for all lexers: a token is read start to finish without nesting. */
const SCRATCH = new Scratch();

export class Lexer {
  pos: number;
  private readonly scratch = SCRATCH;

  /**
   * @param bytes the buffer (the whole file, or decoded object-stream data)
   * @param pos where to start
   * @param end where the input ends for this lexer (exclusive)
   * @param fileOffsets whether token offsets are file offsets (false for object-stream
   *   data: strings then get start/end -1 because they do not exist in the file as written)
   */
  constructor(
    readonly bytes: Uint8Array,
    pos = 0,
    readonly end = bytes.length,
    readonly fileOffsets = true,
  ) {
    this.pos = pos;
  }

  /** Skips white-space and comments. */
  skipSpace(): void {
    const b = this.bytes;
    let p = this.pos;
    const end = this.end;
    while (p < end) {
      const c = b[p]!;
      if (CHAR_CLASS[c] === 1) p++;
      else if (c === 0x25 /* % */) {
        p++;
        while (p < end && b[p] !== 0x0a && b[p] !== 0x0d) p++;
      } else break;
    }
    this.pos = p;
  }

  next(): Token {
    this.skipSpace();
    const b = this.bytes;
    const start = this.pos;
    if (start >= this.end) return { kind: TK.EOF, value: null, start, end: start };
    const c = b[start]!;
    switch (c) {
      case 0x5b /* [ */:
        this.pos++;
        return { kind: TK.ArrayOpen, value: null, start, end: this.pos };
      case 0x5d /* ] */:
        this.pos++;
        return { kind: TK.ArrayClose, value: null, start, end: this.pos };
      case 0x7b /* { */:
        this.pos++;
        return { kind: TK.BraceOpen, value: null, start, end: this.pos };
      case 0x7d /* } */:
        this.pos++;
        return { kind: TK.BraceClose, value: null, start, end: this.pos };
      case 0x3c /* < */:
        if (b[start + 1] === 0x3c && start + 1 < this.end) {
          this.pos += 2;
          return { kind: TK.DictOpen, value: null, start, end: this.pos };
        }
        return this.hexString();
      case 0x3e /* > */:
        if (b[start + 1] === 0x3e && start + 1 < this.end) {
          this.pos += 2;
          return { kind: TK.DictClose, value: null, start, end: this.pos };
        }
        this.pos++;
        return { kind: TK.Keyword, value: ">", start, end: this.pos };
      case 0x28 /* ( */:
        return this.literalString();
      case 0x29 /* ) */:
        this.pos++;
        return { kind: TK.Keyword, value: ")", start, end: this.pos };
      case 0x2f /* / */:
        return this.nameToken();
    }
    if (isDigit(c) || c === 0x2b || c === 0x2d || c === 0x2e) return this.number();
    // A keyword: a run of regular characters.
    let p = start;
    while (p < this.end && CHAR_CLASS[b[p]!] === 0) p++;
    this.pos = p;
    return { kind: TK.Keyword, value: latin1Text(b, start, p), start, end: p };
  }

  private number(): Token {
    const b = this.bytes;
    const start = this.pos;
    const end = this.end;
    let p = start;
    let negative = false;
    // Signs: "+5", "-5"; writers sometimes emit "--5" (taken as -5, like other readers).
    while (p < end && (b[p] === 0x2b || b[p] === 0x2d)) {
      if (b[p] === 0x2d) negative = true;
      p++;
    }
    let intPart = 0;
    let digits = 0;
    const intStart = p;
    while (p < end && isDigit(b[p])) {
      intPart = intPart * 10 + (b[p]! - 0x30);
      p++;
      digits++;
    }
    let real = false;
    let fracDigits = 0;
    if (p < end && b[p] === 0x2e) {
      real = true;
      p++;
      while (p < end && isDigit(b[p])) {
        p++;
        fracDigits++;
      }
    }
    this.pos = p;
    if (digits === 0 && fracDigits === 0) {
      // "-" or "." alone: taken as 0, as other readers do; never part of a reference.
      if (p === start) this.pos = start + 1;
      return { kind: TK.Real, value: 0, start, end: this.pos };
    }
    if (!real) {
      if (digits > 15) intPart = Number(latin1Text(b, intStart, p));
      return { kind: TK.Int, value: negative ? -intPart : intPart, start, end: p };
    }
    let text = latin1Text(b, intStart, p);
    if (digits === 0) text = "0" + text;
    const v = Number(text.endsWith(".") ? text.slice(0, -1) : text);
    return { kind: TK.Real, value: negative ? -v : v, start, end: p };
  }

  private nameToken(): Token {
    const b = this.bytes;
    const start = this.pos;
    let p = start + 1;
    const end = this.end;
    let simple = true;
    while (p < end && CHAR_CLASS[b[p]!] === 0) {
      if (b[p] === 0x23 /* # */) simple = false;
      p++;
    }
    this.pos = p;
    if (simple) return { kind: TK.Name, value: new PdfName(latin1Text(b, start + 1, p)), start, end: p };
    const s = this.scratch;
    for (let i = start + 1; i < p; i++) {
      const c = b[i]!;
      if (c === 0x23) {
        const h = hexValue(b[i + 1]);
        const l = hexValue(b[i + 2]);
        if (h >= 0 && l >= 0 && i + 2 < p) {
          s.push((h << 4) | l);
          i += 2;
          continue;
        }
      }
      // A stray '#' (PDF 1.0 style) is kept as itself.
      s.push(c);
    }
    const bytes = s.take();
    return { kind: TK.Name, value: new PdfName(latin1Text(bytes)), start, end: p };
  }

  private literalString(): Token {
    const b = this.bytes;
    const start = this.pos;
    const end = this.end;
    // Fast path: no escapes, parentheses or CRs before the closing ')': the bytes as they are.
    let q = start + 1;
    while (q < end) {
      const c = b[q]!;
      if (c === 0x29 || c === 0x28 || c === 0x5c || c === 0x0d) break;
      q++;
    }
    if (q < end && b[q] === 0x29) {
      this.pos = q + 1;
      const value = new PdfString(
        b.slice(start + 1, q),
        false,
        this.fileOffsets ? start : -1,
        this.fileOffsets ? q + 1 : -1,
      );
      return { kind: TK.String, value, start, end: q + 1 };
    }
    const s = this.scratch;
    let p = start + 1;
    let depth = 1;
    while (p < end) {
      const c = b[p++]!;
      if (c === 0x28) {
        depth++;
        s.push(c);
      } else if (c === 0x29) {
        if (--depth === 0) break;
        s.push(c);
      } else if (c === 0x5c /* \ */) {
        if (p >= end) break;
        const e = b[p++]!;
        switch (e) {
          case 0x6e:
            s.push(0x0a);
            break; // \n
          case 0x72:
            s.push(0x0d);
            break; // \r
          case 0x74:
            s.push(0x09);
            break; // \t
          case 0x62:
            s.push(0x08);
            break; // \b
          case 0x66:
            s.push(0x0c);
            break; // \f
          case 0x0d: // line continuation: backslash + EOL produces nothing
            if (p < end && b[p] === 0x0a) p++;
            break;
          case 0x0a:
            break;
          default:
            if (e >= 0x30 && e <= 0x37) {
              let v = e - 0x30;
              for (let k = 0; k < 2 && p < end && b[p]! >= 0x30 && b[p]! <= 0x37; k++) v = v * 8 + (b[p++]! - 0x30);
              s.push(v & 0xff); // high-order overflow is ignored
            } else {
              // \( \) \\ and any other escaped byte stand for the byte itself.
              s.push(e);
            }
        }
      } else if (c === 0x0d) {
        // An unescaped EOL (CR, LF or CRLF) is read as a single LF (§7.3.4.2).
        if (p < end && b[p] === 0x0a) p++;
        s.push(0x0a);
      } else s.push(c);
    }
    // An unterminated string ends at the end of input (the parser reports what follows).
    this.pos = p;
    const value = new PdfString(s.take(), false, this.fileOffsets ? start : -1, this.fileOffsets ? p : -1);
    return { kind: TK.String, value, start, end: p };
  }

  private hexString(): Token {
    const b = this.bytes;
    const start = this.pos;
    const end = this.end;
    const s = this.scratch;
    let p = start + 1;
    let hi = -1;
    while (p < end) {
      const c = b[p++]!;
      if (c === 0x3e) break;
      const v = HEX_VALUE[c]!;
      if (v < 0) continue; // white-space (and, leniently, any stray byte) is ignored
      if (hi < 0) hi = v;
      else {
        s.push((hi << 4) | v);
        hi = -1;
      }
    }
    if (hi >= 0) s.push(hi << 4); // odd digit count: a final 0 is assumed
    this.pos = p;
    const value = new PdfString(s.take(), true, this.fileOffsets ? start : -1, this.fileOffsets ? p : -1);
    return { kind: TK.String, value, start, end: p };
  }
}

/** Reads an unsigned decimal integer at `p` (no sign); returns [value, end] or null. */
export function readUint(bytes: Uint8Array, p: number, end = bytes.length): [number, number] | null {
  const s = p;
  let v = 0;
  while (p < end && isDigit(bytes[p])) {
    v = v * 10 + (bytes[p]! - 0x30);
    p++;
  }
  if (p === s || p - s > 15) return null;
  return [v, p];
}
