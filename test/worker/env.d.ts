declare namespace Cloudflare {
  interface Env {
    DB: D1Database;
    REPLAYS: R2Bucket;
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    FIXTURE_BASE_URL: string;
    TEST_TSA_URL: string;
    /** The revocation PKI of test/support/revocation-pki.ts (RevocationPkiInfo as JSON). */
    TEST_REVOCATION_PKI: string;
    TEST_KMS: string;
    TEST_API_KEY: string;
    TEST_OTHER_API_KEY: string;
    [key: string]: unknown;
  }
}
