import { env, SELF } from "cloudflare:test";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import * as T from "../support/docx-templates";
import { docxXmlMutation, docxZipMutation, fuzzParams, mutateDocxPart, pdfMutation } from "../support/fuzz-mutations";
import { auditTrail, b64, BASE, corpusPdf, fromDataUri, post, signer, signRequest } from "./helpers";

/**
 * The HTTP edge under random and hostile requests, through the whole worker (SELF.fetch):
 * bodies shaped like our schemas with junk at every level, damaged corpus documents, malformed
 * JSON and odd headers. Whatever comes in: never a 5xx; every error is problem+json with a code
 * from interface.md's table, its `status` matching the response, and no stack trace or source
 * path in it; and the isolate still answers /healthz afterwards. Seeds are fixed (FUZZ_SEED /
 * FUZZ_RUNS override them: `npm run fuzz`).
 */

// interface.md's error table, plus the documented "not yet" codes of the unfinished DOCX renderer.
const KNOWN_CODES = new Set([
  "invalid_json",
  "invalid_request",
  "invalid_base64",
  "invalid_query",
  "unauthorized",
  "not_found",
  "method_not_allowed",
  "event_id_conflict",
  "payload_too_large",
  "document_too_large",
  "remote_too_large",
  "zip_limit",
  "unsupported_media_type",
  "unsupported_document_type",
  "audit_trail_missing_submit",
  "pdf_unparseable",
  "pdf_too_complex",
  "pdf_encrypted",
  "document_locked",
  "docx_invalid",
  "xml_doctype_forbidden",
  "image_invalid",
  "image_too_large",
  "url_forbidden",
  "field_not_found",
  "rate_limited",
  "fetch_failed",
  "tsa_failed",
  "fetch_timeout",
  "pdf_leading_bytes",
  "signature_field_not_found",
  "signature_field_signed",
  "signature_field_locked",
  "signature_field_unsupported",
  "seed_value_unsatisfied",
  "appearance_invalid",
  "appearance_not_allowed",
  "signer_failed",
]);
// What a leaked stack trace or internal path looks like.
const INTERNALS = /\n\s+at\s|\bat [\w$.<>]+ \(|\.(ts|js|mjs):\d+|node_modules|file:\/\//;

const fuzzEnv = { FUZZ_RUNS: env.FUZZ_RUNS as string | undefined, FUZZ_SEED: env.FUZZ_SEED as string | undefined };

let samplePdf: Uint8Array;
let signedPdf: Uint8Array;
let docxTemplates: Uint8Array[];
const contract = T.sampleContract();

beforeAll(async () => {
  samplePdf = await corpusPdf("pdf20examples__Simple_PDF_2.0_file.pdf");
  const res = await post("/v1/sign", signRequest(samplePdf));
  expect(res.status).toBe(200);
  signedPdf = fromDataUri(((await res.json()) as { document: { base64: string } }).document.base64);
  const corpusDocx = await Promise.all(
    ["openxmlsdk__SdtRun__sdtRun.docx", "easytemplatex__content_controls.docx", "poi__Bug54849.docx"].map(
      async (name) => {
        const r = await fetch(`${env.FIXTURE_BASE_URL}/docx/${encodeURIComponent(name)}`);
        expect(r.status).toBe(200);
        return new Uint8Array(await r.arrayBuffer());
      },
    ),
  );
  docxTemplates = [contract.template(), ...corpusDocx];
});

/** Status codes (and error codes) seen per endpoint: the fuzz must reach the engines, not only the schema. */
const seen = new Map<string, Map<string, number>>();
function tally(what: string, key: string) {
  const m = seen.get(what) ?? new Map<string, number>();
  m.set(key, (m.get(key) ?? 0) + 1);
  seen.set(what, m);
}
const seenKeys = (what: string) => [...(seen.get(what)?.keys() ?? [])];

/** Checks one response against the edge's promises; returns the parsed body. */
async function expectWellBehaved(res: Response, what: string): Promise<unknown> {
  const text = await res.text();
  tally(what, String(res.status));
  // 502/504 are the documented answers when a URL the caller gave cannot be fetched; nothing else may be 5xx.
  const upstream =
    (res.status === 502 || res.status === 504) && /"code":"(fetch_failed|fetch_timeout|tsa_failed)"/.test(text);
  if (!upstream) expect(res.status, `${what} answered ${res.status}: ${text.slice(0, 500)}`).toBeLessThan(500);
  expect(text, `${what}: internals in the body`).not.toMatch(INTERNALS);
  if (res.status >= 400) {
    expect(res.headers.get("content-type"), what).toMatch(/^application\/problem\+json/);
    const body = JSON.parse(text) as { code: string; status: number; detail: string };
    expect(KNOWN_CODES.has(body.code), `${what}: unknown code ${body.code}`).toBe(true);
    expect(body.status).toBe(res.status);
    expect(typeof body.detail).toBe("string");
    tally(what, body.code);
    return body;
  }
  return JSON.parse(text);
}

// ---- arbitraries shaped like the schemas, with junk mixed in at every level ----

const junk = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: "binary", maxLength: 50 }),
  fc.constantFrom(null, "", 0, -1, 1e308, true, [], {}, "\u0000", "\uD800", "__proto__", "constructor"),
);
const orJunk = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | unknown> => fc.oneof({ weight: 4, arbitrary: arb }, junk);

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom("Ada Lovelace", "Ægir Þórsson", "محمد", "李小龙", "\u202Egnp.exe"),
);
const timestamp = fc.oneof(
  fc
    .date({ min: new Date("1900-01-01"), max: new Date("2200-01-01"), noInvalidDate: true })
    .map((d) => d.toISOString()),
  fc.constantFrom("2026-11-21T10:00:00+01:00", "2026-02-30T10:00:00Z", "not a date", "", "9999-12-31T23:59:59Z"),
);
const auditEntry = fc.record(
  {
    type: fc.oneof(fc.constantFrom("ready", "submit", "scroll", "field_change"), fc.string({ maxLength: 20 })),
    timestamp,
    data: fc.jsonValue({ maxDepth: 3 }),
    extra: junk,
  },
  { requiredKeys: ["timestamp"] },
);

/** A document value: real, damaged, wrongly typed, or an address the service must handle. */
function documentArb(kind: "pdf" | "signed" | "docx"): fc.Arbitrary<unknown> {
  const real = fc
    .nat()
    .map((i) =>
      kind === "docx" ? docxTemplates[i % docxTemplates.length]! : kind === "signed" ? signedPdf : samplePdf,
    );
  const damaged =
    kind === "docx"
      ? fc.oneof(
          fc.tuple(fc.nat(), docxZipMutation).map(([i, m]) => m.apply(docxTemplates[i % docxTemplates.length]!)),
          fc
            .tuple(fc.nat(), docxXmlMutation)
            .map(([i, m]) => mutateDocxPart(docxTemplates[i % docxTemplates.length]!, "word/document.xml", m)),
        )
      : fc.tuple(fc.boolean(), pdfMutation).map(([signed, m]) => m.apply(signed ? signedPdf : samplePdf));
  const bytes = fc.oneof(real, damaged, fc.uint8Array({ maxLength: 2000 }));
  const fixture = (path: string) => `${env.FIXTURE_BASE_URL}${path}`;
  return fc.oneof(
    { weight: 5, arbitrary: bytes.map((b) => ({ base64: b64(b) })) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(bytes, fc.constantFrom("application/pdf", "image/png", "text/plain", "", "application/pdf;charset=x"))
        .map(([b, t]) => ({ base64: `data:${t};base64,${b64(b)}` })),
    },
    fc.record({
      base64: fc.oneof(
        fc.base64String({ maxLength: 200 }),
        fc.string({ maxLength: 200 }),
        fc.constantFrom("data:,", "data:;base64,", "====", "JVBERi0"),
      ),
    }),
    fc.constantFrom(
      { url: fixture("/small.pdf") },
      { url: fixture("/png") },
      { url: fixture("/text") },
      { url: fixture("/status/500") },
      { url: fixture("/redirect/5") },
      { url: fixture("/big?bytes=70000") },
      { url: "http://127.0.0.1:1/x.pdf" },
      { url: "ftp://example.com/x.pdf" },
      { url: "https://user:pw@example.com/x.pdf" },
      { url: "javascript:alert(1)" },
      { url: "not a url" },
      { url: "" },
    ),
    fc.constantFrom({}, { base64: "JVBERi0=", url: "https://example.com/a.pdf" }, null, [], "JVBERi0="),
  );
}

const junkySignBody = fc.record(
  {
    document: documentArb("pdf").chain((d) => fc.oneof(fc.constant(d), documentArb("signed"))),
    signer: orJunk(
      fc.record(
        {
          name: text,
          email: fc.oneof(fc.emailAddress(), text),
          ip: fc.oneof(fc.ipV4(), fc.ipV6(), text),
          userAgent: text,
          extra: junk,
        },
        { requiredKeys: [] },
      ),
    ),
    auditTrail: orJunk(fc.oneof(fc.constant(auditTrail), fc.array(auditEntry, { maxLength: 8 }))),
    eventId: orJunk(fc.string({ minLength: 1, maxLength: 40 })),
    metadata: orJunk(fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 })),
    certificate: orJunk(fc.record({ enabled: fc.boolean(), enable: fc.boolean(), extra: junk }, { requiredKeys: [] })),
    extra: junk,
  },
  { requiredKeys: [] },
);

/** signature options: a field, a reason, an appearance anywhere (on or off the page), with a real or broken image. */
const signatureOptions = fc.record(
  {
    field: fc.constantFrom("Signature1", "Signature", "Nobody"),
    reason: fc.constantFrom("I approve", "Ünïcødé reason ✓"),
    appearance: fc.oneof(
      fc.constant({}),
      fc.record(
        {
          page: fc.integer({ min: 1, max: 3 }),
          x: fc.double({ min: 0, max: 800, noNaN: true }),
          y: fc.double({ min: 0, max: 900, noNaN: true }),
          width: fc.double({ min: 8, max: 600, noNaN: true }),
          height: fc.double({ min: 8, max: 300, noNaN: true }),
          image: fc.constantFrom(
            contract.png ? `data:image/png;base64,${b64(contract.png)}` : "AAAA",
            "data:image/png;base64,AAAA",
            "data:image/gif;base64,R0lGODlh",
          ),
        },
        { requiredKeys: ["page", "x", "y", "width", "height"] },
      ),
    ),
  },
  { requiredKeys: [] },
);

const wellFormedSignBody = fc.record(
  {
    document: fc.oneof(documentArb("pdf"), documentArb("signed")),
    signer: fc.record(
      {
        name: fc.constantFrom("Ada Lovelace", "Ægir Þórsson", "محمد", "李小龙"),
        email: fc.constantFrom("ada@example.com", "o.brien+tag@sub.example.co.uk", "x@xn--bcher-kva.example"),
        ip: fc.oneof(fc.ipV4(), fc.ipV6()),
      },
      { requiredKeys: ["name", "email"] },
    ),
    auditTrail: fc.oneof(
      { weight: 3, arbitrary: fc.constant(auditTrail) },
      fc.array(
        auditEntry.map((e) => ({ ...e, timestamp: "2026-11-21T10:00:00Z" })),
        { minLength: 1, maxLength: 8 },
      ),
    ),
    eventId: fc.uuid(),
    metadata: fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }),
    certificate: fc.record({ enabled: fc.boolean() }),
    signature: signatureOptions,
  },
  { requiredKeys: ["document", "signer", "auditTrail"] },
);
const signBody = fc.oneof({ weight: 3, arbitrary: wellFormedSignBody }, junkySignBody);

const selectors = ["client_name", "accept", "signature", "missing", "1", "logo", "items"];
const junkyFieldArb = fc.record(
  {
    id: orJunk(fc.oneof(fc.constantFrom(...selectors), fc.string({ maxLength: 10 }), fc.integer())),
    group: orJunk(fc.oneof(fc.constantFrom("signature", "nobody"), fc.string({ maxLength: 10 }))),
    type: orJunk(fc.constantFrom("text", "date", "number", "checkbox", "image", "signature", "table")),
    value: fc.oneof(
      junk,
      fc.constantFrom(
        contract.png ? `data:image/png;base64,${b64(contract.png)}` : "",
        "data:image/png;base64,AAAA",
        "data:image/gif;base64,R0lGODlh",
        `${"x".repeat(10)}`,
        "2026-11-22",
        "1234.5",
      ),
      fc.array(fc.array(fc.oneof(text, junk), { maxLength: 4 }), { maxLength: 4 }),
    ),
    options: orJunk(
      fc.record(
        {
          dimensions: orJunk(
            fc.record(
              { width: orJunk(fc.integer({ min: -10, max: 100_000 })), height: orJunk(fc.double()) },
              { requiredKeys: [] },
            ),
          ),
          format: orJunk(fc.string({ maxLength: 30 })),
          decimals: orJunk(fc.integer({ min: -5, max: 100 })),
          bottomLabel: orJunk(fc.record({ text: orJunk(text) }, { requiredKeys: [] })),
        },
        { requiredKeys: [] },
      ),
    ),
  },
  { requiredKeys: ["type"] },
);
const pngUri = `data:image/png;base64,${b64(contract.png)}`;
const wellFormedField = fc.oneof(
  fc.record({
    id: fc.constantFrom(...selectors),
    type: fc.constant("text"),
    value: fc.oneof(text, fc.constant(null), fc.integer()),
  }),
  fc.record({ id: fc.constantFrom(...selectors), type: fc.constant("checkbox"), value: fc.boolean() }),
  fc.record({
    id: fc.constantFrom(...selectors),
    type: fc.constant("date"),
    value: timestamp,
    options: fc.record({ format: fc.constantFrom("MMMM dd, yyyy", "d/M/yy", "'quoted' yyyy", "") }),
  }),
  fc.record({
    id: fc.constantFrom(...selectors),
    type: fc.constant("number"),
    value: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom("12.5", "1e3")),
  }),
  fc.record({
    group: fc.constantFrom("signature", "nobody"),
    type: fc.constant("signature"),
    value: fc.oneof(text, fc.constant(pngUri)),
    options: fc.record({ bottomLabel: fc.record({ text }) }),
  }),
  fc.record({
    id: fc.constantFrom(...selectors),
    type: fc.constant("image"),
    value: fc.constantFrom(pngUri, "data:image/png;base64,AAAA", "data:image/jpeg;base64," + b64(contract.png)),
    options: fc.record({ dimensions: fc.record({ width: fc.integer({ min: 1, max: 5000 }) }) }),
  }),
  fc.record({
    id: fc.constantFrom(...selectors),
    type: fc.constant("table"),
    value: fc.array(fc.array(text, { maxLength: 4 }), { maxLength: 6 }),
  }),
);
const annotateBody = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ document: documentArb("docx"), fields: fc.array(wellFormedField, { maxLength: 8 }) }),
  },
  fc.record(
    { document: documentArb("docx"), fields: orJunk(fc.array(junkyFieldArb, { maxLength: 8 })), extra: junk },
    { requiredKeys: [] },
  ),
);
const annotateQuery = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("", "?to=docx", "?strict=true", "?to=pdf") },
  fc.constantFrom("?to=xlsx", "?strict=maybe&to=docx", "?to=docx&to=pdf", "?to=PDF"),
);

const verifyBody = fc.oneof(
  { weight: 3, arbitrary: fc.record({ document: fc.oneof(documentArb("signed"), documentArb("pdf")) }) },
  fc.record({ document: documentArb("signed"), extra: junk }, { requiredKeys: [] }),
);

/** Whole bodies that are not what any schema expects. */
const rawBody = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.integer({ min: 1, max: 100_000 }).map((n) => "[".repeat(n)),
  fc.integer({ min: 1, max: 100_000 }).map((n) => '{"a":'.repeat(n)),
  fc.constantFrom(
    '{"document":{"base64":"',
    '{"document":',
    "\u0000",
    "\uFEFF{}",
    '{"__proto__":{"x":1},"document":{}}',
    '{"document":{"base64":"JVBERi0"}}}}',
  ),
);

function send(path: string, body: string, headers: Record<string, string> = {}) {
  return SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${env.TEST_API_KEY}`, ...headers },
    body,
  });
}

describe("fuzz: the HTTP edge never answers 5xx and always speaks problem+json", () => {
  it("POST /v1/sign with schema-shaped junk and damaged PDFs", async () => {
    await fc.assert(
      fc.asyncProperty(signBody, async (body) => {
        await expectWellBehaved(await send("/v1/sign", JSON.stringify(body)), "sign");
      }),
      fuzzParams(100, fuzzEnv),
    );
    // Some requests got through to a signature, others were refused by the engines.
    expect(seenKeys("sign")).toEqual(expect.arrayContaining(["200", "400", "422"]));
  });

  it("POST /v1/verify with damaged signed PDFs and junk", async () => {
    await fc.assert(
      fc.asyncProperty(verifyBody, async (body) => {
        const answer = (await expectWellBehaved(await send("/v1/verify", JSON.stringify(body)), "verify")) as {
          valid?: unknown;
        };
        // A 200 is a verification report, whatever the document.
        if (answer && typeof answer === "object" && !("code" in answer)) expect(typeof answer.valid).toBe("boolean");
      }),
      fuzzParams(150, fuzzEnv),
    );
    expect(seenKeys("verify")).toEqual(expect.arrayContaining(["200", "400", "pdf_unparseable"]));
  });

  it("POST /v1/annotate with damaged templates and junk fields", async () => {
    await fc.assert(
      fc.asyncProperty(annotateBody, annotateQuery, async (body, query) => {
        await expectWellBehaved(await send(`/v1/annotate${query}`, JSON.stringify(body)), "annotate");
      }),
      fuzzParams(150, fuzzEnv),
    );
    expect(seenKeys("annotate")).toEqual(expect.arrayContaining(["200", "400", "422"]));
  });

  it("raw bodies, content types and keys", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("/v1/sign", "/v1/verify", "/v1/annotate", "/v1/annotate?to=docx"),
        rawBody,
        fc.oneof(
          { weight: 4, arbitrary: fc.constant("application/json") },
          fc.constantFrom(
            "application/json; charset=utf-8",
            "text/plain",
            "",
            "application/json, text/plain",
            "multipart/form-data; boundary=x",
          ),
        ),
        fc.oneof(
          { weight: 4, arbitrary: fc.constant(`Bearer ${env.TEST_API_KEY}`) },
          fc.constantFrom(
            "Bearer sgn_" + "A".repeat(43),
            "Bearer",
            "Basic Zm9vOmJhcg==",
            "",
            "Bearer " + "x".repeat(5000),
          ),
        ),
        async (path, body, contentType, authorization) => {
          await expectWellBehaved(
            await send(path, body, { "Content-Type": contentType, Authorization: authorization }),
            `${path} raw`,
          );
        },
      ),
      fuzzParams(100, fuzzEnv),
    );
  });

  it("the isolate still answers afterwards, and still signs", async () => {
    console.log(JSON.stringify(Object.fromEntries([...seen].map(([k, m]) => [k, Object.fromEntries(m)]))));
    expect((await SELF.fetch(`${BASE}/healthz`)).status).toBe(200);
    const res = await post("/v1/sign", { document: { base64: b64(samplePdf) }, signer, auditTrail });
    expect(res.status).toBe(200);
  });
});
