/**
 * Signing events in D1 and their signed outputs in R2 (for eventId replays).
 * A retry with the same eventId and the same request returns the stored bytes;
 * the first writer wins a race (primary key on key_id + event_id).
 */

export interface SigningEventRecord {
  keyId: string;
  eventId: string;
  requestSha256: string;
  signerName: string;
  signerEmail: string;
  inputSha256: string;
  outputSha256: string;
  replayKey: string | null;
  responseJson: string;
  signedAt: string;
  /** 128-bit evidence reference (32 lowercase hex); null for events recorded before references existed. */
  reference?: string | null;
}

/** What the public evidence lookups may reveal about an event: no key id, no signer, no request. */
export interface SigningEvidence {
  eventId: string;
  signedAt: string;
  inputSha256: string;
  outputSha256: string;
  reference: string | null;
}

const EVIDENCE_COLUMNS = "event_id, signed_at, input_sha256, output_sha256, reference";

export class SigningEventStore {
  constructor(
    private readonly db: D1Database,
    private readonly replays: R2Bucket,
  ) {}

  async find(keyId: string, eventId: string): Promise<SigningEventRecord | null> {
    const row = await this.db
      .prepare(
        `SELECT key_id, event_id, request_sha256, signer_name, signer_email, input_sha256, output_sha256,
                replay_key, response_json, signed_at, reference
           FROM signing_events WHERE key_id = ?1 AND event_id = ?2`,
      )
      .bind(keyId, eventId)
      .first<Record<string, string | null>>();
    if (!row) return null;
    return {
      keyId: row.key_id!,
      eventId: row.event_id!,
      requestSha256: row.request_sha256!,
      signerName: row.signer_name!,
      signerEmail: row.signer_email!,
      inputSha256: row.input_sha256!,
      outputSha256: row.output_sha256!,
      replayKey: row.replay_key ?? null,
      responseJson: row.response_json!,
      signedAt: row.signed_at!,
      reference: row.reference ?? null,
    };
  }

  /** The event recorded under an evidence reference (32 lowercase hex), if any. */
  async findByReference(reference: string): Promise<SigningEvidence | null> {
    return this.evidence(
      this.db.prepare(`SELECT ${EVIDENCE_COLUMNS} FROM signing_events WHERE reference = ?1 LIMIT 1`).bind(reference),
    );
  }

  /** The (earliest) event whose signed output has this SHA-256 (64 lowercase hex), if any. */
  async findByOutputSha256(outputSha256: string): Promise<SigningEvidence | null> {
    return this.evidence(
      this.db
        .prepare(
          `SELECT ${EVIDENCE_COLUMNS} FROM signing_events WHERE output_sha256 = ?1 ORDER BY signed_at, created_at LIMIT 1`,
        )
        .bind(outputSha256),
    );
  }

  private async evidence(statement: D1PreparedStatement): Promise<SigningEvidence | null> {
    const row = await statement.first<Record<string, string | null>>();
    if (!row) return null;
    return {
      eventId: row.event_id!,
      signedAt: row.signed_at!,
      inputSha256: row.input_sha256!,
      outputSha256: row.output_sha256!,
      reference: row.reference ?? null,
    };
  }

  /** Records the event; returns false when another request recorded the same (key, eventId) first. */
  async insert(rec: SigningEventRecord): Promise<boolean> {
    const result = await this.db
      .prepare(
        `INSERT OR IGNORE INTO signing_events
           (key_id, event_id, request_sha256, signer_name, signer_email, input_sha256, output_sha256,
            replay_key, response_json, signed_at, reference)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)`,
      )
      .bind(
        rec.keyId,
        rec.eventId,
        rec.requestSha256,
        rec.signerName,
        rec.signerEmail,
        rec.inputSha256,
        rec.outputSha256,
        rec.replayKey,
        rec.responseJson,
        rec.signedAt,
        rec.reference ?? null,
      )
      .run();
    return (result.meta.changes ?? 0) > 0;
  }

  /** Stores a signed output given as segments, streamed (never joined in memory). */
  async putReplay(key: string, segments: readonly Uint8Array[], length: number): Promise<void> {
    const { readable, writable } = new FixedLengthStream(length);
    const writing = (async () => {
      const writer = writable.getWriter();
      for (const s of segments) await writer.write(s);
      await writer.close();
    })();
    await Promise.all([this.replays.put(key, readable, { httpMetadata: { contentType: "application/pdf" } }), writing]);
  }

  /** The event's output could not be stored: its record stops naming it (retries get 409, not a missing object). */
  async forgetReplay(keyId: string, eventId: string, replayKey: string): Promise<void> {
    await this.db
      .prepare("UPDATE signing_events SET replay_key = NULL WHERE key_id = ?1 AND event_id = ?2 AND replay_key = ?3")
      .bind(keyId, eventId, replayKey)
      .run();
  }

  async getReplay(key: string): Promise<{ body: ReadableStream<Uint8Array>; size: number } | null> {
    const obj = await this.replays.get(key);
    return obj ? { body: obj.body, size: obj.size } : null;
  }

  async deleteReplay(key: string): Promise<void> {
    await this.replays.delete(key);
  }
}
