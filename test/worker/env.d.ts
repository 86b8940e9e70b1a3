declare namespace Cloudflare {
  interface Env {
    DB: D1Database;
    REPLAYS: R2Bucket;
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    FIXTURE_BASE_URL: string;
    TEST_TSA_URL: string;
    [key: string]: unknown;
  }
}
