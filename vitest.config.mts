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
          cloudflareTest(async () => ({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                ...devVars,
                ALLOW_PRIVATE_URLS: "true",
                TEST_MIGRATIONS: await readD1Migrations("./migrations"),
              },
            },
          })),
        ],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts", "src/**/*.test.ts"],
          setupFiles: ["./test/worker/apply-migrations.ts"],
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: "tools",
          include: ["test/node/**/*.test.ts"],
          environment: "node",
          globalSetup: ["./test/node/global-setup.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
