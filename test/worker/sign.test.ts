import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits";
import type { PdfRef } from "../../src/pdf/model";
import { PdfReader } from "../../src/pdf/reader";
import { PdfAssembler } from "../support/pdf-assembler";
import { toHex } from "../../src/util/bytes";
import { SigningEventStore } from "../../src/store/signing-events";
import { basePdf, makeSigner, signForTest, type TestSignOptions } from "../support/signed-pdfs";
import { auditTrail, b64, corpusPdf, fromDataUri, latin1, post, problem, signer, signRequest } from "./helpers";

const SIMPLE = "pdf20examples__Simple_PDF_2.0_file.pdf";

describe("POST /v1/sign", () => {
  it("signs a PDF as an incremental update with a certificate page and embedded evidence", async () => {
    const input = await corpusPdf(SIMPLE);
    const res = await post("/v1/sign", signRequest(input, { eventId: "evt-basic", metadata: { tenant: "acme" } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const body = (await res.json()) as any;
    expect(body.document.contentType).toBe("application/pdf");
    expect(body.document.base64).toMatch(/^data:application\/pdf;base64,/);
    const out = fromDataUri(body.document.base64);
    // Incremental: the input is an exact prefix of the output.
    expect(out.subarray(0, input.length)).toEqual(input);
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", out));
    expect(body.sha256).toBe([...digest].map((b) => b.toString(16).padStart(2, "0")).join(""));
    expect(body.eventId).toBe("evt-basic");
    expect(body.signature).toMatchObject({ level: "B-B", fieldName: "Signature1", timestamp: null });
    expect(body.signature.certificateSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(body.warnings).toEqual([]);

    const reader = PdfReader.open(out);
    expect(reader.revisions.length).toBe(PdfReader.open(input).revisions.length + 1);
    expect(reader.pages().length).toBeGreaterThan(PdfReader.open(input).pages().length);
    const text = latin1(out.subarray(input.length));
    expect(text).toContain("/SubFilter /ETSI.CAdES.detached");
    expect(text).toMatch(/\/ByteRange \[0 \d+ \d+ \d+\s*\]/);
    expect(text).toContain("/SigFlags 3");
    expect(text).toContain("(signet-audit.json)");
    // The byte range covers the whole file except the /Contents hex string.
    const [, a, b, c] = /\/ByteRange \[0 (\d+) (\d+) (\d+)/.exec(text)!.map(Number) as number[];
    expect(b! + c!).toBe(out.length);
    expect(out[a!]).toBe("<".charCodeAt(0));
    expect(out[b! - 1]).toBe(">".charCodeAt(0));
  });

  it("keeps an existing signature intact when signing a signed PDF again", async () => {
    const once = fromDataUri(
      ((await (await post("/v1/sign", signRequest(await corpusPdf(SIMPLE)))).json()) as any).document.base64,
    );
    const res = await post("/v1/sign", signRequest(once));
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.signature.fieldName).toBe("Signature2");
    const twice = fromDataUri(body.document.base64);
    expect(twice.subarray(0, once.length)).toEqual(once);
    expect(latin1(twice.subarray(once.length))).toContain("(signet-audit-2.json)");
  });

  it("omits the certificate page when certificate.enabled (or enable) is false", async () => {
    const input = await corpusPdf(SIMPLE);
    for (const certificate of [{ enabled: false }, { enable: false }]) {
      const body = (await (await post("/v1/sign", signRequest(input, { certificate }))).json()) as any;
      const out = fromDataUri(body.document.base64);
      expect(PdfReader.open(out).pages().length).toBe(PdfReader.open(input).pages().length);
    }
  });

  it("replays the same bytes for the same eventId and request, and refuses a different request", async () => {
    const input = await corpusPdf(SIMPLE);
    const req = signRequest(input, { eventId: "evt-replay" });
    const first = (await (await post("/v1/sign", req)).json()) as any;
    const again = (await (await post("/v1/sign", req)).json()) as any;
    expect(again.document.base64).toBe(first.document.base64);
    expect(again.sha256).toBe(first.sha256);
    expect(again.signature).toEqual(first.signature);

    const changed = await post("/v1/sign", { ...req, signer: { ...signer, name: "Someone Else" } });
    expect(changed.status).toBe(409);
    expect((await problem(changed)).code).toBe("event_id_conflict");

    // Another API key's identical eventId is a different event.
    const other = await post(
      "/v1/sign",
      { ...req, signer: { ...signer, name: "Someone Else" } },
      { key: env.TEST_OTHER_API_KEY },
    );
    expect(other.status).toBe(200);
  });

  it("a retry while the first output is still being stored waits for it; one whose storing failed gets 409", async () => {
    // The record is written first and the output stored while the response streams: a retry in
    // between finds the record before the object. Here the object is taken away and put back later.
    const input = await corpusPdf(SIMPLE);
    const req = signRequest(input, { eventId: "evt-storing" });
    const first = (await (await post("/v1/sign", req)).json()) as any;
    const { replay_key: key, key_id: keyId } = (await env.DB.prepare(
      "SELECT replay_key, key_id FROM signing_events WHERE event_id = ?",
    )
      .bind("evt-storing")
      .first<any>())!;
    await expect.poll(async () => (await env.REPLAYS.head(key)) !== null, { timeout: 5_000 }).toBe(true);
    const stored = new Uint8Array(await (await env.REPLAYS.get(key))!.arrayBuffer());
    await env.REPLAYS.delete(key);
    const retry = post("/v1/sign", req);
    await new Promise((r) => setTimeout(r, 300));
    await env.REPLAYS.put(key, stored);
    const again = (await (await retry).json()) as any;
    expect(again.document.base64).toBe(first.document.base64);

    // Storing failed: the record stops naming the object (forgetReplay), and the waiting retry ends.
    await env.REPLAYS.delete(key);
    const failed = post("/v1/sign", req);
    await new Promise((r) => setTimeout(r, 300));
    await new SigningEventStore(env.DB, env.REPLAYS).forgetReplay(keyId, "evt-storing", key);
    const res = await failed;
    expect(res.status).toBe(409);
    expect((await problem(res)).detail).toMatch(/no longer kept/);
  });

  it("records every signing event in D1", async () => {
    const input = await corpusPdf(SIMPLE);
    const body = (await (await post("/v1/sign", signRequest(input, { eventId: "evt-recorded" }))).json()) as any;
    const row = await env.DB.prepare("SELECT * FROM signing_events WHERE event_id = ?")
      .bind("evt-recorded")
      .first<any>();
    expect(row).toMatchObject({ signer_email: signer.email, output_sha256: body.sha256 });
    expect(row.input_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("keeps no replay when recording the event in D1 fails, attempt after attempt (the record is written first; a real D1 failure: a trigger that aborts the insert)", async () => {
    const eventId = "evt-d1-insert-fails";
    const prefix = `/${toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(eventId))))}/`;
    const replays = async () =>
      (await env.REPLAYS.list({ prefix: "replays/" })).objects.filter((o) => o.key.includes(prefix));
    await env.DB.exec(
      "CREATE TRIGGER fail_signing_event_insert BEFORE INSERT ON signing_events BEGIN SELECT RAISE(ABORT, 'injected failure'); END;",
    );
    try {
      const input = await corpusPdf(SIMPLE);
      for (let attempt = 0; attempt < 2; attempt++) {
        const res = await post("/v1/sign", signRequest(input, { eventId }));
        expect(res.status).toBe(500);
        expect((await problem(res)).code).toBe("internal_error");
        expect(await replays()).toEqual([]);
      }
    } finally {
      await env.DB.exec("DROP TRIGGER fail_signing_event_insert;");
    }
    // With D1 back, the same event signs, and its replay is kept (stored while the response streams).
    const res = await post("/v1/sign", signRequest(await corpusPdf(SIMPLE), { eventId }));
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    await expect.poll(async () => (await replays()).length, { timeout: 5_000 }).toBe(1);
  });

  it("fetches the document from a URL", async () => {
    const res = await post("/v1/sign", {
      document: { url: `${env.FIXTURE_BASE_URL}/pdf/${SIMPLE}` },
      signer,
      auditTrail,
    });
    expect(res.status).toBe(200);
  });
});

describe("POST /v1/sign refuses bad requests with problem details", () => {
  it("401 for every kind of bad key, identically", async () => {
    const bodies = [];
    for (const headers of [
      {} as Record<string, string>,
      { Authorization: "Basic abc" },
      { Authorization: "Bearer nope" },
      { Authorization: `Bearer sgn_${"x".repeat(43)}` },
    ]) {
      const res = await post("/v1/sign", {}, { key: null, headers });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      const p = await problem(res);
      bodies.push({ ...p, requestId: undefined });
    }
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
  });

  it("415 for a non-JSON content type, 400 for malformed JSON", async () => {
    const res = await post("/v1/sign", "x", { headers: { "Content-Type": "text/plain" } });
    expect(res.status).toBe(415);
    expect((await problem(res)).code).toBe("unsupported_media_type");
    const bad = await post("/v1/sign", "{not json");
    expect(bad.status).toBe(400);
    expect((await problem(bad)).code).toBe("invalid_json");
  });

  it("413 before parsing a body above MAX_BODY_BYTES", async () => {
    const res = await post("/v1/sign", "{}", { headers: { "Content-Length": String(500 * 1024 * 1024) } });
    expect(res.status).toBe(413);
    expect((await problem(res)).code).toBe("payload_too_large");
  });

  it("400 with the field path for schema violations", async () => {
    const input = await corpusPdf(SIMPLE);
    const cases: [unknown, string][] = [
      [{ ...signRequest(input), signer: { ...signer, email: "not-an-email" } }, "signer.email"],
      [{ ...signRequest(input), signer: { ...signer, role: "boss" } }, "signer"],
      [{ ...signRequest(input), auditTrail: [] }, "auditTrail"],
      [{ ...signRequest(input), auditTrail: [{ type: "submit", timestamp: "yesterday" }] }, "auditTrail.0.timestamp"],
      [{ ...signRequest(input), document: { base64: "AAAA", url: "https://example.com/a.pdf" } }, "document"],
      [{ ...signRequest(input), document: {} }, "document"],
    ];
    for (const [body, path] of cases) {
      const res = await post("/v1/sign", body);
      expect(res.status, path).toBe(400);
      const p = await problem(res);
      expect(p.code).toBe("invalid_request");
      expect(p.message).toBe(p.detail);
      expect(p.errors?.[0]?.path).toBe(path);
    }
  });

  it("422 audit_trail_missing_submit without a submit event", async () => {
    const res = await post(
      "/v1/sign",
      signRequest(await corpusPdf(SIMPLE), { auditTrail: [{ type: "ready", timestamp: "2026-11-21T10:00:00Z" }] }),
    );
    expect(res.status).toBe(422);
    expect((await problem(res)).code).toBe("audit_trail_missing_submit");
  });

  it("400 invalid_base64 for bad base64, 415 for a PNG, 422 for broken and encrypted PDFs", async () => {
    const bad = await post("/v1/sign", { document: { base64: "%%%not base64%%%" }, signer, auditTrail });
    expect(bad.status).toBe(400);
    expect((await problem(bad)).code).toBe("invalid_base64");

    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const pngRes = await post("/v1/sign", { document: { base64: b64(png) }, signer, auditTrail });
    expect(pngRes.status).toBe(415);
    expect((await problem(pngRes)).code).toBe("unsupported_document_type");

    const truncated = (await corpusPdf(SIMPLE)).subarray(0, 300);
    const tr = await post("/v1/sign", signRequest(truncated));
    expect(tr.status).toBe(422);
    expect((await problem(tr)).code).toBe("pdf_unparseable");

    const enc = await post("/v1/sign", signRequest(await corpusPdf("qpdf__enc-R3_V2_O_master.pdf")));
    expect(enc.status).toBe(422);
    expect((await problem(enc)).code).toBe("pdf_encrypted");

    const cyclic = await post("/v1/sign", signRequest(await corpusPdf("pyhanko__circular-page-tree.pdf")));
    expect(cyclic.status).toBe(422);
    expect((await problem(cyclic)).code).toBe("pdf_unparseable");
  });

  it("422 url_forbidden for private addresses when private URLs are not allowed", async () => {
    // The test worker allows private URLs (for the fixture server); userinfo and schemes are refused regardless.
    for (const url of ["https://user:pw@example.com/a.pdf", "ftp://example.com/a.pdf", "file:///etc/passwd"]) {
      const res = await post("/v1/sign", { document: { url }, signer, auditTrail });
      expect(res.status, url).toBe(422);
      expect((await problem(res)).code).toBe("url_forbidden");
    }
  });

  it("404 problem for unknown routes", async () => {
    const res = await post("/v1/nothing", {});
    expect(res.status).toBe(404);
    expect((await problem(res)).code).toBe("not_found");
  });
});

describe("large values in the request body", () => {
  const BIG = "mkl-itext5__extract__certified-school-list-9-16-2015.pdf"; // 1.3 MB: decoded while streaming

  function embeddedAudit(out: Uint8Array): any {
    const reader = PdfReader.open(out);
    const names = reader.resolve(reader.catalog().get("Names")) as any;
    const tree = reader.resolve(names.get("EmbeddedFiles")) as any;
    const list = reader.resolve(tree.get("Names")) as any[];
    const spec = reader.resolve(list[1]) as any;
    const file = reader.resolve((reader.resolve(spec.get("EF")) as any).get("F")) as any;
    return JSON.parse(new TextDecoder().decode(reader.decodeStream(file)));
  }

  it("signs a document sent as a large data URI, and keeps a large data URI elsewhere exactly", async () => {
    const input = await corpusPdf(BIG);
    expect(input.length).toBeGreaterThan(1024 * 1024);
    const drawn = `data:image/png;base64,${b64(new Uint8Array(1200 * 1024).map((_, i) => (i * 7) & 0xff))}`;
    const res = await post("/v1/sign", {
      document: { base64: `data:application/pdf;base64,${b64(input)}` },
      signer,
      auditTrail: [
        ...auditTrail,
        { type: "field_change", timestamp: "2026-11-21T10:00:01Z", data: { fieldId: "sig", value: drawn } },
      ],
    });
    expect(res.status).toBe(200);
    const out = fromDataUri(((await res.json()) as any).document.base64);
    expect(out.subarray(0, input.length)).toEqual(input);
    const audit = embeddedAudit(out);
    expect(audit.auditTrail.at(-1).data.value).toBe(drawn);
  });

  it("still validates a large string where no document is expected", async () => {
    const res = await post("/v1/sign", {
      ...signRequest(await corpusPdf(SIMPLE)),
      signer: { ...signer, userAgent: "x".repeat(1100 * 1024) },
    });
    expect(res.status).toBe(400);
    expect((await problem(res)).code).toBe("invalid_request");
  });
});

describe("inputs whose cross-reference data is damaged", () => {
  it("points /Prev at the section the reader found, not at a wrong startxref", async () => {
    // The file's startxref points where there is no xref; readers repair it.
    const input = await corpusPdf("pdf20examples__pdf20-utf8-test.pdf");
    const written = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(latin1(input))![1]);
    expect(latin1(input.subarray(written, written + 4))).not.toBe("xref");
    const res = await post("/v1/sign", signRequest(input));
    expect(res.status).toBe(200);
    const out = fromDataUri(((await res.json()) as any).document.base64);
    const prev = Number(/\/Prev (\d+)/.exec(latin1(out.subarray(input.length)))![1]);
    expect(prev).not.toBe(written);
    // The table the reader found, not the `trailer` keyword after it (qpdf: "xref not found").
    expect(latin1(out.subarray(prev, prev + 4))).toBe("xref");
    const reader = PdfReader.open(out);
    expect(reader.recovered).toBe(false);
    expect(reader.pages().length).toBe(PdfReader.open(input).pages().length + 1);
  });
});

describe("inputs whose last revision only a rebuilding viewer sees", () => {
  it("refuses (422 pdf_unparseable) a PDF with objects appended after %%EOF and no cross-reference section for them", async () => {
    // As the PDF-Insecurity ISA samples H and I: viewers rebuild the file and show the new page
    // content; an incremental update appended to the last complete revision would hide it again.
    const input = await corpusPdf(SIMPLE);
    const contents = PdfReader.open(input).pages()[0]!.dict.get("Contents");
    const first = (Array.isArray(contents) ? contents[0] : contents) as PdfRef;
    const evil = "BT /F1 24 Tf 72 700 Td (Manipulated now Page!) Tj ET";
    const appended = new Uint8Array([
      ...input,
      ...new TextEncoder().encode(
        `\n${first.num} 0 obj\n<< /Length ${evil.length} >>\nstream\n${evil}\nendstream\nendobj\n%%EOF\n`,
      ),
    ]);
    const res = await post("/v1/sign", signRequest(appended));
    expect(res.status).toBe(422);
    const p = await problem(res);
    expect(p.code).toBe("pdf_unparseable");
    expect(p.detail).toMatch(
      /^The PDF continues after its last revision: at byte \d+ it holds objects that no cross-reference section lists/,
    );
  });
});

describe("inputs with bytes before %PDF-", () => {
  it("signs the document from %PDF- on, says so, and the signature covers the whole output", async () => {
    const input = await corpusPdf("pdf20examples__PDF_2.0_with_offset_start.pdf");
    const header = latin1(input).indexOf("%PDF-");
    const res = await post("/v1/sign", signRequest(input));
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.warnings.join(" ")).toMatch(new RegExp(`The ${header} bytes before %PDF- were left out`));
    const out = fromDataUri(body.document.base64);
    expect(out.subarray(0, input.length - header)).toEqual(input.subarray(header));
    const report = (await (await post("/v1/verify", { document: { base64: b64(out) } }, { key: null })).json()) as any;
    expect(report.valid).toBe(true);
    expect(report.signers[0]).toMatchObject({ coverage: "entire_file", modifications: "none" });
  });

  it("refuses (422 pdf_leading_bytes) to countersign such a file: its byte ranges are read differently by each validator", async () => {
    const signed = fromDataUri(
      ((await (await post("/v1/sign", signRequest(await corpusPdf(SIMPLE)))).json()) as any).document.base64,
    );
    const prefixed = new Uint8Array([...new TextEncoder().encode("@PJL JOB\r\n"), ...signed]);
    const res = await post("/v1/sign", signRequest(prefixed));
    expect(res.status).toBe(422);
    expect((await problem(res)).code).toBe("pdf_leading_bytes");
  });
});

describe("certified and locked inputs", () => {
  async function certified(opts: Omit<TestSignOptions, "signer">) {
    const author = await makeSigner("Certifying Author");
    return (await signForTest(basePdf(), { signer: author, ...opts })).bytes;
  }

  it("refuses a DocMDP P1 document with 422 document_locked", async () => {
    const res = await post("/v1/sign", signRequest(await certified({ docMdp: 1 })));
    expect(res.status).toBe(422);
    expect((await problem(res)).code).toBe("document_locked");
  });

  for (const docMdp of [2, 3] as const) {
    it(`adds the signature with its evidence, no page, to a DocMDP P${docMdp} document, and says so`, async () => {
      const input = await certified({ docMdp });
      const res = await post("/v1/sign", signRequest(input, { eventId: `evt-docmdp-${docMdp}` }));
      expect(res.status).toBe(200);
      const body = (await res.json()) as any;
      expect(body.warnings.join(" ")).toMatch(new RegExp(`DocMDP P${docMdp}`));
      const out = fromDataUri(body.document.base64);
      expect(PdfReader.open(out).pages().length).toBe(PdfReader.open(input).pages().length);
      // Our verifier: the certification still allows what we added (a signature), and the evidence is found.
      const report = (await (
        await post("/v1/verify", { document: { base64: b64(out) } }, { key: null })
      ).json()) as any;
      expect(report.signers[0].modifications).toBe("signatures");
      expect(report.signers[1]).toMatchObject({ eventId: `evt-docmdp-${docMdp}`, auditTrail });
    });
  }

  it("adds no page when a FieldMDP lock is present, and says so", async () => {
    const input = await certified({ fieldLock: { action: "All", fields: [] } });
    const body = (await (await post("/v1/sign", signRequest(input))).json()) as any;
    expect(body.warnings.join(" ")).toMatch(/already carries a signature/);
    const out = fromDataUri(body.document.base64);
    expect(PdfReader.open(out).pages().length).toBe(PdfReader.open(input).pages().length);
  });
});

describe("page trees: what sign writes, verify reads", () => {
  /** A PDF whose root /Kids names `kids` (object numbers; 3 is a page, so are 4.. up to `pages + 2`). */
  function pageTreePdf(kids: number[], pages = 1): Uint8Array {
    const pdf = new PdfAssembler();
    pdf.obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
    pdf.obj(2, `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`);
    for (let i = 0; i < pages; i++) pdf.obj(3 + i, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>");
    const nums = Array.from({ length: pages + 2 }, (_, i) => i + 1);
    const xref = pdf.table(
      [{ num: 0, type: "f", a: 0, b: 65535 }, ...pdf.rowsFor(nums)],
      `/Size ${pages + 3} /Root 1 0 R`,
    );
    pdf.startxref(xref);
    return pdf.bytes();
  }

  it("one page listed 100,000 times is malformed: sign refuses it (it answered 200 with a file our verify refused), verify counts no pages", async () => {
    const pdf = pageTreePdf(Array.from({ length: 100_000 }, () => 3));
    const res = await post("/v1/sign", signRequest(pdf));
    const prob = await problem(res);
    expect(res.status).toBe(422);
    expect(prob.code).toBe("pdf_unparseable");
    expect(prob.detail).toMatch(/lists page object 3 more than once/);
    // Verify reports on what it can read (an unreadable page tree counts 0 pages), never 100,000.
    const verified = await post("/v1/verify", { document: { base64: b64(pdf) } }, { key: null });
    expect(verified.status).toBe(200);
    const report = (await verified.json()) as { valid: boolean; document: { pages: number } };
    expect(report).toMatchObject({ valid: false, document: { pages: 0 } });
  });

  it("100,000 distinct pages: a certificate page would pass the reader's page limit, so sign refuses; without one the signed file verifies", async () => {
    const count = LIMITS.pdf.maxPages;
    const pdf = pageTreePdf(
      Array.from({ length: count }, (_, i) => 3 + i),
      count,
    );
    const withPage = await post("/v1/sign", signRequest(pdf));
    expect(withPage.status).toBe(422);
    expect((await problem(withPage)).detail).toMatch(/certificate page.*limit maxPages/);

    const res = await post("/v1/sign", signRequest(pdf, { certificate: { enabled: false } }));
    expect(res.status).toBe(200);
    const signed = fromDataUri(((await res.json()) as { document: { base64: string } }).document.base64);
    const verified = await post("/v1/verify", { document: { base64: b64(signed) } }, { key: null });
    expect(verified.status).toBe(200);
    const report = (await verified.json()) as { valid: boolean; document: { pages: number } };
    expect(report.document.pages).toBe(count);
  });
});
