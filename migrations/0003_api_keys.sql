-- API keys kept in D1 (managed with npm run key:create / key:list / key:revoke), checked before the
-- API_KEY_HASHES secret. Only the SHA-256 digest of a key is stored; the plaintext is shown once.
-- A revoked key (revoked_at set) is refused at once: the service looks keys up on every request.
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,            -- public handle, "key_" + 16 hex characters
  sha256 TEXT NOT NULL UNIQUE,    -- lowercase hex SHA-256 of the key's UTF-8 bytes
  name TEXT NOT NULL,             -- the operator's label (who or what uses the key)
  created_at TEXT NOT NULL,       -- ISO 8601, UTC
  revoked_at TEXT                 -- ISO 8601, UTC; null while the key is valid
);
