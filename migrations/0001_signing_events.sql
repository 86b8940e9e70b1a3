-- Every signing event Signet performs. An eventId belongs to the API key that used it.
CREATE TABLE signing_events (
  key_id TEXT NOT NULL,            -- SHA-256 hex of the caller's API key
  event_id TEXT NOT NULL,
  request_sha256 TEXT NOT NULL,    -- canonical request digest (document replaced by its SHA-256)
  signer_name TEXT NOT NULL,
  signer_email TEXT NOT NULL,
  input_sha256 TEXT NOT NULL,
  output_sha256 TEXT NOT NULL,
  replay_key TEXT,                 -- R2 key of the signed output, kept for eventId replays
  response_json TEXT NOT NULL,     -- the response fields other than the document
  signed_at TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (key_id, event_id)
);
CREATE INDEX signing_events_output ON signing_events (output_sha256);
