import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import * as T from "../support/docx-templates";
import { dataUri } from "../support/png-images";
import { createApp } from "../../src/http/app";
import { BASE, auditTrail, b64, corpusPdf, problem, signer } from "./helpers";

/** Limits an operator sets with MAX_* vars (docs/configuration.md, docs/limits.md), each shown to change what a caller gets. */

const app = createApp();
const { template, png } = T.sampleContract();

function post(path: string, body: unknown, vars: Record<string, string>) {
  return app.request(
    `${BASE}${path}`,
    {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${env.TEST_API_KEY}` },
      body: JSON.stringify(body),
    },
    { ...env, ...vars },
  );
}

describe("MAX_* configuration", () => {
  it("MAX_AUDIT_TRAIL_ENTRIES lowers the audit-trail entries a sign request may carry", async () => {
    const pdf = await corpusPdf("pdf20examples__Simple_PDF_2.0_file.pdf");
    const body = { document: { base64: b64(pdf) }, signer, auditTrail };
    const refused = await post("/v1/sign", body, { MAX_AUDIT_TRAIL_ENTRIES: String(auditTrail.length - 1) });
    expect(refused.status).toBe(400);
    const p = await problem(refused);
    expect(p.code).toBe("invalid_request");
    expect(p.errors?.[0]?.path).toBe("auditTrail");
    expect((await post("/v1/sign", body, { MAX_AUDIT_TRAIL_ENTRIES: String(auditTrail.length) })).status).toBe(200);
  });

  it("MAX_IMAGE_BYTES caps an image value of /v1/annotate", async () => {
    const fields = [{ id: "logo", type: "image", value: dataUri(png) }];
    const body = { document: { base64: b64(template()) }, fields };
    const refused = await post("/v1/annotate?to=docx", body, { MAX_IMAGE_BYTES: String(png.length - 1) });
    expect(refused.status).toBe(422);
    expect((await problem(refused)).code).toBe("image_too_large");
    expect((await post("/v1/annotate?to=docx", body, { MAX_IMAGE_BYTES: String(png.length) })).status).toBe(200);
  });

  it("MAX_FETCH_MS bounds a document fetch: a server that never answers is 504 fetch_timeout", async () => {
    const res = await post(
      "/v1/verify",
      { document: { url: `${env.FIXTURE_BASE_URL}/hang` } },
      { MAX_FETCH_MS: "300" },
    );
    expect(res.status).toBe(504);
    expect((await problem(res)).code).toBe("fetch_timeout");
  });
});
