#!/usr/bin/env node
/**
 * `npm run key:new`: mints a Signet API key (`sgn_` + 43 base62 characters, ~256 bits)
 * and prints it with the SHA-256 digest to add to API_KEY_HASHES. Only the digest
 * belongs in the service's configuration.
 */
import { pathToFileURL } from "node:url";
import { apiKeyDigest, mintApiKey } from "./lib/api-keys.mjs";

export { KEY_PREFIX, KEY_BODY_LENGTH, mintApiKey, apiKeyDigest } from "./lib/api-keys.mjs";

async function main() {
  const key = mintApiKey();
  const digest = await apiKeyDigest(key);
  console.log(`API key (give it to the client; it is not stored anywhere):\n\n  ${key}\n`);
  console.log(`Add this digest to API_KEY_HASHES (comma-separated):\n\n  ${digest}\n`);
  console.log(
    "In production: wrangler secret put API_KEY_HASHES (enter the existing digests and this one, comma-separated).",
  );
  console.log("Locally: append it to API_KEY_HASHES in .dev.vars.");
  console.log('Or keep keys in D1 instead (revocable at once): npm run key:create -- --name "..." [--remote].');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await main();
}
