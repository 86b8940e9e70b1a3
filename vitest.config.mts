import { defineConfig } from "vitest/config";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { readFileSync } from "node:fs";
import { parseDevVars } from "./scripts/lib/dev-vars.mjs";

// `npm test` creates .dev.vars (dev CA, signing key, API key) before vitest starts.
const devVars = parseDevVars(readFileSync(new URL("./.dev.vars", import.meta.url), "utf8"));

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [
          cloudflareTest(async ({ inject }) => ({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                ...devVars,
                ALLOW_PRIVATE_URLS: "true",
                // Loopback servers started by test/support/global-setup.ts.
                FIXTURE_BASE_URL: inject("fixtureBaseUrl"),
                TEST_TSA_URL: inject("tsaUrl"),
                TEST_MIGRATIONS: await readD1Migrations("./migrations"),
              },
            },
          })),
        ],
        test: {
          name: "worker",
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
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
