/**
 * For tsconfig.node.json only: what workerd's types say that Node's and the DOM's do not, for the
 * src/ modules Node code imports (tests, scripts and benchmarks run the engines in Node too).
 * tsconfig.json checks src/ against workerd's types in full; the names here come from them.
 */
type Workerd = typeof import("@cloudflare/workers-types/index.ts");
type W = import("@cloudflare/workers-types/index.ts");

declare global {
  type D1Database = import("@cloudflare/workers-types/index.ts").D1Database;
  type R2Bucket = import("@cloudflare/workers-types/index.ts").R2Bucket;
  type Fetcher = import("@cloudflare/workers-types/index.ts").Fetcher;
  type RateLimit = import("@cloudflare/workers-types/index.ts").RateLimit;
  type SubtleCryptoSignAlgorithm = import("@cloudflare/workers-types/index.ts").SubtleCryptoSignAlgorithm;
  type SubtleCryptoImportKeyAlgorithm = import("@cloudflare/workers-types/index.ts").SubtleCryptoImportKeyAlgorithm;
  type CryptoKeyRsaKeyAlgorithm = import("@cloudflare/workers-types/index.ts").CryptoKeyRsaKeyAlgorithm;
  interface Crypto {
    /** workerd's streaming digest (src/util/bytes.ts falls back to one digest call without it). */
    readonly DigestStream?: Workerd["DigestStream"];
  }
  interface SubtleCrypto {
    // workerd (and Node) digest any byte view, shared buffers included.
    digest(algorithm: AlgorithmIdentifier, data: ArrayBufferView | ArrayBuffer): Promise<ArrayBuffer>;
  }
  function fetch(input: RequestInfo | URL, init?: W["RequestInit"]): Promise<Response>;
}
export {};
