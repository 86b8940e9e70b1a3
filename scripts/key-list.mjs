#!/usr/bin/env node
/** `npm run key:list [-- --remote]`: the API keys in D1 (id, name, digest prefix, created, revoked). Never the keys. */
import { LIST_KEYS_SQL } from "./lib/api-keys.mjs";
import { execute, parseArgs, runScript } from "./lib/d1-cli.mjs";

await runScript(async (argv) => {
  const { flags } = parseArgs(argv);
  const { rows } = await execute(flags, LIST_KEYS_SQL);
  if (!rows.length) {
    console.log("No API keys in D1 (keys in the API_KEY_HASHES secret are not listed here).");
    return;
  }
  const table = [["id", "name", "sha256", "created", "status"]];
  for (const r of rows)
    table.push([
      r.id,
      r.name,
      `${r.sha256_prefix}...`,
      r.created_at,
      r.revoked_at ? `revoked ${r.revoked_at}` : "active",
    ]);
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => String(row[i]).length)));
  for (const row of table)
    console.log(
      row
        .map((cell, i) => String(cell).padEnd(widths[i]))
        .join("  ")
        .trimEnd(),
    );
});
