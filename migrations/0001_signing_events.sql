-- Every signing event Signet performs. eventId is scoped to the API key that used it.
CREATE TABLE signing_events (
  key_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  request_sha256 TEXT NOT NULL,
  signer_name TEXT NOT NULL,
  signer_email TEXT NOT NULL,
  input_sha256 TEXT NOT NULL,
  output_sha256 TEXT NOT NULL,
  replay_key TEXT NOT NULL,
  signed_at TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (key_id, event_id)
);
CREATE INDEX signing_events_output ON signing_events (output_sha256);
