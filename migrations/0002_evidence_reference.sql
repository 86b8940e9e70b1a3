-- A random, unguessable reference (128 bits, 32 lowercase hex characters) per signing event, printed on
-- the certificate page and carried by its QR code; GET /v1/verify/ref/{ref} looks it up.
-- Events recorded before this migration keep a null reference (SQLite's unique index allows many nulls).
ALTER TABLE signing_events ADD COLUMN reference TEXT;
CREATE UNIQUE INDEX signing_events_reference ON signing_events (reference);
