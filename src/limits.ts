/**
 * Every size, count and time budget of Signet, named and documented in one place.
 * `MAX_BODY_BYTES` and `MAX_DOCUMENT_BYTES` can be overridden by configuration
 * (see `config.ts`); the rest are fixed here so engines stay pure.
 */
export const LIMITS = {
  /** Request body cap before parsing (env MAX_BODY_BYTES). */
  maxBodyBytes: 40 * 1024 * 1024,
  /** Decoded or fetched document cap (env MAX_DOCUMENT_BYTES). */
  maxDocumentBytes: 25 * 1024 * 1024,

  /** Remote fetches: hops, time, count per request. */
  maxRedirects: 3,
  fetchTimeoutMs: 10_000,
  maxUrlsPerRequest: 20,

  /** Document type sniffing: the only ZIP parts it inflates are `_rels/.rels` and `[Content_Types].xml`. */
  sniff: {
    /** Compressed bytes of one inspected part. */
    maxPartCompressedBytes: 256 * 1024,
    /** Inflated bytes of one inspected part (zip bombs stop here). */
    maxPartInflatedBytes: 256 * 1024,
    /** Central directory entries looked at. */
    maxZipEntries: 100_000,
  },

  /** PDF reader budgets. */
  pdf: {
    /** Objects an xref chain may declare in total. */
    maxObjects: 2_000_000,
    /** Revisions (xref sections) followed through /Prev. */
    maxRevisions: 1_000,
    /** Nesting of arrays/dictionaries. */
    maxDepth: 64,
    /** Elements in one array or entries in one dictionary. */
    maxCollectionSize: 1_000_000,
    /** Bytes produced by decoding streams, in total per document. */
    maxInflatedBytes: 64 * 1024 * 1024,
    /** Bytes one single decoded stream may produce. */
    maxStreamBytes: 32 * 1024 * 1024,
    /** Pages in a page tree. */
    maxPages: 100_000,
    /** Generic work counter (objects parsed, references resolved). */
    maxWorkUnits: 5_000_000,
  },

  /** Audit trail entries in a sign request. */
  maxAuditTrailEntries: 10_000,
} as const;

/** Request-shape caps enforced by the zod schemas. */
export const REQUEST_LIMITS = {
  maxEventIdLength: 255,
  /** Serialized `metadata` (JSON) in a sign request. */
  maxMetadataJsonBytes: 64 * 1024,
  /** Serialized audit trail (JSON) in a sign request. */
  maxAuditTrailJsonBytes: 8 * 1024 * 1024,
} as const;
