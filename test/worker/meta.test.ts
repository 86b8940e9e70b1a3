import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ERROR_STATUS } from "../../src/errors";

describe("service metadata", () => {
  it("serves an OpenAPI 3.1 document generated from the request schemas", async () => {
    const res = await SELF.fetch("https://signet.test/openapi.json");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as any;
    expect(doc.openapi).toBe("3.1.0");
    const sign = doc.paths["/v1/sign"].post;
    expect(sign.security).toEqual([{ bearerAuth: [] }]);
    const schema = doc.components.schemas.SignRequest;
    expect(schema.required).toEqual(expect.arrayContaining(["document", "signer", "auditTrail"]));
    expect(doc.components.schemas.Signer.additionalProperties).toBe(false);
    expect(Object.keys(sign.responses)).toEqual(
      expect.arrayContaining(["200", "400", "401", "409", "413", "415", "422"]),
    );
  });

  it("lists every error code of ERROR_STATUS in the Problem schema, and each 4xx/5xx a route declares has a code with that status", async () => {
    const doc = (await (await SELF.fetch("https://signet.test/openapi.json")).json()) as any;
    expect(doc.components.schemas.Problem.properties.code.enum).toEqual(Object.keys(ERROR_STATUS));
    const statuses = new Set(Object.values(ERROR_STATUS).map(String));
    for (const [path, methods] of Object.entries<any>(doc.paths)) {
      for (const op of Object.values<any>(methods)) {
        for (const status of Object.keys(op.responses ?? {}).filter((s) => Number(s) >= 400)) {
          expect(statuses.has(status), `${path} declares ${status}, which no code answers with`).toBe(true);
        }
      }
    }
  });

  it("serves a human-readable reference page and a health check", async () => {
    const docs = await SELF.fetch("https://signet.test/docs");
    expect(docs.status).toBe(200);
    expect(docs.headers.get("content-type")).toMatch(/text\/html/);
    expect(await docs.text()).toContain("/openapi.json");
    const health = await SELF.fetch("https://signet.test/healthz");
    expect(health.status).toBe(200);
  });

  it("sets X-Request-Id on routes' answers, problems and 404s alike, the problem's requestId the same", async () => {
    const headers = { "X-Request-Id": "req-42" };
    const ok = await SELF.fetch("https://signet.test/v1/health", { headers });
    const missing = await SELF.fetch("https://signet.test/v1/nothing-here", { headers });
    const bad = await SELF.fetch("https://signet.test/v1/verify", {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body: "{",
    });
    for (const res of [ok, missing, bad]) expect(res.headers.get("x-request-id")).toBe("req-42");
    expect([missing.status, bad.status]).toEqual([404, 400]);
    expect(((await bad.json()) as { requestId: string }).requestId).toBe("req-42");
  });

  it("echoes a sane X-Request-Id and replaces an unsafe one", async () => {
    const echoed = await SELF.fetch("https://signet.test/healthz", { headers: { "X-Request-Id": "abc-123" } });
    expect(echoed.headers.get("x-request-id")).toBe("abc-123");
    const replaced = await SELF.fetch("https://signet.test/healthz", { headers: { "X-Request-Id": "<script>" } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
