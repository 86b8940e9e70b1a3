import { defineConfig } from "vitest/config";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { parseDevVars } from "./scripts/lib/dev-vars.mjs";

// `npm test` creates .dev.vars (dev CA, signing key, API key) before vitest starts.
const devVarsText = readFileSync(new URL("./.dev.vars", import.meta.url), "utf8");
const devVars = parseDevVars(devVarsText);
const devApiKey = /^# API key: (sgn_\w+)/m.exec(devVarsText)?.[1] ?? "";
// A second key, for tests of per-key eventId scoping.
const otherApiKey = "sgn_" + "T".repeat(43);
const sha256Hex = (s: string) => createHash("sha256").update(s).digest("hex");

export default defineConfig({
  test: {
    // One access-log line per request (src/http/middleware/access-log.ts) would drown test output.
    onConsoleLog: (log) => !log.startsWith('{"time":'),
    projects: [
      {
        plugins: [
          cloudflareTest(async ({ inject }) => ({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                ...devVars,
                API_KEY_HASHES: [devVars.API_KEY_HASHES, sha256Hex(otherApiKey)].filter(Boolean).join(","),
                TEST_API_KEY: devApiKey,
                TEST_OTHER_API_KEY: otherApiKey,
                ALLOW_PRIVATE_URLS: "true",
                // Loopback servers started by test/support/global-setup.ts.
                FIXTURE_BASE_URL: inject("fixtureBaseUrl"),
                TEST_TSA_URL: inject("tsaUrl"),
                // The revocation PKI (test/support/revocation-pki.ts) as JSON.
                TEST_REVOCATION_PKI: JSON.stringify(inject("revocationPki")),
                // The loopback KMS, its keys and their certificates (test/support/kms-fixture.ts), as JSON.
                TEST_KMS: JSON.stringify(inject("kms")),
                TEST_MIGRATIONS: await readD1Migrations("./migrations"),
                // `npm run fuzz` lengthens the HTTP fuzz run (test/worker/fuzz-http.test.ts).
                FUZZ_RUNS: process.env.FUZZ_RUNS ?? "",
                FUZZ_SEED: process.env.FUZZ_SEED ?? "",
              },
              // The bindings of wrangler.toml, with the per-key limit raised so the suite (one key,
              // hundreds of requests a minute) is never throttled; TEST_RATE_LIMIT_LOW lets
              // test/worker/ops-*.test.ts drive a limiter over its limit.
              ratelimits: {
                RATE_LIMIT_API_KEY: { namespace_id: "1001", simple: { limit: 1_000_000, period: 60 } },
                RATE_LIMIT_ANONYMOUS: { namespace_id: "1002", simple: { limit: 30, period: 60 } },
                RATE_LIMIT_AUTH_FAILURES: { namespace_id: "1003", simple: { limit: 20, period: 60 } },
                TEST_RATE_LIMIT_LOW: { namespace_id: "9001", simple: { limit: 3, period: 60 } },
              },
            },
          })),
        ],
        test: {
          name: "worker",
          // One workerd for all files: faster, and avoids a pool websocket limit hit when a second worker starts.
          isolate: false,
          include: ["test/worker/**/*.test.ts", "src/**/*.test.ts"],
          setupFiles: ["./test/worker/apply-migrations.ts"],
          globalSetup: ["./test/support/global-setup.ts"],
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: "tools",
          include: ["test/node/**/*.test.ts"],
          // The same loopback servers (fixtures, TSA, revocation PKI with its OCSP responder, KMS).
          globalSetup: ["./test/support/global-setup.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
