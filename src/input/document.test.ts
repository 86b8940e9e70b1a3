import { env } from "cloudflare:test";
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { InvalidRequest, LimitExceeded, SignetError, UnsupportedDocumentType, UrlForbidden } from "../errors";
import { encodeBase64 } from "./base64";
import { loadDocument, requireDocumentType, type LoadContext } from "./document";
import { UrlBudget } from "./safe-fetch";

const BASE = env.FIXTURE_BASE_URL;

function ctx(overrides: Partial<LoadContext> = {}): LoadContext {
  return { maxDocumentBytes: 1_000_000, allowPrivateUrls: true, urlBudget: new UrlBudget(), ...overrides };
}

async function failure(p: Promise<unknown>): Promise<SignetError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(SignetError);
    return e as SignetError;
  }
  throw new Error("expected a failure");
}

const PDF = strToU8("%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n");
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const DOCX = zipSync({
  "[Content_Types].xml": strToU8(
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  ),
  "_rels/.rels": strToU8(
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  ),
  "word/document.xml": strToU8("<w:document/>"),
});

describe("loadDocument", () => {
  it("decodes base64 and data: URIs and sniffs the bytes (never the declared type)", async () => {
    const pdf = await loadDocument({ base64: encodeBase64(PDF) }, ctx());
    expect(pdf).toEqual({ bytes: PDF, type: "pdf" });
    const docx = await loadDocument({ base64: `data:application/pdf;base64,${encodeBase64(DOCX)}` }, ctx());
    expect(docx.type).toBe("docx");
    const png = await loadDocument({ base64: `data:application/pdf;base64,${encodeBase64(PNG)}` }, ctx());
    expect(png.type).toBe("png");
  });

  it("applies the document cap to base64 (document_too_large) and URLs (remote_too_large)", async () => {
    const e = await failure(
      loadDocument({ base64: encodeBase64(new Uint8Array(1001)) }, ctx({ maxDocumentBytes: 1000 })),
    );
    expect(e).toBeInstanceOf(LimitExceeded);
    expect(e.code).toBe("document_too_large");
    const e2 = await failure(loadDocument({ url: `${BASE}/big?bytes=1001` }, ctx({ maxDocumentBytes: 1000 })));
    expect(e2.code).toBe("remote_too_large");
  });

  it("refuses both or neither of base64 and url", async () => {
    for (const input of [{}, { base64: encodeBase64(PDF), url: `${BASE}/small.pdf` }]) {
      const e = await failure(loadDocument(input, ctx()));
      expect(e).toBeInstanceOf(InvalidRequest);
      expect(e.code).toBe("invalid_request");
    }
  });

  it("reports bad base64 as invalid_base64", async () => {
    const e = await failure(loadDocument({ base64: "not base64!" }, ctx()));
    expect(e.code).toBe("invalid_base64");
  });

  it("fetches URLs (real corpus PDF via the fixture server) and counts them", async () => {
    const budget = new UrlBudget();
    const doc = await loadDocument(
      { url: `${BASE}/pdf/poppler-test__fonts.pdf` },
      ctx({ urlBudget: budget, maxDocumentBytes: 25 * 1024 * 1024 }),
    );
    expect(doc.type).toBe("pdf");
    const docx = await loadDocument(
      { url: `${BASE}/docx/pythondocx__having-images.docx` },
      ctx({ urlBudget: budget, maxDocumentBytes: 25 * 1024 * 1024 }),
    );
    expect(docx.type).toBe("docx");
    expect(budget.count).toBe(2);
  });

  it("stops at the URL budget before fetching", async () => {
    const budget = new UrlBudget(1);
    budget.take();
    let fetched = false;
    const spy = (async () => {
      fetched = true;
      return new Response("x");
    }) as unknown as typeof fetch;
    const e = await failure(loadDocument({ url: `${BASE}/small.pdf` }, ctx({ urlBudget: budget, fetch: spy })));
    expect(e.code).toBe("invalid_request");
    expect(e.message).toBe("at most 1 URLs per request");
    expect(fetched).toBe(false);
  });

  it("applies the URL rules when private URLs are not allowed", async () => {
    const e = await failure(loadDocument({ url: `${BASE}/small.pdf` }, ctx({ allowPrivateUrls: false })));
    expect(e).toBeInstanceOf(UrlForbidden);
    const e2 = await failure(
      loadDocument(
        { url: "https://signet.example.com/v1/verify" },
        ctx({ allowPrivateUrls: false, selfHost: "signet.example.com" }),
      ),
    );
    expect(e2.code).toBe("url_forbidden");
  });

  it("passes the timeout through", async () => {
    const e = await failure(loadDocument({ url: `${BASE}/hang` }, ctx({ timeoutMs: 200 })));
    expect(e.code).toBe("fetch_timeout");
  });
});

describe("requireDocumentType", () => {
  it("narrows allowed types", () => {
    const doc = requireDocumentType({ bytes: PDF, type: "pdf" }, ["pdf", "docx"], "sign");
    const t: "pdf" | "docx" = doc.type;
    expect(t).toBe("pdf");
  });

  const cases: [
    Uint8Array,
    "pdf" | "docx" | "png" | "jpeg" | "gif" | "zip" | "unknown",
    ("pdf" | "docx")[],
    string,
    string,
  ][] = [
    [PNG, "png", ["pdf", "docx"], "sign", "Expected a PDF or DOCX document for sign; the bytes look like a PNG image."],
    [PDF, "pdf", ["docx"], "annotate", "Expected a DOCX document for annotate; the bytes look like a PDF document."],
    [DOCX, "docx", ["pdf"], "verify", "Expected a PDF document for verify; the bytes look like a DOCX document."],
    [
      new Uint8Array([1]),
      "zip",
      ["pdf"],
      "verify",
      "Expected a PDF document for verify; the bytes look like a ZIP archive that is not a Word document.",
    ],
    [
      new Uint8Array([0xff, 0xd8, 0xff]),
      "jpeg",
      ["pdf", "docx"],
      "sign",
      "Expected a PDF or DOCX document for sign; the bytes look like a JPEG image.",
    ],
    [
      strToU8("hello"),
      "unknown",
      ["pdf", "docx"],
      "sign",
      "Expected a PDF or DOCX document for sign; the bytes are none of the supported formats.",
    ],
    [new Uint8Array(0), "unknown", ["pdf"], "verify", "Expected a PDF document for verify; the document is empty."],
  ];
  for (const [bytes, type, allowed, op, message] of cases) {
    it(`refuses ${type} for ${op} with 415 unsupported_document_type`, () => {
      let thrown: unknown;
      try {
        requireDocumentType({ bytes, type }, allowed, op);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(UnsupportedDocumentType);
      expect((thrown as UnsupportedDocumentType).code).toBe("unsupported_document_type");
      expect((thrown as Error).message).toBe(message);
    });
  }
});
