import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { auditTrail, BASE, corpusPdf, fromDataUri, post, problem, signer, signRequest } from "./helpers";

const SIMPLE = "pdf20examples__Simple_PDF_2.0_file.pdf";
const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

function multipart(parts: Record<string, Blob | string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts)) {
    if (typeof value === "string") form.append(name, value);
    else form.append(name, value, name === "file" ? "contract.pdf" : undefined);
  }
  return form;
}

const pdfBlob = (bytes: Uint8Array, type = "application/pdf") => new Blob([bytes], { type });
const jsonBlob = (value: unknown) => new Blob([JSON.stringify(value)], { type: "application/json" });

function send(path: string, body: BodyInit, headers: Record<string, string> = {}) {
  return SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${env.TEST_API_KEY}`, ...headers },
    body,
  });
}

/** A multipart body written by hand: what a hostile or broken client sends. */
function rawMultipart(parts: string[], boundary = "XyZ-boundary", close = true): { body: string; type: string } {
  const body = parts.map((p) => `--${boundary}\r\n${p}\r\n`).join("") + (close ? `--${boundary}--\r\n` : "");
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

async function verifyRaw(pdf: Uint8Array) {
  const res = await send("/v1/verify", pdf, { "Content-Type": "application/pdf" });
  expect(res.status).toBe(200);
  return (await res.json()) as any;
}

describe("POST /v1/sign with binary documents", () => {
  it("multipart in, PDF out: the body is the signed PDF, Signet-Result carries the JSON fields (non-ASCII intact), and verify finds it valid", async () => {
    const input = await corpusPdf(SIMPLE);
    const eventId = "événement-Ω-42 ✍";
    const res = await send(
      "/v1/sign",
      multipart({
        file: pdfBlob(input),
        request: jsonBlob({ signer: { ...signer, name: "Zoë Ångström-Łukasz 山田" }, auditTrail, eventId }),
      }),
      {
        Accept: "application/pdf",
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const header = res.headers.get("signet-result")!;
    expect(header).toMatch(/^[\x20-\x7e]+$/);
    const result = JSON.parse(header);
    expect(result.eventId).toBe(eventId);
    expect(result.signature).toMatchObject({ level: "B-B", fieldName: "Signature1" });
    expect(result.reference).toMatch(/^[0-9a-f]{32}$/);
    expect(result).not.toHaveProperty("document");
    const signed = new Uint8Array(await res.arrayBuffer());
    expect(Number(res.headers.get("content-length"))).toBe(signed.length);
    expect(await sha256Hex(signed)).toBe(result.sha256);
    expect(signed.subarray(0, input.length)).toEqual(input);
    const report = await verifyRaw(signed);
    expect(report.valid).toBe(true);
    expect(report.signers[0].name).toBe("Zoë Ångström-Łukasz 山田");
  });

  it("multipart in, JSON out by default: the same answer as a JSON request, and the same event (a JSON retry replays it)", async () => {
    const input = await corpusPdf(SIMPLE);
    const eventId = "evt-multipart-json";
    const res = await send(
      "/v1/sign",
      multipart({ file: pdfBlob(input), request: JSON.stringify({ signer, auditTrail, eventId }) }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const first = (await res.json()) as any;
    expect(first.document.base64).toMatch(/^data:application\/pdf;base64,/);
    // The request hash leaves the document out as bytes: the JSON form of the same request is a retry.
    await res.body?.cancel().catch(() => {});
    const again = (await (await post("/v1/sign", signRequest(input, { eventId }))).json()) as any;
    expect(again.sha256).toBe(first.sha256);
    expect(again.document.base64).toBe(first.document.base64);
  });

  it("JSON in, PDF out; a binary retry is answered from the stored output with the same bytes and Signet-Result", async () => {
    const input = await corpusPdf(SIMPLE);
    const req = signRequest(input, { eventId: "evt-json-binary" });
    const first = await post("/v1/sign", req, { headers: { Accept: "application/pdf" } });
    expect(first.status).toBe(200);
    const bytes = new Uint8Array(await first.arrayBuffer());
    const result = JSON.parse(first.headers.get("signet-result")!);
    expect(await sha256Hex(bytes)).toBe(result.sha256);
    const retry = await post("/v1/sign", req, { headers: { Accept: "application/pdf" } });
    expect(retry.status).toBe(200);
    expect(new Uint8Array(await retry.arrayBuffer())).toEqual(bytes);
    expect(JSON.parse(retry.headers.get("signet-result")!)).toEqual(result);
    // Accept ranks the types: JSON first (or PDF refused by q=0) keeps JSON.
    for (const accept of [
      "application/json, application/pdf",
      "application/pdf;q=0.5, application/json",
      "application/pdf;q=0",
      "*/*",
    ]) {
      const res = await post("/v1/sign", req, { headers: { Accept: accept } });
      expect(res.headers.get("content-type"), accept).toMatch(/^application\/json/);
      expect(fromDataUri(((await res.json()) as any).document.base64)).toEqual(bytes);
    }
  });

  it("a DOCX as the part file is rendered and signed, as with JSON", async () => {
    const docx = new Uint8Array(
      await (
        await fetch(`${env.FIXTURE_BASE_URL}/docx/abcinc__QDRO_Pre-Approval_And_Finalization_Instructions_1.docx`)
      ).arrayBuffer(),
    );
    const res = await send(
      "/v1/sign",
      multipart({ file: pdfBlob(docx, DOCX_TYPE), request: jsonBlob({ signer, auditTrail }) }),
      { Accept: "application/pdf" },
    );
    expect(res.status).toBe(200);
    const signed = new Uint8Array(await res.arrayBuffer());
    expect(new TextDecoder().decode(signed.subarray(0, 5))).toBe("%PDF-");
    expect((await verifyRaw(signed)).valid).toBe(true);
  });
});

describe("POST /v1/verify with binary documents", () => {
  it("the raw PDF body and the multipart part file give the JSON report of the JSON request", async () => {
    const signed = new Uint8Array(
      await (
        await post("/v1/sign", signRequest(await corpusPdf(SIMPLE)), { headers: { Accept: "application/pdf" } })
      ).arrayBuffer(),
    );
    const raw = await verifyRaw(signed);
    const form = (await (await send("/v1/verify", multipart({ file: pdfBlob(signed) }))).json()) as any;
    const withRequest = (await (
      await send("/v1/verify", multipart({ file: pdfBlob(signed), request: "{}" }))
    ).json()) as any;
    const json = (await (
      await post("/v1/verify", {
        document: { base64: `data:application/pdf;base64,${btoa(String.fromCharCode(...signed))}` },
      })
    ).json()) as any;
    expect(raw.valid).toBe(true);
    for (const r of [form, withRequest, json]) expect(r).toEqual(raw);
  });

  it("a DOCX or a PNG as the raw body is 415 unsupported_document_type (decided by the bytes); an empty body too", async () => {
    const docx = new Uint8Array(
      await (
        await fetch(`${env.FIXTURE_BASE_URL}/docx/abcinc__QDRO_Pre-Approval_And_Finalization_Instructions_1.docx`)
      ).arrayBuffer(),
    );
    const res = await send("/v1/verify", docx, { "Content-Type": DOCX_TYPE });
    expect(res.status).toBe(415);
    expect((await problem(res)).code).toBe("unsupported_document_type");
    const png = await send("/v1/verify", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]), {
      "Content-Type": "application/pdf",
    });
    expect((await problem(png)).code).toBe("unsupported_document_type");
    const empty = await send("/v1/verify", new Uint8Array(0), { "Content-Type": "application/pdf" });
    expect((await problem(empty)).code).toBe("unsupported_document_type");
  });
});

describe("hostile binary requests get problem+json 4xx", () => {
  const fileHeader =
    'Content-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7 not really';
  const requestPart = `Content-Disposition: form-data; name="request"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify({ signer, auditTrail })}`;
  const cases: {
    name: string;
    path?: string;
    body: () => { body: string | Uint8Array; type: string };
    status: number;
    code: string;
    detail: RegExp;
  }[] = [
    {
      name: "no file part",
      body: () => rawMultipart([requestPart]),
      status: 400,
      code: "invalid_request",
      detail: /send the document as the multipart part `file`/,
    },
    {
      name: "no request part (sign)",
      body: () => rawMultipart([fileHeader]),
      status: 400,
      code: "invalid_request",
      detail: /JSON part `request`/,
    },
    {
      name: "two file parts",
      body: () => rawMultipart([fileHeader, fileHeader, requestPart]),
      status: 400,
      code: "invalid_request",
      detail: /Two multipart parts are named "file"/,
    },
    {
      name: "an unexpected part",
      body: () => rawMultipart(['Content-Disposition: form-data; name="extra"\r\n\r\nx', fileHeader, requestPart]),
      status: 400,
      code: "invalid_request",
      detail: /Unexpected multipart part "extra"/,
    },
    {
      name: "part headers of 64 KiB",
      body: () =>
        rawMultipart([`${fileHeader.split("\r\n\r\n")[0]}\r\nX-Junk: ${"j".repeat(65_536)}\r\n\r\n%PDF`, requestPart]),
      status: 400,
      code: "invalid_request",
      detail: /headers are larger than 8192 bytes/,
    },
    {
      name: "a request part that is an image",
      body: () =>
        rawMultipart([
          fileHeader,
          'Content-Disposition: form-data; name="request"\r\nContent-Type: image/png\r\n\r\n{}',
        ]),
      status: 415,
      code: "unsupported_media_type",
      detail: /request fields as JSON/,
    },
    {
      name: "a request part that is not JSON",
      body: () => rawMultipart([fileHeader, 'Content-Disposition: form-data; name="request"\r\n\r\n{signer:']),
      status: 400,
      code: "invalid_json",
      detail: /part request is not valid JSON/,
    },
    {
      name: "a request part with a document",
      body: () =>
        rawMultipart([
          fileHeader,
          `Content-Disposition: form-data; name="request"\r\n\r\n${JSON.stringify({ signer, auditTrail, document: { url: "http://169.254.169.254/" } })}`,
        ]),
      status: 400,
      code: "invalid_request",
      detail: /document is the part file/,
    },
    {
      name: "a request part failing the schema",
      body: () =>
        rawMultipart([
          fileHeader,
          `Content-Disposition: form-data; name="request"\r\n\r\n${JSON.stringify({ signer: { ...signer, email: "nope" }, auditTrail })}`,
        ]),
      status: 400,
      code: "invalid_request",
      detail: /^request\.signer\.email: /,
    },
    {
      name: "a body cut short",
      body: () => rawMultipart([fileHeader, requestPart], "XyZ-boundary", false),
      status: 400,
      code: "invalid_request",
      detail: /ended before its closing boundary/,
    },
    {
      name: "no boundary parameter",
      body: () => ({ body: "--x\r\n\r\n--x--", type: "multipart/form-data" }),
      status: 400,
      code: "invalid_request",
      detail: /no boundary parameter/,
    },
    {
      name: "an image as the file",
      body: () =>
        rawMultipart([
          `Content-Disposition: form-data; name="file"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n0000`,
          requestPart,
        ]),
      status: 415,
      code: "unsupported_document_type",
      detail: /Expected a PDF or DOCX document for sign/,
    },
    {
      name: "a raw PDF body to sign (sign needs its request fields)",
      body: () => ({ body: "%PDF-1.7", type: "application/pdf" }),
      status: 415,
      code: "unsupported_media_type",
      detail: /multipart\/form-data \(parts file and request\)/,
    },
    {
      name: "a text/plain body to verify",
      path: "/v1/verify",
      body: () => ({ body: "%PDF-1.7", type: "text/plain" }),
      status: 415,
      code: "unsupported_media_type",
      detail: /the document itself/,
    },
    {
      name: "a multipart verify with a request field",
      path: "/v1/verify",
      body: () => rawMultipart([fileHeader, 'Content-Disposition: form-data; name="request"\r\n\r\n{"strict":true}']),
      status: 400,
      code: "invalid_request",
      detail: /^request/,
    },
  ];
  for (const c of cases) {
    it(`${c.name}: ${c.status} ${c.code}`, async () => {
      const { body, type } = c.body();
      const res = await send(c.path ?? "/v1/sign", body, { "Content-Type": type, Accept: "application/pdf" });
      expect(res.status).toBe(c.status);
      const p = await problem(res);
      expect(p.code).toBe(c.code);
      expect(p.detail).toMatch(c.detail);
    });
  }

  it("a declared Content-Length above the body cap is 413 before anything is read, on both binary paths", async () => {
    for (const [path, type] of [
      ["/v1/sign", "multipart/form-data; boundary=b"],
      ["/v1/verify", "application/pdf"],
    ]) {
      const body = new ReadableStream<Uint8Array>({ pull: (c) => c.enqueue(new Uint8Array(1024)) });
      const res = await SELF.fetch(`${BASE}${path}`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${env.TEST_API_KEY}`,
          "Content-Type": type!,
          "Content-Length": String(41 * 1024 * 1024),
        },
        body,
        duplex: "half",
      } as RequestInit);
      expect(res.status, path).toBe(413);
      expect(["payload_too_large", "document_too_large"]).toContain((await problem(res)).code);
    }
  });

  it("a raw PDF body above the document cap is 413 document_too_large", async () => {
    const res = await send("/v1/verify", new Uint8Array(25 * 1024 * 1024 + 1), { "Content-Type": "application/pdf" });
    expect(res.status).toBe(413);
    expect((await problem(res)).code).toBe("document_too_large");
  });

  it("without an API key, a multipart sign is 401 before its body is read", async () => {
    const res = await SELF.fetch(`${BASE}/v1/sign`, {
      method: "POST",
      body: multipart({ file: pdfBlob(new Uint8Array(10)), request: "{}" }),
    });
    expect(res.status).toBe(401);
  });
});

describe("the OpenAPI document describes the binary paths", () => {
  it("sign takes multipart (file + request) and answers application/pdf with Signet-Result; verify takes the raw PDF", async () => {
    const doc = (await (await SELF.fetch(`${BASE}/openapi.json`)).json()) as any;
    const sign = doc.paths["/v1/sign"].post;
    expect(Object.keys(sign.requestBody.content)).toEqual(["application/json", "multipart/form-data"]);
    expect(Object.keys(sign.responses["200"].content)).toEqual(["application/json", "application/pdf"]);
    expect(sign.responses["200"].headers["Signet-Result"].description).toMatch(/\\uXXXX/);
    expect(doc.components.schemas.SignResult.properties).toHaveProperty("eventId");
    expect(doc.components.schemas.SignResult.properties).not.toHaveProperty("document");
    expect(doc.components.schemas.SignRequestFields.properties).not.toHaveProperty("document");
    const verify = doc.paths["/v1/verify"].post;
    expect(Object.keys(verify.requestBody.content)).toEqual(
      expect.arrayContaining(["application/json", "multipart/form-data", "application/pdf"]),
    );
  });
});
