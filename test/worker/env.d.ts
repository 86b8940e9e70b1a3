declare namespace Cloudflare {
  interface Env {
    DB: D1Database;
    REPLAYS: R2Bucket;
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    FIXTURE_BASE_URL: string;
    TEST_TSA_URL: string;
    TEST_API_KEY: string;
    TEST_OTHER_API_KEY: string;
    [key: string]: unknown;
  }
}
