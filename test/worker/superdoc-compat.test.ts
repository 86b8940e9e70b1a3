/**
 * What a client written for SuperDoc's API reads besides Signet's own contract: the health shape,
 * the verify/key fields, `error`/`details` in error bodies and `document` as a bare string.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import pkg from "../../package.json";
import * as T from "../support/docx-templates";
import { partText } from "../support/docx-builder";
import { indexOfBytes } from "../../src/pdf/reader/search";
import { auditTrail, b64, BASE, corpusPdf, fromDataUri, post, signer } from "./helpers";

describe("GET /v1/health", () => {
  it("answers in SuperDoc's shape: status healthy, the time and the version", async () => {
    const res = await SELF.fetch(`${BASE}/v1/health`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.status).toBe("healthy");
    expect(body.version).toBe(pkg.version);
    expect(Math.abs(Date.parse(body.timestamp) - Date.now())).toBeLessThan(60_000);
    expect(Date.parse(body.instance.startTime)).toBeLessThanOrEqual(Date.parse(body.timestamp));
    expect(body.instance.uptime).toBeGreaterThanOrEqual(0);
    expect((await SELF.fetch(`${BASE}/healthz`)).status).toBe(200);
  });
});

describe("GET /v1/verify/key", () => {
  it("adds SuperDoc's fields: a public key that matches the certificate, its fingerprint and validity", async () => {
    const body = (await (await SELF.fetch(`${BASE}/v1/verify/key`)).json()) as any;
    expect(body.certificates.length).toBeGreaterThanOrEqual(1);
    expect(body.fingerprint).toBe(body.sha256.toUpperCase().match(/../g).join(":"));
    expect(body.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(["RSA-SHA256", "ECDSA-SHA256"]).toContain(body.algorithm);
    expect(body.version).toBe(`v${body.validFrom.slice(0, 4)}-${body.sha256.slice(0, 8)}`);
    expect(Date.parse(body.validFrom)).toBeLessThan(Date.parse(body.validTo));
    expect(body.issuer).toMatch(/CN=/);
    // The PEM public key is a real SubjectPublicKeyInfo and is the one inside the signer certificate.
    expect(body.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----\n[A-Za-z0-9+/=\n]+\n-----END PUBLIC KEY-----\n$/);
    const spki = Uint8Array.from(atob(body.publicKey.replace(/-----[^-]+-----|\n/g, "")), (ch) => ch.charCodeAt(0));
    const params =
      body.algorithm === "RSA-SHA256"
        ? { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }
        : { name: "ECDSA", namedCurve: "P-256" };
    await expect(crypto.subtle.importKey("spki", spki, params, true, ["verify"])).resolves.toBeTruthy();
    const cert = Uint8Array.from(atob(body.certificates[0].replace(/-----[^-]+-----|\n/g, "")), (ch) =>
      ch.charCodeAt(0),
    );
    expect(indexOfBytes(cert, spki)).toBeGreaterThan(0);
  });
});

describe("error bodies", () => {
  it("carry the HTTP reason phrase as error and validation errors as details [{field, issue}]", async () => {
    const res = await post("/v1/sign", {
      document: { base64: "JVBERi0x" },
      signer: { ...signer, email: "not-an-email" },
      auditTrail,
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expect(body).toMatchObject({ code: "invalid_request", error: "Bad Request", status: 400 });
    expect(body.message).toBe(body.detail);
    expect(body.details).toEqual(body.errors.map((e: any) => ({ field: e.path, issue: e.message })));
    expect(body.details[0].field).toBe("signer.email");
  });

  it("say Unauthorized, Not Found and Unsupported Media Type in SuperDoc's words, without details", async () => {
    const unauth = (await (await post("/v1/annotate", {}, { key: null })).json()) as any;
    expect(unauth).toMatchObject({ status: 401, error: "Unauthorized" });
    expect(unauth.details).toBeUndefined();
    const missing = (await (await SELF.fetch(`${BASE}/v1/nothing`)).json()) as any;
    expect(missing).toMatchObject({ status: 404, error: "Not Found", code: "not_found" });
    const wrongType = await post("/v1/verify", "x", { key: null, headers: { "Content-Type": "text/plain" } });
    expect(await wrongType.json()).toMatchObject({ status: 415, error: "Unsupported Media Type" });
  });
});

describe("document as a bare string", () => {
  it("is taken as { base64 } by verify (plain base64), annotate (a data URI) and sign", async () => {
    const pdf = await corpusPdf("pdf20examples__Simple_PDF_2.0_file.pdf");
    const verified = await post("/v1/verify", { document: b64(pdf) }, { key: null });
    expect(verified.status).toBe(200);
    expect(((await verified.json()) as any).document.pages).toBe(1);

    const template = T.templateDocx({ body: T.para(T.text("Name: "), T.wordText({ tag: "name" })) });
    const annotated = await post("/v1/annotate", {
      document: `data:application/vnd.openxmlformats-officedocument.wordprocessingml.document;base64,${b64(template)}`,
      fields: [{ id: "name", type: "text", value: "Ada" }],
    });
    expect(annotated.status).toBe(200);
    const filled = fromDataUri(((await annotated.json()) as any).document.base64);
    expect(partText(filled, "word/document.xml")).toContain(">Ada<");

    const signed = await post("/v1/sign", { document: b64(pdf), signer, auditTrail });
    expect(signed.status).toBe(200);
    expect(((await signed.json()) as any).document.contentType).toBe("application/pdf");
  });

  it("is refused when empty, and a non-string non-object still gets a validation error", async () => {
    for (const document of ["", 42, null]) {
      const res = await post("/v1/verify", { document }, { key: null });
      expect(res.status, JSON.stringify(document)).toBe(400);
      expect(((await res.json()) as any).details[0].field).toBe("document");
    }
  });

  it("is described in the OpenAPI document beside { base64 } and { url }", async () => {
    const doc = (await (await SELF.fetch(`${BASE}/openapi.json`)).json()) as any;
    const input = doc.components.schemas.DocumentInput;
    expect(JSON.stringify(input)).toMatch(/"type":"string"/);
    expect(doc.paths["/v1/health"].get.responses["200"]).toBeDefined();
  });
});
