#!/usr/bin/env node
/** `npm run key:revoke -- <id> [--remote]`: marks a D1 API key revoked; the service refuses it from the next request. */
import { revokeKeySql } from "./lib/api-keys.mjs";
import { execute, parseArgs, runScript } from "./lib/d1-cli.mjs";

await runScript(async (argv) => {
  const { flags, positional } = parseArgs(argv);
  if (positional.length !== 1) throw new Error("usage: npm run key:revoke -- <key id> [--remote]");
  const id = positional[0];
  const sql = revokeKeySql(id, new Date().toISOString());
  const { rows } = await execute(flags, sql);
  if (rows.length !== 1)
    throw new Error(`no active key ${id} (see npm run key:list${flags.remote ? " -- --remote" : ""})`);
  console.log(`Revoked ${id}: requests with it now get 401.`);
});
