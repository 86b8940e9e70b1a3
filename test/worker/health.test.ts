import { SELF } from "cloudflare:test";
import { expect, it } from "vitest";

it("answers /healthz", async () => {
  const res = await SELF.fetch("https://signet.test/healthz");
  expect(res.status).toBe(200);
});
