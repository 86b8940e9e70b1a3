/**
 * The PDF object model of our own reader. Values are immutable once parsed;
 * the incremental writer builds modified copies and serializes them with
 * `serialize.ts`. Strings keep their raw bytes (never decoded to JS strings
 * on the way in) so signatures and hex `/Contents` survive byte for byte.
 */
export class PdfName {
  /** The name without the leading slash, `#xx` escapes decoded; each byte is one Latin-1 character. */
  constructor(readonly name: string) {}
}

export class PdfString {
  constructor(
    readonly bytes: Uint8Array,
    /** Written as `<hex>` in the file (vs `(literal)`). */
    readonly hex: boolean,
    /** Byte offsets of the token in the file, including delimiters; -1 when built in memory. */
    readonly start = -1,
    readonly end = -1,
  ) {}
}

export class PdfRef {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
  toString(): string {
    return `${this.num} ${this.gen} R`;
  }
}

export class PdfDict {
  constructor(readonly map: Map<string, PdfValue> = new Map()) {}
  get(key: string): PdfValue | undefined {
    return this.map.get(key);
  }
  has(key: string): boolean {
    return this.map.has(key);
  }
  /** A shallow copy with some keys replaced (value `undefined` removes the key). */
  with(changes: Record<string, PdfValue | undefined>): PdfDict {
    const map = new Map(this.map);
    for (const [k, v] of Object.entries(changes)) {
      if (v === undefined) map.delete(k);
      else map.set(k, v);
    }
    return new PdfDict(map);
  }
}

/** A stream whose data is a byte range of the file (not copied). */
export class PdfStream {
  constructor(
    readonly dict: PdfDict,
    /** Absolute offsets of the raw (still encoded) data in the file. */
    readonly dataStart: number,
    readonly dataEnd: number,
  ) {}
}

export type PdfArray = PdfValue[];

export type PdfValue = null | boolean | number | PdfName | PdfString | PdfRef | PdfDict | PdfStream | PdfArray;

export const isName = (v: unknown, name?: string): v is PdfName =>
  v instanceof PdfName && (name === undefined || v.name === name);
export const isDict = (v: unknown): v is PdfDict => v instanceof PdfDict;
export const isRef = (v: unknown): v is PdfRef => v instanceof PdfRef;
export const isStream = (v: unknown): v is PdfStream => v instanceof PdfStream;
export const isArray = (v: unknown): v is PdfArray => Array.isArray(v);
export const isNumber = (v: unknown): v is number => typeof v === "number";
export const name = (n: string) => new PdfName(n);
