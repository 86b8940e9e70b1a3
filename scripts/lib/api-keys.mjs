/**
 * API keys: minting, digests and the SQL the `npm run key:*` scripts run against D1
 * (table `api_keys`, migration 0003). No Node APIs here, so worker tests use the same
 * statements as the scripts.
 */

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const KEY_PREFIX = "sgn_";
export const KEY_BODY_LENGTH = 43;
/** Public key ids: "key_" + 16 hex characters. */
export const KEY_ID_SHAPE = /^key_[0-9a-f]{16}$/;
const MAX_NAME_LENGTH = 200;

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

/** Lowercase hex SHA-256 of the key's UTF-8 bytes (what API_KEY_HASHES and D1 hold). */
export async function apiKeyDigest(key) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function mintKeyId() {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return "key_" + [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A key's label: printable text without control characters, 1 to 200 characters. */
export function checkKeyName(name) {
  if (typeof name !== "string" || !name.trim()) throw new Error("--name is required (who or what uses the key)");
  if (name.length > MAX_NAME_LENGTH) throw new Error(`--name is longer than ${MAX_NAME_LENGTH} characters`);
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new Error("--name must not contain control characters");
  return name.trim();
}

/** SQL string literal (wrangler d1 execute --command takes no bound parameters). */
function sqlText(value) {
  return "'" + String(value).replace(/'/g, "''") + "'";
}

export function insertKeySql({ id, sha256, name, createdAt }) {
  if (!KEY_ID_SHAPE.test(id)) throw new Error(`bad key id ${id}`);
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error("bad digest");
  return `INSERT INTO api_keys (id, sha256, name, created_at) VALUES (${sqlText(id)}, ${sqlText(sha256)}, ${sqlText(checkKeyName(name))}, ${sqlText(createdAt)})`;
}

export const LIST_KEYS_SQL =
  "SELECT id, name, substr(sha256, 1, 12) AS sha256_prefix, created_at, revoked_at FROM api_keys ORDER BY created_at, id";

export function revokeKeySql(id, revokedAt) {
  if (!KEY_ID_SHAPE.test(id))
    throw new Error(`not a key id: ${id} (ids look like key_0123456789abcdef; see npm run key:list)`);
  return `UPDATE api_keys SET revoked_at = ${sqlText(revokedAt)} WHERE id = ${sqlText(id)} AND revoked_at IS NULL RETURNING id`;
}
