/**
 * API keys in D1 (`api_keys`, migration 0003): looked up by the SHA-256 digest of the
 * presented key, on every request (no cache), so a revocation takes effect at once.
 * Rows are written by the `npm run key:*` scripts.
 */

export interface StoredApiKey {
  id: string;
  revoked: boolean;
}

export class ApiKeyStore {
  constructor(private readonly db: D1Database) {}

  /** The key whose digest is `sha256Hex` (lowercase hex), or null when D1 holds none. */
  async findByDigest(sha256Hex: string): Promise<StoredApiKey | null> {
    const row = await this.db
      .prepare("SELECT id, revoked_at FROM api_keys WHERE sha256 = ?1")
      .bind(sha256Hex)
      .first<{ id: string; revoked_at: string | null }>();
    return row ? { id: row.id, revoked: row.revoked_at !== null } : null;
  }
}
