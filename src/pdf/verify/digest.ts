import { createHasher, type DigestName } from "../../cms/verify";
import type { Ranges } from "./byte-range";

/**
 * The signed content of a signature, as the CMS verifier asks for it: the digest
 * of the two byte ranges under any algorithm, computed as a stream over views of
 * the file (never a joined copy). workerd's `crypto.DigestStream` does SHA-1/2
 * natively; every other algorithm (MD5, SHA-224, SHA-512/t, SHA-3, SHAKE256,
 * RIPEMD-160), and every algorithm where DigestStream is missing (Node scripts),
 * runs incrementally through the CMS verifier's hashers (@noble/hashes).
 * Results are memoised per algorithm.
 */

export interface SignedContent {
  digest(algorithm: DigestName): Promise<Uint8Array | null>;
}

/** Slice written per step: bounds any copy the stream makes, and yields between slices. */
const SLICE = 4 * 1024 * 1024;

const STREAMED = new Set<string>(["SHA-1", "SHA-256", "SHA-384", "SHA-512"]);

export function signedContent(file: Uint8Array, ranges: Ranges): SignedContent {
  const [s1, l1, s2, l2] = ranges;
  const parts = [file.subarray(s1, s1 + l1), file.subarray(s2, s2 + l2)];
  const memo = new Map<string, Promise<Uint8Array | null>>();
  return {
    digest(algorithm) {
      let p = memo.get(algorithm);
      if (!p) {
        p = digestSegments(algorithm, parts).catch(() => null);
        memo.set(algorithm, p);
      }
      return p;
    },
  };
}

export async function digestSegments(name: DigestName, parts: readonly Uint8Array[]): Promise<Uint8Array> {
  if (STREAMED.has(name) && typeof crypto.DigestStream === "function") {
    const stream = new crypto.DigestStream(name);
    const writer = stream.getWriter();
    for (const part of parts) {
      for (let at = 0; at < part.length; at += SLICE)
        await writer.write(part.subarray(at, Math.min(part.length, at + SLICE)));
    }
    await writer.close();
    return new Uint8Array(await stream.digest);
  }
  const h = createHasher(name);
  for (const part of parts) {
    for (let at = 0; at < part.length; at += SLICE) {
      h.update(part.subarray(at, Math.min(part.length, at + SLICE)));
      if (part.length > SLICE) await Promise.resolve();
    }
  }
  return h.digest();
}
