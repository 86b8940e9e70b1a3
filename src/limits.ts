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
  /** Longest wait for the next bytes of a request body; a client that stalls longer gets 408 `request_timeout`. */
  requestBodyIdleTimeoutMs: 15_000,
  /** multipart/form-data bodies of sign and verify (the document as the part `file`). */
  multipart: {
    /** Bytes of the JSON part `request` (the sign request without its document). */
    maxRequestPartBytes: 16 * 1024 * 1024,
    /** Bytes of one part's header block. */
    maxPartHeaderBytes: 8 * 1024,
  },

  /** Remote fetches: hops, time, count per request. */
  maxRedirects: 3,
  fetchTimeoutMs: 10_000,
  maxUrlsPerRequest: 20,

  /**
   * Revocation data (OCSP, CRLs) fetched for B-LT/B-LTA signing and for online verification
   * (VERIFY_ONLINE_REVOCATION): addresses come from certificates, so they follow the document
   * URL rules (SSRF checks, redirects, per-fetch timeout) plus these caps.
   */
  revocation: {
    /** Bytes of one OCSP response. */
    maxOcspBytes: 256 * 1024,
    /** Bytes of one CRL (fetched or embedded). */
    maxCrlBytes: 10 * 1024 * 1024,
    /** Responders and CRL addresses asked per request (all certificates of all chains). */
    maxFetches: 24,
    /** Time for all revocation fetches of one request together. */
    totalTimeoutMs: 20_000,
    /** Certificates whose status is looked up per signature (chains of the signer and its time-stamps). */
    maxCertificates: 24,
    /** OCSP responses and CRLs read from one document (DSS, CMS attributes). */
    maxEmbeddedItems: 256,
    /** Signature checks on revocation data (OCSP responses, CRLs) per document: many items may name one certificate. */
    maxSignatureChecks: 512,
    /** Candidate delegated responders tried for one OCSP response. */
    maxResponderCandidates: 8,
  },

  /** One AWS KMS call (GetPublicKey, Sign), connect to answer (env AWS_KMS_TIMEOUT_MS). */
  kmsTimeoutMs: 10_000,

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
    /** Objects parsed by one reader (each at most once; it keeps them): what reading costs in time and memory. */
    maxParsedObjects: 2_000_000,
  },

  /**
   * DOCX templates (`/v1/annotate`). The ZIP central directory is checked against the declared
   * sizes before anything is inflated; parts are then inflated in small steps and stopped as soon
   * as they pass their declared size (headers that lie). Only the parts Signet edits are inflated.
   */
  docx: {
    /** Entries in the package's central directory. */
    maxEntries: 10_000,
    /** Declared uncompressed size of any one entry. */
    maxDeclaredEntryBytes: 128 * 1024 * 1024,
    /** Sum of the declared uncompressed sizes of all entries. */
    maxDeclaredTotalBytes: 512 * 1024 * 1024,
    /** Declared uncompressed / compressed size of an entry, checked for entries above the floor. */
    maxCompressionRatio: 200,
    ratioCheckFloorBytes: 1024 * 1024,
    /** Inflated size of one XML part Signet reads (document, header, footer, notes, rels). */
    maxXmlPartBytes: 24 * 1024 * 1024,
    /** Bytes inflated per request, all parts together. */
    maxInflatedBytes: 48 * 1024 * 1024,
    /** Compressed bytes fed to the inflater per step (bounds the memory one step can produce). */
    inflateStepBytes: 16 * 1024,
    /**
     * Parts small enough are inflated in one go (faster), as long as the bytes they could produce
     * at deflate's worst (1032 times their compressed size, a lying header's cost) stay under this
     * per request; the others are inflated in steps.
     */
    wholeInflateWorkBytes: 16 * 1024 * 1024,
    /** Element nesting depth in one XML part. */
    maxXmlDepth: 256,
    /** Content controls in one document. */
    maxControls: 50_000,
    /** Image bytes (decoded data URI or fetched) of one image value. */
    maxImageBytes: 10 * 1024 * 1024,
    /** Width x height of an image, read from its header (never decoded). */
    maxImagePixels: 50_000_000,
    /** Fields in one annotate request. */
    maxFields: 1_000,
    /** Characters of one text value (or one table cell). */
    maxValueChars: 200_000,
    /** Rows of one table value, and cells of all table values together. */
    maxTableRows: 5_000,
    maxTableCells: 100_000,
  },

  /**
   * DOCX renderer budgets. The document model (src/render/model) reads parts through the DOCX
   * package above (same ZIP and XML limits); the model counts bound what it may hold, so a hostile
   * document cannot make layout do unbounded work. Too many blocks/inlines/cells/images is 422 `docx_invalid`;
   * too many image bytes is 413 `zip_limit`.
   */
  render: {
    /** Paragraphs and tables in the whole model (body, headers, footers, notes, text boxes). */
    maxBlocks: 200_000,
    /** Text runs, tabs, breaks, fields, images and boxes in the whole model. */
    maxInlines: 2_000_000,
    /** Table cells in the whole model. */
    maxTableCells: 200_000,
    /** Nesting of tables in cells and text boxes in paragraphs. */
    maxNesting: 16,
    /** Grid columns of one table in layout (Word allows 63); cells beyond are dropped. */
    maxTableColumns: 1_000,
    /**
     * Pages one document may lay out. Every block advances the flow, so this bounds documents that
     * are simply huge and hostile ones (thousands of page breaks) alike; more is 422
     * `render_limit`. Worst case: 0.9 s of CPU to render 4,990 empty pages, 0.1 s to refuse 5,100.
     */
    maxPages: 5_000,
    /**
     * Units of layout work for one document (about a microsecond each): characters measured and
     * pieces placed by paragraph layout, counted again each time a paragraph is laid out again
     * (table cells, headers and footers on every page, column balancing), paragraphs and pages.
     * More is 422 `render_limit`. The corpus's most is 336,315 (poi__bug65649, 180 pages). Worst
     * case (npm run bench:budgets): 3.3 s of CPU to render a document just under it (an
     * 8,000-row table), 1.2 s to refuse one past it.
     */
    maxLayoutWork: 2_500_000,
    /** Distinct images loaded. */
    maxImages: 1_000,
    /** Bytes of one image part. */
    maxImageBytes: 16 * 1024 * 1024,
    /** Bytes of all image parts together. */
    maxTotalImageBytes: 40 * 1024 * 1024,
    /**
     * Fonts the document embeds (word/fonts, src/render/model/embedded-fonts.ts). Past these the
     * family is substituted as if nothing were embedded (never an error).
     */
    embeddedFonts: {
      /** Faces (a family in one style) read. */
      maxFaces: 16,
      /** Bytes of one font file. */
      maxFaceBytes: 8 * 1024 * 1024,
      /** Bytes of all embedded font files together. */
      maxTotalBytes: 24 * 1024 * 1024,
    },
    /**
     * Declared (uncompressed) bytes of the XML parts the renderer reads, together: the main document
     * and the styles, numbering, settings, theme, font table, headers, footers and notes it
     * references. Checked from the ZIP directory before anything is inflated; more is 413
     * `zip_limit`. document.xml is decoded and parsed a window at a time and each body element is
     * dropped once read, so the heap holds the model and the laid-out pages, not the XML:
     * poi__bug65649.docx (14.6 MiB of XML, 180 pages) renders in an 80 MB Node heap, about 60 MB
     * above the idle process. 16 MiB admits it and refuses bigger packages before any work.
     */
    maxXmlBytes: 16 * 1024 * 1024,
    /** Equations (OMML, src/render/model/math.ts): structure beyond these is kept as plain text. */
    math: {
      /** Elements read as structure in one equation. */
      maxNodes: 5_000,
      /** Nesting of fractions, scripts, radicals ... in one equation. */
      maxDepth: 24,
    },
    /** Windows Metafile pictures (src/render/model/wmf.ts): what one picture may hold; the rest is not drawn. */
    metafile: {
      /** Records read from one metafile. */
      maxRecords: 100_000,
      /** GDI objects (fonts, pens, brushes) alive at once. */
      maxObjects: 1_024,
      /** Characters of text drawn from one metafile. */
      maxTextChars: 20_000,
    },
    /** Fields LibreOffice computes (src/render/model/field-results.ts); past these a field keeps its cached result. */
    fieldResults: {
      /** SEQ counters (distinct names); a SEQ of a further name keeps its cached result. */
      maxSequences: 1_000,
      /** Bookmarks known to REF fields; a reference to one past them keeps its cached result. */
      maxBookmarks: 5_000,
      /** Characters of one bookmark's text shown by a REF field. */
      maxBookmarkText: 400,
    },
    /** Data-bound content controls (src/render/model/data-binding.ts); past these a control keeps its cached text. */
    dataBinding: {
      /** Characters of one binding's XPath. */
      maxXpathChars: 1_000,
      /** Characters of one bound value shown. */
      maxValueChars: 2_000,
      /** Custom XML parts looked at for a store item id. */
      maxCustomParts: 64,
      /** Bytes of one store part (core, extended properties, a custom XML part) read. */
      maxStoreBytes: 1024 * 1024,
    },
    /** Document properties shown by property fields (src/render/model/doc-properties.ts). */
    docProperties: {
      /** Properties kept (built-in and custom); later custom properties show their cached result. */
      maxProperties: 1_000,
      /** Characters of one property value shown in a field. */
      maxValueLength: 2_000,
    },
    /** Charts (src/render/model/charts.ts): what one chart part may hold; more is not drawn. */
    chart: {
      /** Declared bytes of one chart part (word/charts/chartN.xml); a larger chart leaves its box empty. */
      maxPartBytes: 2 * 1024 * 1024,
      /** Series read from a chart; later series are not drawn. */
      maxSeries: 64,
      /** Points (categories) per series; later points are not drawn. */
      maxPoints: 1_000,
      /** Characters of a title, category or series name. */
      maxTextLength: 200,
    },
  },

  /** Paragraph (inline) layout, src/render/layout/inline/. */
  paragraph: {
    /**
     * Characters of one paragraph, all its runs together (so also of one run); more is 422
     * `render_limit`. Worst case: 0.8 s of CPU to render a Latin word of 999,000 characters, 2.7 s
     * an Arabic one of 990,000 (shaped and joined a piece at a time).
     */
    maxChars: 1_000_000,
    /** Lines of one paragraph; text past them is dropped (a hostile 1-character-wide column stops here). */
    maxLines: 100_000,
    /** Times one line moves down past floats that leave no room for a word, before it is placed anyway. */
    maxExclusionSteps: 200,
    /**
     * Characters (UTF-16 code units) of one measured piece of a word. A longer word (no break
     * opportunity in it) is cut into pieces of this size that still join on a line: breaking it by
     * characters then measures a piece at a time, so a word of n characters costs time linear in n
     * (a 400,000-character word took 30 s when each line re-measured the rest of it). No word of
     * the corpus comes near (its longest piece is 264 spaces), so their layout is unchanged.
     */
    maxPieceChars: 1_000,
    /** Word widths cached per font face (the cache is emptied when it reaches this size). */
    widthCacheEntries: 20_000,
    /**
     * Shaped words (HarfBuzz glyph runs, about 0.3 KB each) cached per font face, emptied when full:
     * layout keeps their widths per size (above), paint its own strings, so fewer are needed.
     */
    shapedCacheEntries: 4_096,
  },

  /** DOCX renderer, painting (src/render/paint). */
  paint: {
    /**
     * Pixels of one PNG drawn into the PDF. pdf-lib decodes a PNG in memory at about 9 bytes per
     * pixel, so 6 M pixels (e.g. 3000 x 2000) peak near 54 MB of the 128 MB isolate; larger PNGs are
     * left out (their box stays empty). JPEGs are embedded without decoding.
     */
    maxPngPixels: 6_000_000,
    /**
     * Pixels of the PNG and GIF pictures one document has decoded, together (pdf-lib takes about
     * 0.3 s per million pixels, to decode and to compress them again); more is 422 `render_limit`.
     * The corpus's most is 5.0 million. Worst case: 0.8 s of CPU to render two 6-million-pixel
     * PNGs, 0.6 s to refuse a third. A PNG whose image data inflates past what its header holds
     * is not decoded at all (its box stays empty; 422 `image_invalid` for an annotate value drawn
     * as PDF): the check stops at the header's size (3 GiB behind a 2000 x 2000 header: 0.2 s).
     */
    maxDecodedPixels: 16_000_000,
    /** Shaped (right-to-left or complex-script) strings remembered per font; the cache is emptied when full. */
    shapedTextCacheEntries: 20_000,
    /**
     * Glyphs per font drawn under a CID of their own so their text copies as typed (characters no
     * font has, mirrored brackets, zero-width non-joiners); past it they use the glyph's own CID.
     */
    aliasCids: 4_096,
  },

  /**
   * JSON string values at least this long are base64-decoded while the request
   * body streams in (documents, images); below it, bodies are parsed as usual.
   */
  preDecodeThresholdBytes: 1024 * 1024,

  /** Audit trail entries in a sign request. */
  maxAuditTrailEntries: 10_000,

  /**
   * `/v1/convert` from Markdown and HTML (src/convert): what one source may hold before it is
   * refused (413 `zip_limit`-like `convert_limit`), so a hostile document cannot make the DOCX
   * writer or the renderer run away.
   */
  convert: {
    /** Source text (Markdown or HTML) in bytes. */
    maxSourceBytes: 5 * 1024 * 1024,
    /** markdown-it tokens of one Markdown source. */
    maxMarkdownTokens: 500_000,
    /** HTML elements of one source. */
    maxHtmlElements: 200_000,
    /** Nesting of HTML elements followed; deeper content is read as text of the deepest level. */
    maxHtmlDepth: 64,
    /** CSS rules read from `<style>` elements. */
    maxCssRules: 5_000,
    /** Pictures (data URIs and URLs) one document may embed; URLs also count against maxUrlsPerRequest. */
    maxImages: 100,
    /** Paragraphs of the document model (a code line is one). */
    maxBlocks: 50_000,
  },

  /**
   * `/v1/verify`: what verifying one document may cost (besides the reader's `pdf` budgets, whose
   * work counter the difference analysis also counts against), and the calls without an API key
   * per client IP: the rate-limit binding `RATE_LIMIT_ANONYMOUS` (wrangler.toml) counts them; the
   * numbers here are its per-isolate fallback.
   */
  verify: {
    /**
     * Signatures (signed signature fields and document time-stamps) one document may have; more is
     * 422 `pdf_too_complex` before any is checked. Each one costs a CMS verification and a digest
     * of everything it signed; real documents have a handful.
     */
    maxSignatures: 100,
    /**
     * Bytes hashed for all signatures together (each one hashes the bytes its /ByteRange covers,
     * so N signatures over a large file hash it about N times). Checked before any hashing; more
     * is 422 `pdf_too_complex`: ten signatures over a 25 MiB document fit.
     */
    maxSignedBytes: 256 * 1024 * 1024,
    /**
     * The reader's work counter for one verification (pdf.maxWorkUnits applies to signing): objects
     * parsed, references followed, page-tree kids, changed objects and list entries the difference
     * analysis judges. The signed corpus needs at most 49,000; a signed 100,000-page document 1.23 M.
     * More is 422 `pdf_too_complex`.
     */
    maxWorkUnits: 2_000_000,
    /**
     * Objects the revisions after the first signature may change, together (each changed object is
     * parsed in both versions and traced through the document). A signature adds about 10, form
     * filling a few per field; 100,000 changed objects took more than a 128 MB heap. Counted from
     * the cross-reference data, before anything is parsed; more is 422 `pdf_too_complex`.
     */
    maxChangedObjects: 20_000,
    /**
     * Objects one verification may parse (pdf.maxParsedObjects applies to signing). Tracing what a
     * later revision changed reads every object the document reaches, at about 25 µs each in
     * workerd: a signed 100,000-page document (101,000 objects) verifies in about 3 s, and a 24 MB
     * file of 400,000 tiny objects took 9-12 s before it was refused on work units. More is 422
     * `pdf_too_complex`.
     */
    maxParsedObjects: 150_000,
    /** Anonymous requests per client IP per minute. */
    anonymousRequestsPerMinute: 30,
    /** Client addresses the limiter tracks at once (the oldest are forgotten first). */
    maxTrackedClients: 10_000,
  },

  /**
   * Rate limits. The real limits are the `[[ratelimits]]` bindings of wrangler.toml (counted by
   * Cloudflare across isolates); the per-minute numbers here are only the per-isolate fallback
   * used when a binding is absent (workerd without those bindings).
   */
  rateLimits: {
    /** `Retry-After` of a 429: the longest period a rate-limit binding can have (10 or 60 s). */
    retryAfterSeconds: 60,
    /** Fallback: requests per API key per minute (sign, annotate, keyed verify and lookups). */
    apiKeyRequestsPerMinute: 600,
    /** Fallback: failed authentications (401) per client IP per minute. */
    authFailuresPerMinute: 20,
    /** Client IPs remembered as over the failed-authentication limit, per isolate. */
    maxBlockedClients: 10_000,
  },

  /**
   * API keys accepted recently, per isolate: a request with one starts work at once while D1
   * confirms the key in parallel; nothing is recorded or answered before D1 has (middleware/auth.ts).
   */
  recentKeys: {
    /** Keys remembered (digests only; the oldest is forgotten first). */
    maxKeys: 1_000,
    /** How long after an accepted lookup a key keeps the parallel check (a miss looks up first). */
    rememberMs: 10 * 60_000,
  },
} as const;

/** Request-shape caps enforced by the zod schemas. */
export const REQUEST_LIMITS = {
  /** Characters of an `eventId`. */
  maxEventIdLength: 255,
  /** Serialized `metadata` (JSON) in a sign request. */
  maxMetadataJsonBytes: 64 * 1024,
  /** Serialized audit trail (JSON) in a sign request. */
  maxAuditTrailJsonBytes: 8 * 1024 * 1024,
} as const;
