import { concatBytes } from "../../util/bytes";
import { md5 } from "@noble/hashes/legacy.js";
import { sha256, sha384, sha512 } from "@noble/hashes/sha2.js";
import { PdfDict, PdfName, PdfString, type PdfValue } from "../model";

/**
 * Decryption (ISO 32000-2 §7.6): the standard security handler opened with the
 * empty user password, which is what "owner-password-only" files use. RC4 40 to
 * 128 bits (V1/V2, R2-R4), AES-128 (V4 crypt filters, AESV2) and AES-256 (V5,
 * R5 and R6, AESV3). Anything else, or a file whose user password is not empty,
 * gets no handler (`createSecurityHandler` returns null) and callers refuse it
 * as encrypted.
 *
 * The reader calls the handler synchronously while parsing, so everything here
 * is synchronous: RC4 and AES (CBC decryption, and the CBC encryption R6's key
 * derivation needs) are implemented below, hashes come from @noble/hashes.
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

type Method = "none" | "rc4" | "aes128" | "aes256";

const PADDING = new Uint8Array([
  0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08, 0x2e, 0x2e, 0x00,
  0xb6, 0xd0, 0x68, 0x3e, 0x80, 0x2f, 0x0c, 0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
]);

export function createSecurityHandler(encrypt: PdfDict, trailer: PdfDict): SecurityHandler | null {
  try {
    return standardHandler(encrypt, trailer);
  } catch {
    return null; // malformed /Encrypt: treated as a file we cannot open
  }
}

function standardHandler(encrypt: PdfDict, trailer: PdfDict): SecurityHandler | null {
  if (!isName(encrypt.get("Filter"), "Standard")) return null;
  const v = num(encrypt.get("V")) ?? 0;
  const r = num(encrypt.get("R"));
  const o = bytesOf(encrypt.get("O"));
  const u = bytesOf(encrypt.get("U"));
  const p = num(encrypt.get("P"));
  if (r === null || !o || !u || p === null) return null;
  const encryptMetadata = encrypt.get("EncryptMetadata") !== false;

  let stringMethod: Method;
  let streamMethod: Method;
  let keyLength: number; // bytes
  if (v === 1 || v === 2) {
    stringMethod = streamMethod = "rc4";
    keyLength = v === 1 ? 5 : Math.floor((num(encrypt.get("Length")) ?? 40) / 8);
    if (keyLength < 5 || keyLength > 16) return null;
  } else if (v === 4 || v === 5) {
    const cf = encrypt.get("CF");
    const filterMethod = (name: PdfValue | undefined): Method | null => {
      const n = name instanceof PdfName ? name.name : "Identity";
      if (n === "Identity") return "none";
      const def = cf instanceof PdfDict ? cf.get(n) : undefined;
      if (!(def instanceof PdfDict)) return null;
      const cfm = def.get("CFM");
      const m = cfm instanceof PdfName ? cfm.name : "None";
      if (m === "None") return "none";
      if (m === "V2") return "rc4";
      if (m === "AESV2") return "aes128";
      if (m === "AESV3") return "aes256";
      return null;
    };
    const sm = filterMethod(encrypt.get("StrF"));
    const tm = filterMethod(encrypt.get("StmF"));
    if (sm === null || tm === null) return null;
    stringMethod = sm;
    streamMethod = tm;
    keyLength = v === 5 ? 32 : Math.floor((num(encrypt.get("Length")) ?? 128) / 8);
    if (v === 4 && (keyLength < 5 || keyLength > 16)) keyLength = 16;
  } else {
    return null;
  }

  let fileKey: Uint8Array | null;
  if (v === 5) {
    fileKey = aes256FileKey(r, u, bytesOf(encrypt.get("UE")));
  } else {
    const id = trailer.get("ID");
    const id0 = Array.isArray(id) && id[0] instanceof PdfString ? id[0].bytes : new Uint8Array(0);
    fileKey = rc4FileKey(r, keyLength, o, u, p, id0, encryptMetadata);
  }
  if (!fileKey) return null; // the user password is not empty

  const key = fileKey;
  const objectKey = (n: number, g: number, aes: boolean): Uint8Array => {
    const input = new Uint8Array(key.length + 5 + (aes ? 4 : 0));
    input.set(key);
    input[key.length] = n & 0xff;
    input[key.length + 1] = (n >> 8) & 0xff;
    input[key.length + 2] = (n >> 16) & 0xff;
    input[key.length + 3] = g & 0xff;
    input[key.length + 4] = (g >> 8) & 0xff;
    if (aes) input.set([0x73, 0x41, 0x6c, 0x54], key.length + 5); // "sAlT"
    return md5(input).subarray(0, Math.min(key.length + 5, 16));
  };
  const decrypt = (method: Method, n: number, g: number, data: Uint8Array): Uint8Array => {
    switch (method) {
      case "none":
        return data;
      case "rc4":
        return rc4(objectKey(n, g, false), data);
      case "aes128":
        return aesCbcDecryptWithIv(objectKey(n, g, true), data);
      case "aes256":
        return aesCbcDecryptWithIv(key, data);
    }
  };

  return {
    decryptString(n, g, s) {
      if (stringMethod === "none") return s;
      return new PdfString(decrypt(stringMethod, n, g, s.bytes), s.hex, s.start, s.end);
    },
    decryptStream(n, g, dict, data) {
      if (!encryptMetadata && isName(dict.get("Type"), "Metadata")) return data;
      const filter = dict.get("Filter");
      const first = Array.isArray(filter) ? filter[0] : filter;
      if (isName(first, "Crypt")) return data; // a stream-level crypt filter: only Identity is supported
      return decrypt(streamMethod, n, g, data);
    },
  };
}

// ------------------------------------------------------------------ RC4 / AES-128 keys (R2-R4)

/** Algorithm 2 with the empty user password, checked with Algorithm 4/5; null when it does not open the file. */
function rc4FileKey(
  r: number,
  n: number,
  o: Uint8Array,
  u: Uint8Array,
  p: number,
  id0: Uint8Array,
  encryptMetadata: boolean,
): Uint8Array | null {
  const parts = [
    PADDING,
    o.subarray(0, 32),
    new Uint8Array([p & 0xff, (p >> 8) & 0xff, (p >> 16) & 0xff, (p >>> 24) & 0xff]),
    id0,
  ];
  if (r >= 4 && !encryptMetadata) parts.push(new Uint8Array([0xff, 0xff, 0xff, 0xff]));
  let hash = md5(concatBytes(parts));
  if (r >= 3) for (let i = 0; i < 50; i++) hash = md5(hash.subarray(0, n));
  const key = hash.subarray(0, r === 2 ? 5 : n).slice();
  if (r === 2) {
    return equal(rc4(key, PADDING), u.subarray(0, 32)) ? key : null;
  }
  let x = rc4(key, md5(concatBytes([PADDING, id0])));
  for (let i = 1; i <= 19; i++) {
    const k = key.map((b) => b ^ i);
    x = rc4(k, x);
  }
  return equal(x.subarray(0, 16), u.subarray(0, 16)) ? key : null;
}

export function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    const t = s[i]!;
    s[i] = s[j]!;
    s[j] = t;
  }
  const out = new Uint8Array(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    const t = s[i]!;
    s[i] = s[j]!;
    s[j] = t;
    out[k] = data[k]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

// ------------------------------------------------------------------ AES-256 keys (R5, R6)

function aes256FileKey(r: number, u: Uint8Array, ue: Uint8Array | null): Uint8Array | null {
  if (u.length < 48 || !ue || ue.length < 32) return null;
  const password = new Uint8Array(0);
  const validationSalt = u.subarray(32, 40);
  const keySalt = u.subarray(40, 48);
  const hash = (salt: Uint8Array) =>
    r >= 6 ? hardenedHash(password, salt, new Uint8Array(0)) : sha256(concatBytes([password, salt]));
  if (!equal(hash(validationSalt), u.subarray(0, 32))) return null;
  const intermediate = hash(keySalt);
  return aesCbcDecrypt(intermediate, new Uint8Array(16), ue.subarray(0, 32), false);
}

/** Algorithm 2.B (R6). */
function hardenedHash(password: Uint8Array, salt: Uint8Array, udata: Uint8Array): Uint8Array {
  let k = sha256(concatBytes([password, salt, udata]));
  for (let round = 0; ; round++) {
    const block = concatBytes([password, k, udata]);
    const k1 = new Uint8Array(block.length * 64);
    for (let i = 0; i < 64; i++) k1.set(block, i * block.length);
    const e = aesCbcEncryptNoPad(k.subarray(0, 16), k.subarray(16, 32), k1);
    let sum = 0;
    for (let i = 0; i < 16; i++) sum += e[i]!;
    const which = sum % 3;
    k = which === 0 ? sha256(e) : which === 1 ? sha384(e) : sha512(e);
    if (round >= 63 && e[e.length - 1]! <= round - 32) break;
    if (round > 1000) break; // cannot happen for real input; bounds hostile input anyway
  }
  return k.subarray(0, 32);
}

// ------------------------------------------------------------------ AES

const SBOX = new Uint8Array(256);
const INV_SBOX = new Uint8Array(256);
(() => {
  let p = 1;
  let q = 1;
  do {
    p = (p ^ ((p << 1) & 0xff) ^ (p & 0x80 ? 0x1b : 0)) & 0xff;
    q ^= q << 1;
    q ^= q << 2;
    q ^= q << 4;
    q &= 0xff;
    if (q & 0x80) q ^= 0x09;
    const rot = (x: number, s: number) => ((x << s) | (x >> (8 - s))) & 0xff;
    SBOX[p] = (q ^ rot(q, 1) ^ rot(q, 2) ^ rot(q, 3) ^ rot(q, 4) ^ 0x63) & 0xff;
  } while (p !== 1);
  SBOX[0] = 0x63;
  for (let i = 0; i < 256; i++) INV_SBOX[SBOX[i]!] = i;
})();

const xtime = (a: number) => ((a << 1) ^ (a & 0x80 ? 0x1b : 0)) & 0xff;
function gmul(a: number, b: number): number {
  let r = 0;
  while (b) {
    if (b & 1) r ^= a;
    a = xtime(a);
    b >>= 1;
  }
  return r;
}
const MUL = {
  9: new Uint8Array(256),
  11: new Uint8Array(256),
  13: new Uint8Array(256),
  14: new Uint8Array(256),
  2: new Uint8Array(256),
  3: new Uint8Array(256),
};
for (let i = 0; i < 256; i++) for (const m of [2, 3, 9, 11, 13, 14] as const) MUL[m][i] = gmul(i, m);

function expandKey(key: Uint8Array): { rk: Uint8Array; rounds: number } {
  const nk = key.length / 4;
  if (nk !== 4 && nk !== 6 && nk !== 8) throw new Error("bad AES key length");
  const rounds = nk + 6;
  const rk = new Uint8Array(16 * (rounds + 1));
  rk.set(key);
  let rcon = 1;
  for (let i = nk; i < 4 * (rounds + 1); i++) {
    let t0 = rk[4 * i - 4]!;
    let t1 = rk[4 * i - 3]!;
    let t2 = rk[4 * i - 2]!;
    let t3 = rk[4 * i - 1]!;
    if (i % nk === 0) {
      const x = t0;
      t0 = SBOX[t1]! ^ rcon;
      t1 = SBOX[t2]!;
      t2 = SBOX[t3]!;
      t3 = SBOX[x]!;
      rcon = xtime(rcon);
    } else if (nk > 6 && i % nk === 4) {
      t0 = SBOX[t0]!;
      t1 = SBOX[t1]!;
      t2 = SBOX[t2]!;
      t3 = SBOX[t3]!;
    }
    const b = 4 * (i - nk);
    rk[4 * i] = rk[b]! ^ t0;
    rk[4 * i + 1] = rk[b + 1]! ^ t1;
    rk[4 * i + 2] = rk[b + 2]! ^ t2;
    rk[4 * i + 3] = rk[b + 3]! ^ t3;
  }
  return { rk, rounds };
}

function encryptBlock(rk: Uint8Array, rounds: number, s: Uint8Array): void {
  const t = new Uint8Array(16);
  for (let i = 0; i < 16; i++) s[i]! ^= rk[i]!;
  for (let round = 1; round <= rounds; round++) {
    // SubBytes + ShiftRows
    for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) t[r + 4 * c] = SBOX[s[r + 4 * ((c + r) & 3)]!]!;
    if (round < rounds) {
      for (let c = 0; c < 4; c++) {
        const a0 = t[4 * c]!;
        const a1 = t[4 * c + 1]!;
        const a2 = t[4 * c + 2]!;
        const a3 = t[4 * c + 3]!;
        s[4 * c] = MUL[2][a0]! ^ MUL[3][a1]! ^ a2 ^ a3;
        s[4 * c + 1] = a0 ^ MUL[2][a1]! ^ MUL[3][a2]! ^ a3;
        s[4 * c + 2] = a0 ^ a1 ^ MUL[2][a2]! ^ MUL[3][a3]!;
        s[4 * c + 3] = MUL[3][a0]! ^ a1 ^ a2 ^ MUL[2][a3]!;
      }
    } else s.set(t);
    const k = 16 * round;
    for (let i = 0; i < 16; i++) s[i]! ^= rk[k + i]!;
  }
}

function decryptBlock(rk: Uint8Array, rounds: number, s: Uint8Array): void {
  const t = new Uint8Array(16);
  for (let i = 0; i < 16; i++) s[i]! ^= rk[16 * rounds + i]!;
  for (let round = rounds - 1; round >= 0; round--) {
    // InvShiftRows + InvSubBytes
    for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) t[r + 4 * ((c + r) & 3)] = INV_SBOX[s[r + 4 * c]!]!;
    const k = 16 * round;
    for (let i = 0; i < 16; i++) t[i]! ^= rk[k + i]!;
    if (round > 0) {
      for (let c = 0; c < 4; c++) {
        const a0 = t[4 * c]!;
        const a1 = t[4 * c + 1]!;
        const a2 = t[4 * c + 2]!;
        const a3 = t[4 * c + 3]!;
        s[4 * c] = MUL[14][a0]! ^ MUL[11][a1]! ^ MUL[13][a2]! ^ MUL[9][a3]!;
        s[4 * c + 1] = MUL[9][a0]! ^ MUL[14][a1]! ^ MUL[11][a2]! ^ MUL[13][a3]!;
        s[4 * c + 2] = MUL[13][a0]! ^ MUL[9][a1]! ^ MUL[14][a2]! ^ MUL[11][a3]!;
        s[4 * c + 3] = MUL[11][a0]! ^ MUL[13][a1]! ^ MUL[9][a2]! ^ MUL[14][a3]!;
      }
    } else s.set(t);
  }
}

/** AES-CBC decryption; with `unpad`, PKCS#5 padding is removed (bad padding is left as is, as viewers do). */
export function aesCbcDecrypt(key: Uint8Array, iv: Uint8Array, data: Uint8Array, unpad = true): Uint8Array {
  const { rk, rounds } = expandKey(key);
  const blocks = Math.floor(data.length / 16);
  const out = new Uint8Array(blocks * 16);
  let prev = iv.slice(0, 16);
  const block = new Uint8Array(16);
  for (let b = 0; b < blocks; b++) {
    const c = data.subarray(16 * b, 16 * b + 16);
    block.set(c);
    decryptBlock(rk, rounds, block);
    for (let i = 0; i < 16; i++) out[16 * b + i] = block[i]! ^ prev[i]!;
    prev = c.slice();
  }
  if (unpad && out.length) {
    const pad = out[out.length - 1]!;
    if (pad >= 1 && pad <= 16 && out.subarray(out.length - pad).every((x) => x === pad))
      return out.subarray(0, out.length - pad);
  }
  return out;
}

/** Strings and streams under AESV2/AESV3: a 16-byte IV, then the ciphertext. */
function aesCbcDecryptWithIv(key: Uint8Array, data: Uint8Array): Uint8Array {
  if (data.length < 16) return new Uint8Array(0);
  return aesCbcDecrypt(key, data.subarray(0, 16), data.subarray(16));
}

export function aesCbcEncryptNoPad(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Uint8Array {
  const { rk, rounds } = expandKey(key);
  const out = new Uint8Array(data.length - (data.length % 16));
  const block = iv.slice(0, 16);
  for (let b = 0; b < out.length; b += 16) {
    for (let i = 0; i < 16; i++) block[i]! ^= data[b + i]!;
    encryptBlock(rk, rounds, block);
    out.set(block, b);
  }
  return out;
}

// ------------------------------------------------------------------ small helpers

function num(v: PdfValue | undefined): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

function bytesOf(v: PdfValue | undefined): Uint8Array | null {
  return v instanceof PdfString ? v.bytes : null;
}

function isName(v: PdfValue | undefined, n: string): boolean {
  return v instanceof PdfName && v.name === n;
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
