/**
 * Runs SQL against Signet's D1 database through `wrangler d1 execute` for the
 * `npm run key:*` scripts. Arguments they share: `--remote` (the deployed database;
 * default is the local one `wrangler dev` uses), `--persist-to <dir>` (local state
 * elsewhere, as tests do).
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const DATABASE = "DB";

/** Splits argv into flags (`--name x`, `--remote`) and positional arguments. */
export function parseArgs(argv) {
  const flags = { remote: false, name: undefined, persistTo: undefined };
  const positional = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--remote") flags.remote = true;
    else if (a === "--local") flags.remote = false;
    else if (a === "--name") flags.name = argv[++i];
    else if (a.startsWith("--name=")) flags.name = a.slice(7);
    else if (a === "--persist-to") flags.persistTo = argv[++i];
    else if (a.startsWith("--")) throw new Error(`unknown option ${a}`);
    else positional.push(a);
  }
  return { flags, positional };
}

function wrangler() {
  const local = join(ROOT, "node_modules", ".bin", "wrangler");
  return existsSync(local) ? local : "wrangler";
}

function target(flags) {
  if (flags.remote) return ["--remote"];
  return ["--local", ...(flags.persistTo ? ["--persist-to", flags.persistTo] : [])];
}

// node_modules/.bin first, as under npm run: it holds the Node version wrangler needs.
const env = {
  ...process.env,
  PATH: `${join(ROOT, "node_modules", ".bin")}${delimiter}${process.env.PATH ?? ""}`,
  CI: "1",
  WRANGLER_SEND_METRICS: "false",
};

/** Applies pending migrations to the local database (idempotent); never touches the remote one. */
export async function applyLocalMigrations(flags) {
  if (flags.remote) return;
  await run(wrangler(), ["d1", "migrations", "apply", DATABASE, ...target(flags)], { cwd: ROOT, env });
}

/** Executes one statement; returns the result rows (use RETURNING to learn which rows changed). */
export async function execute(flags, sql) {
  let stdout;
  try {
    ({ stdout } = await run(wrangler(), ["d1", "execute", DATABASE, ...target(flags), "--json", "--command", sql], {
      cwd: ROOT,
      env,
      maxBuffer: 16 * 1024 * 1024,
    }));
  } catch (err) {
    const out = `${err.stdout ?? ""}${err.stderr ?? ""}`;
    if (/no such table: api_keys/.test(out)) {
      throw new Error(
        `The database has no api_keys table: run npx wrangler d1 migrations apply ${DATABASE} ${flags.remote ? "--remote" : "--local"}`,
      );
    }
    throw new Error(`wrangler d1 execute failed:\n${out || err.message}`);
  }
  const parsed = JSON.parse(stdout.slice(stdout.indexOf("[")));
  const first = parsed[0] ?? {};
  return { rows: first.results ?? [] };
}

/** Runs `main`, printing a one-line error and exiting 1 on failure. */
export async function runScript(main) {
  try {
    await main(process.argv.slice(2));
  } catch (err) {
    console.error(`error: ${err.message}`);
    process.exit(1);
  }
}
