import { Inflate } from "fflate";
import { PdfUnparseable, SignetError } from "../../errors";
import { PdfDict, PdfName, type PdfValue } from "../model";
import { Budget, Sink } from "./budget";
import { CHAR_CLASS, hexValue } from "./lexer";

/**
 * Stream filters (ISO 32000-2 §7.4). Every decoder writes into a `Sink`
 * capped by the reader's budget, so a decompression bomb stops at the cap
 * instead of allocating its full output. Damaged data is handled as other
 * readers do: whatever decoded before the damage is returned.
 */

export interface FilterStep {
  name: string;
  parms: PdfDict | null;
}

const ALIASES: Record<string, string> = {
  Fl: "FlateDecode",
  AHx: "ASCIIHexDecode",
  A85: "ASCII85Decode",
  LZW: "LZWDecode",
  RL: "RunLengthDecode",
  CCF: "CCITTFaxDecode",
  DCT: "DCTDecode",
};

export function canonicalFilterName(name: string): string {
  return ALIASES[name] ?? name;
}

/** Applies a filter chain to raw stream data. */
export function decodeFilters(data: Uint8Array, steps: readonly FilterStep[], budget: Budget): Uint8Array {
  let out = data;
  for (const step of steps) {
    const name = canonicalFilterName(step.name);
    if (name === "Crypt") continue; // Identity crypt filter (real crypt filters go through the security handler)
    const room = budget.streamRoom();
    let sink: Sink;
    switch (name) {
      case "FlateDecode":
        sink = new Sink(room.cap, room.perStream, out.length * 4);
        inflateInto(out, sink);
        out = applyPredictor(sink.result(), step.parms);
        break;
      case "LZWDecode":
        sink = new Sink(room.cap, room.perStream, out.length * 3);
        lzwInto(out, sink, earlyChange(step.parms));
        out = applyPredictor(sink.result(), step.parms);
        break;
      case "ASCIIHexDecode":
        sink = new Sink(room.cap, room.perStream, (out.length >> 1) + 1);
        asciiHexInto(out, sink);
        out = sink.result();
        break;
      case "ASCII85Decode":
        sink = new Sink(room.cap, room.perStream, out.length);
        ascii85Into(out, sink);
        out = sink.result();
        break;
      case "RunLengthDecode":
        sink = new Sink(room.cap, room.perStream, out.length * 2);
        runLengthInto(out, sink);
        out = sink.result();
        break;
      default:
        throw new PdfUnparseable(`The PDF uses the stream filter /${name}, which Signet does not decode.`);
    }
    budget.addInflated(sink.len);
  }
  return out;
}

// ---------------------------------------------------------------- Flate

/** Largest expansion of one deflate input byte (258-byte matches in 2 bits), plus slack. */
const MAX_DEFLATE_RATIO = 1032;
/** Input bytes pushed to the inflater per step (fflate copies its 32 KB window on every step). */
const MAX_FLATE_CHUNK = 64 * 1024;
const MIN_FLATE_CHUNK = 1024;
/** Input consumed without any output after which a stream counts as finished (guards against trailing junk). */
const MAX_SILENT_INPUT = 256 * 1024;

export function inflateInto(data: Uint8Array, sink: Sink): void {
  if (inflatePass(data, sink, MAX_FLATE_CHUNK)) return;
  // Damaged data: the step that hit the damage lost its output. Decode again in
  // small steps so only the last kilobyte before the damage is lost.
  sink.reset();
  inflatePass(data, sink, MIN_FLATE_CHUNK);
}

/** One decoding pass; false when the data turned out to be corrupt (the sink keeps what decoded before). */
function inflatePass(data: Uint8Array, sink: Sink, maxChunk: number): boolean {
  let p = 0;
  // zlib wrapper (RFC 1950): CMF/FLG header, optional preset dictionary id. Raw deflate is accepted too.
  if (data.length >= 2) {
    const cmf = data[0]!;
    const flg = data[1]!;
    if ((cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | flg) % 31 === 0) p = flg & 0x20 ? 6 : 2;
  }
  let produced = false;
  const inflater = new Inflate((chunk: Uint8Array) => {
    if (chunk.length) {
      produced = true;
      sink.write(chunk);
    }
  });
  // fflate keeps its block state in `s`: `f` is set after the final block header, `l` while a block is open.
  const state = (inflater as unknown as { s?: { f?: number; l?: unknown } }).s;
  let silent = 0;
  try {
    while (p < data.length) {
      // Steps small enough that even a bomb's step produces at most a quarter of the room
      // left: memory stays near the cap instead of fflate's doubling buffers going far past it.
      const size = Math.max(MIN_FLATE_CHUNK, Math.min(maxChunk, Math.floor(sink.room() / (MAX_DEFLATE_RATIO * 4))));
      const chunk = data.subarray(p, p + size);
      p += chunk.length;
      produced = false;
      inflater.push(chunk, false);
      if (state && state.f && !state.l) break; // the final block ended: the rest (Adler-32, junk) is not data
      if (produced) silent = 0;
      else if ((silent += chunk.length) >= MAX_SILENT_INPUT) break;
    }
  } catch (e) {
    if (e instanceof SignetError) throw e;
    return false;
  }
  return true;
}

// ---------------------------------------------------------------- Predictors

function intParm(parms: PdfDict | null, key: string, def: number): number {
  const v = parms?.get(key);
  return typeof v === "number" && Number.isInteger(v) ? v : def;
}

function earlyChange(parms: PdfDict | null): number {
  return intParm(parms, "EarlyChange", 1) === 0 ? 0 : 1;
}

export function applyPredictor(data: Uint8Array, parms: PdfDict | null): Uint8Array {
  const predictor = intParm(parms, "Predictor", 1);
  if (predictor <= 1) return data;
  const colors = intParm(parms, "Colors", 1);
  const bpc = intParm(parms, "BitsPerComponent", 8);
  const columns = intParm(parms, "Columns", 1);
  if (colors < 1 || colors > 32 || ![1, 2, 4, 8, 16].includes(bpc) || columns < 1 || columns > 1 << 24) {
    throw new PdfUnparseable(
      `Invalid predictor parameters (Colors ${colors}, BitsPerComponent ${bpc}, Columns ${columns}).`,
    );
  }
  // A row longer than the data is one partial row; capping it keeps allocations bounded by the data.
  const rowBytes = Math.min(Math.ceil((colors * bpc * columns) / 8), Math.max(1, data.length));
  const bpp = Math.max(1, Math.ceil((colors * bpc) / 8));
  if (predictor === 2) return tiffPredictor(data, rowBytes, colors, bpc);
  if (predictor >= 10 && predictor <= 15) return pngPredictor(data, rowBytes, bpp);
  throw new PdfUnparseable(`Unsupported predictor ${predictor}.`);
}

function pngPredictor(data: Uint8Array, rowBytes: number, bpp: number): Uint8Array {
  const rows = Math.ceil(data.length / (rowBytes + 1));
  const out = new Uint8Array(rows * rowBytes);
  let prev = new Uint8Array(rowBytes);
  let o = 0;
  for (let p = 0; p < data.length;) {
    const type = data[p++]!;
    const n = Math.min(rowBytes, data.length - p);
    const row = out.subarray(o, o + rowBytes);
    switch (type) {
      case 1: // Sub
        for (let i = 0; i < n; i++) row[i] = (data[p + i]! + (i >= bpp ? row[i - bpp]! : 0)) & 0xff;
        break;
      case 2: // Up
        for (let i = 0; i < n; i++) row[i] = (data[p + i]! + prev[i]!) & 0xff;
        break;
      case 3: // Average
        for (let i = 0; i < n; i++) {
          const left = i >= bpp ? row[i - bpp]! : 0;
          row[i] = (data[p + i]! + ((left + prev[i]!) >> 1)) & 0xff;
        }
        break;
      case 4: // Paeth
        for (let i = 0; i < n; i++) {
          const a = i >= bpp ? row[i - bpp]! : 0;
          const b = prev[i]!;
          const c = i >= bpp ? prev[i - bpp]! : 0;
          const pa = Math.abs(b - c);
          const pb = Math.abs(a - c);
          const pc = Math.abs(a + b - 2 * c);
          const pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          row[i] = (data[p + i]! + pred) & 0xff;
        }
        break;
      default: // 0 None (and unknown types, read as None)
        row.set(data.subarray(p, p + n));
    }
    p += n;
    o += n;
    prev = row;
  }
  return out.subarray(0, o);
}

function tiffPredictor(data: Uint8Array, rowBytes: number, colors: number, bpc: number): Uint8Array {
  const out = data.slice();
  for (let start = 0; start < out.length; start += rowBytes) {
    const end = Math.min(out.length, start + rowBytes);
    if (bpc === 8) {
      for (let i = start + colors; i < end; i++) out[i] = (out[i]! + out[i - colors]!) & 0xff;
    } else if (bpc === 16) {
      const step = colors * 2;
      for (let i = start + step; i + 1 < end; i += 2) {
        const v = ((out[i]! << 8) | out[i + 1]!) + ((out[i - step]! << 8) | out[i - step + 1]!);
        out[i] = (v >> 8) & 0xff;
        out[i + 1] = v & 0xff;
      }
    } else {
      // 1, 2 or 4 bits per component: undo the differences sample by sample.
      const samples = Math.floor(((end - start) * 8) / bpc);
      const mask = (1 << bpc) - 1;
      const get = (k: number) => (out[start + ((k * bpc) >> 3)]! >> (8 - bpc - ((k * bpc) & 7))) & mask;
      const set = (k: number, v: number) => {
        const idx = start + ((k * bpc) >> 3);
        const shift = 8 - bpc - ((k * bpc) & 7);
        out[idx] = (out[idx]! & ~(mask << shift)) | ((v & mask) << shift);
      };
      for (let k = colors; k < samples; k++) set(k, get(k) + get(k - colors));
    }
  }
  return out;
}

// ---------------------------------------------------------------- LZW

export function lzwInto(data: Uint8Array, sink: Sink, early: number): void {
  const prefix = new Int16Array(4096);
  const suffix = new Uint8Array(4096);
  const length = new Uint16Array(4096);
  for (let i = 0; i < 256; i++) {
    prefix[i] = -1;
    suffix[i] = i;
    length[i] = 1;
  }
  let next = 258;
  let codeLen = 9;
  let prev = -1;
  let bitBuf = 0;
  let bitCount = 0;
  let p = 0;
  for (;;) {
    while (bitCount < codeLen && p < data.length) {
      bitBuf = ((bitBuf << 8) | data[p++]!) >>> 0;
      bitCount += 8;
    }
    if (bitCount < codeLen) break; // input exhausted without an EOD code
    const code = (bitBuf >>> (bitCount - codeLen)) & ((1 << codeLen) - 1);
    bitCount -= codeLen;
    bitBuf &= (1 << bitCount) - 1;
    if (code === 256) {
      next = 258;
      codeLen = 9;
      prev = -1;
      continue;
    }
    if (code === 257) break;
    let first: number;
    if (code < next) {
      first = emit(code);
    } else if (code === next && prev >= 0) {
      // KwKwK: the new entry is prev + first byte of prev.
      const f = firstByte(prev);
      emit(prev);
      sink.byte(f);
      first = f;
    } else break; // a code that cannot exist: damaged data
    if (prev >= 0 && next < 4096) {
      prefix[next] = prev;
      suffix[next] = first;
      length[next] = length[prev]! + 1;
      next++;
    }
    prev = code;
    if (next + early >= 1 << codeLen && codeLen < 12) codeLen++;
  }

  function firstByte(code: number): number {
    let c = code;
    while (prefix[c]! >= 0) c = prefix[c]!;
    return suffix[c]!;
  }
  function emit(code: number): number {
    const n = length[code]!;
    const at = sink.reserve(n);
    let c = code;
    for (let i = n - 1; i >= 0; i--) {
      sink.buf[at + i] = suffix[c]!;
      c = prefix[c]!;
    }
    return sink.buf[at]!;
  }
}

// ---------------------------------------------------------------- ASCII filters, RunLength

export function asciiHexInto(data: Uint8Array, sink: Sink): void {
  let hi = -1;
  for (let i = 0; i < data.length; i++) {
    const c = data[i]!;
    if (c === 0x3e) break; // '>' is EOD
    const v = hexValue(c);
    if (v < 0) continue; // white-space and stray bytes are skipped
    if (hi < 0) hi = v;
    else {
      sink.byte((hi << 4) | v);
      hi = -1;
    }
  }
  if (hi >= 0) sink.byte(hi << 4);
}

export function ascii85Into(data: Uint8Array, sink: Sink): void {
  let group = 0;
  let count = 0;
  let i = 0;
  // An optional "<~" prefix is tolerated.
  if (data[0] === 0x3c && data[1] === 0x7e) i = 2;
  for (; i < data.length; i++) {
    const c = data[i]!;
    if (c === 0x7e) break; // "~>" is EOD
    if (CHAR_CLASS[c] === 1) continue;
    if (c === 0x7a && count === 0) {
      // 'z' stands for four zero bytes
      const at = sink.reserve(4);
      sink.buf.fill(0, at, at + 4);
      continue;
    }
    if (c < 0x21 || c > 0x75) continue; // not base-85: ignored
    group = group * 85 + (c - 0x21);
    if (++count === 5) {
      const at = sink.reserve(4);
      sink.buf[at] = (group >>> 24) & 0xff;
      sink.buf[at + 1] = (group >>> 16) & 0xff;
      sink.buf[at + 2] = (group >>> 8) & 0xff;
      sink.buf[at + 3] = group & 0xff;
      group = 0;
      count = 0;
    }
  }
  if (count > 1) {
    // A final partial group: pad with 'u' and keep count-1 bytes.
    for (let k = count; k < 5; k++) group = group * 85 + 84;
    for (let k = 0; k < count - 1; k++) sink.byte((group >>> (24 - 8 * k)) & 0xff);
  }
}

export function runLengthInto(data: Uint8Array, sink: Sink): void {
  let i = 0;
  while (i < data.length) {
    const n = data[i++]!;
    if (n === 128) break;
    if (n < 128) {
      const len = Math.min(n + 1, data.length - i);
      sink.write(data.subarray(i, i + len));
      i += len;
    } else {
      if (i >= data.length) break;
      const len = 257 - n;
      const at = sink.reserve(len);
      sink.buf.fill(data[i++]!, at, at + len);
    }
  }
}

/** Normalizes `/Filter` and `/DecodeParms` (already resolved) into filter steps. */
export function filterSteps(filter: PdfValue | undefined, parms: PdfValue | undefined): FilterStep[] {
  const names: PdfValue[] = Array.isArray(filter) ? filter : filter === undefined || filter === null ? [] : [filter];
  const parmList: PdfValue[] = Array.isArray(parms) ? parms : [parms ?? null];
  return names.map((n, i) => {
    if (!(n instanceof PdfName)) throw new PdfUnparseable("A stream's /Filter is not a name.");
    const p = Array.isArray(parms) ? parmList[i] : i === 0 || names.length === 1 ? parmList[0] : null;
    return { name: n.name, parms: p instanceof PdfDict ? p : null };
  });
}
