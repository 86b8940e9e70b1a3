/** Small byte helpers shared by engines. */

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

export function toHex(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += HEX[bytes[i]!];
  return s;
}

/** Latin-1 decoding of a byte range (one char per byte), chunked to stay clear of argument limits. */
export function latin1Text(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let s = "";
  if (end - start <= 32) {
    // Names and keywords are short: a plain loop beats fromCharCode.apply here.
    for (let i = start; i < end; i++) s += String.fromCharCode(bytes[i]!);
    return s;
  }
  for (let i = start; i < end; i += 8192) {
    s += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(end, i + 8192)) as unknown as number[]);
  }
  return s;
}

export function latin1Bytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Octet by octet, shorter first on a tie (the order of DER's SET OF members and of PDF name tree keys). */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const p of parts) total += p.length;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export async function sha256(data: Uint8Array | string): Promise<Uint8Array> {
  const bytes = typeof data === "string" ? utf8(data) : data;
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

export async function sha256Hex(data: Uint8Array | string): Promise<string> {
  return toHex(await sha256(data));
}

/**
 * SHA-256 over several byte segments without joining them (`crypto.DigestStream`
 * is workerd's streaming digest; a 25 MB document is never copied to hash it).
 */
export async function sha256Segments(segments: readonly Uint8Array[]): Promise<Uint8Array> {
  return digestSegments("SHA-256", segments);
}

/** A digest (SHA-256 or SHA-384) over several byte segments without joining them. */
export async function digestSegments(
  algorithm: "SHA-256" | "SHA-384",
  segments: readonly Uint8Array[],
): Promise<Uint8Array> {
  if (typeof crypto.DigestStream !== "function")
    return new Uint8Array(await crypto.subtle.digest(algorithm, concatBytes(segments)));
  const stream = new crypto.DigestStream(algorithm);
  const writer = stream.getWriter();
  for (const s of segments) if (s.length) await writer.write(s);
  await writer.close();
  return new Uint8Array(await stream.digest);
}
