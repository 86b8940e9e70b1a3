#!/usr/bin/env node
/**
 * `npm run key:new`: mints a Signet API key (`sgn_` + 43 base62 characters, ~256 bits)
 * and prints it with the SHA-256 digest to add to API_KEY_HASHES. Only the digest
 * belongs in the service's configuration.
 */
import { pathToFileURL } from "node:url";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const KEY_PREFIX = "sgn_";
export const KEY_BODY_LENGTH = 43;

/** A fresh API key: uniform base62 by rejection sampling (bytes >= 248 are drawn again). */
export function mintApiKey() {
  const limit = 256 - (256 % ALPHABET.length); // 248 = 4 * 62: no modulo bias below it
  let body = "";
  while (body.length < KEY_BODY_LENGTH) {
    const bytes = crypto.getRandomValues(new Uint8Array(64));
    for (const b of bytes) {
      if (b >= limit) continue;
      body += ALPHABET[b % ALPHABET.length];
      if (body.length === KEY_BODY_LENGTH) break;
    }
  }
  return KEY_PREFIX + body;
}

/** Lowercase hex SHA-256 of the key's UTF-8 bytes (what API_KEY_HASHES holds). */
export async function apiKeyDigest(key) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function main() {
  const key = mintApiKey();
  const digest = await apiKeyDigest(key);
  console.log(`API key (give it to the client; it is not stored anywhere):\n\n  ${key}\n`);
  console.log(`Add this digest to API_KEY_HASHES (comma-separated):\n\n  ${digest}\n`);
  console.log("In production: wrangler secret put API_KEY_HASHES (enter the existing digests and this one, comma-separated).");
  console.log("Locally: append it to API_KEY_HASHES in .dev.vars.");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await main();
}
