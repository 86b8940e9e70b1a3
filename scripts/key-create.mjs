#!/usr/bin/env node
/**
 * `npm run key:create -- --name "Acme backend" [--remote]`: mints an API key, stores its
 * SHA-256 digest in D1 (`api_keys`) and prints the key once. Without --remote the local
 * database of `wrangler dev` is used (its migrations are applied first).
 */
import { apiKeyDigest, checkKeyName, insertKeySql, mintApiKey, mintKeyId } from "./lib/api-keys.mjs";
import { applyLocalMigrations, execute, parseArgs, runScript } from "./lib/d1-cli.mjs";

await runScript(async (argv) => {
  const { flags } = parseArgs(argv);
  const name = checkKeyName(flags.name);
  const key = mintApiKey();
  const id = mintKeyId();
  await applyLocalMigrations(flags);
  await execute(
    flags,
    insertKeySql({ id, sha256: await apiKeyDigest(key), name, createdAt: new Date().toISOString() }),
  );
  console.log(`Created ${id} ("${name}") in the ${flags.remote ? "remote" : "local"} D1 database.`);
  console.log(`API key (shown once; only its digest is stored):\n\n  ${key}\n`);
  console.log(`Revoke it with: npm run key:revoke -- ${id}${flags.remote ? " --remote" : ""}`);
});
