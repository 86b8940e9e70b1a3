import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { buildCadesDetachedSignature } from "../../src/cms/cades";
import { buildCertificatePages } from "../../src/evidence/certificate-page";
import { pemBody, testIdentity, type TestIdentity } from "../support/signing-identities";
import { SignetError } from "../../src/errors";
import { concatBytes } from "../../src/util/bytes";
import { DocxTemplate } from "../../src/docx/template";
import { readImageInfo } from "../../src/docx/images";
import { sniffDocumentType } from "../../src/input/sniff";
import { PdfReader } from "../../src/pdf/reader";
import { inspectForSigning } from "../../src/pdf/sign/inspect";
import { signPdf } from "../../src/pdf/sign/sign-pdf";
import { verifyPdf } from "../../src/pdf/verify/verify-pdf";
import { renderDocxToPdf } from "../../src/render";
import { nodeFontSource } from "../../scripts/lib/node-font-source";
import { certificateFontsFromFiles } from "./support/certificate-fonts";
import {
  docxXmlMutation,
  docxZipMutation,
  fuzzParams,
  fuzzTimeout,
  mutateDocxPart,
  pdfMutation,
  type Mutation,
} from "../support/fuzz-mutations";

/**
 * Mutation fuzzing of the engines with real corpus files (../shared/corpus, read in place):
 * damaged PDFs through the reader, the verifier and the signer; damaged DOCX templates (ZIP
 * level and XML level) through annotate. The only acceptable failure is a SignetError (which
 * the HTTP edge turns into a 4xx); anything else would be a 500. What Signet does produce must
 * stay usable: a signed output re-opens and its new signature is intact, a filled DOCX re-opens.
 * Seeds are fixed (FUZZ_SEED / FUZZ_RUNS override them: `npm run fuzz`).
 */

const CORPUS = fileURLToPath(new URL("../../../shared/corpus", import.meta.url));
// Larger files cost time per case without reaching new code; the biggest ones have their own tests.
const MAX_FILE_BYTES = 200 * 1024;

interface CorpusFile {
  name: string;
  bytes: Uint8Array;
}

function corpusFiles(dir: string, ext: string): CorpusFile[] {
  const full = join(CORPUS, dir);
  return readdirSync(full)
    .filter((f) => f.endsWith(ext) && statSync(join(full, f)).size <= MAX_FILE_BYTES)
    .sort()
    .map((name) => {
      const file = { name: `${dir}/${name}`, bytes: new Uint8Array(readFileSync(join(full, name))) };
      // Counterexamples print the file's name, not its bytes.
      return Object.assign(file, { [fc.toStringMethod]: () => JSON.stringify(file.name) });
    });
}

const PDFS = [...corpusFiles("pdf-plain", ".pdf"), ...corpusFiles("pdf-signed", ".pdf")];
const DOCXS = corpusFiles("docx", ".docx");
// A real certificate page, appended to every document without signatures.
const APPENDED = await buildCertificatePages(
  {
    signer: { name: "Fuzz", email: "fuzz@example.com" },
    eventId: "fuzz",
    signedAt: new Date(Date.UTC(2026, 10, 21, 10, 0, 0)),
    documentSha256: "0".repeat(64),
    certificate: { subject: "CN=Fuzz", issuer: "CN=Fuzz CA", sha256: "1".repeat(64) },
    auditTrail: [{ type: "submit", timestamp: "2026-11-21T10:00:00Z" }],
    qrPayload: "0".repeat(32),
    level: "B-B",
  },
  certificateFontsFromFiles(),
);

/** Runs `work`; a thrown value must be one of our errors. Returns the result or null. */
async function signetOnly<T>(what: string, work: () => Promise<T> | T): Promise<T | null> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof SignetError) return null;
    throw new Error(
      `${what} threw a non-Signet ${(err as Error)?.name}: ${(err as Error)?.message}\n${(err as Error)?.stack ?? ""}`,
    );
  }
}

const join_ = (segments: Uint8Array[]) => concatBytes(segments);

let signer: TestIdentity;
let anchors: Uint8Array[];
let capacity: number;

beforeAll(async () => {
  signer = await testIdentity("P-256");
  anchors = [Uint8Array.from(atob(pemBody(signer.caPem)), (c) => c.charCodeAt(0))];
  const trial = await buildCadesDetachedSignature({ identity: signer.identity, contentDigest: new Uint8Array(32) });
  capacity = trial.length + 1024;
});

/** What /v1/sign does with the PDF once it is loaded, minus the event store. */
async function signLikeTheService(bytes: Uint8Array): Promise<Uint8Array | null> {
  return signetOnly("sign", async () => {
    const reader = PdfReader.open(bytes);
    if (reader.encrypted) return null;
    const inspection = inspectForSigning(reader);
    if (inspection.docMdp === 1) return null;
    const signed = await signPdf({
      reader,
      inspection,
      signedAt: new Date("2026-11-22T00:00:00Z"),
      signerName: "Fuzz Signer",
      signerEmail: "fuzz@example.com",
      reason: "fuzz",
      attachment: { bytes: new TextEncoder().encode('{"fuzz":true}'), description: "fuzz evidence" },
      certificatePages: inspection.countersign ? undefined : APPENDED,
      contentsCapacity: capacity,
      buildSignature: (digest) => buildCadesDetachedSignature({ identity: signer.identity, contentDigest: digest }),
    });
    const out = join_(signed.segments);
    expect(out.length).toBe(signed.length);
    // An incremental update: the input is an exact prefix of the output.
    expect(out.subarray(0, bytes.length)).toEqual(bytes);
    return out;
  });
}

async function pdfProperty(file: CorpusFile, mutation: Mutation): Promise<void> {
  const bytes = mutation.apply(file.bytes);
  await signetOnly("reader", () => {
    const reader = PdfReader.open(bytes);
    reader.pages();
    return reader.revisions.length;
  });
  const before = await signetOnly("verify", () => verifyPdf(bytes, { trustAnchors: anchors }));
  const signed = await signLikeTheService(bytes);
  if (signed && before) {
    // Whatever Signet signs (and could verify before), its own verifier finds intact and valid
    // after, or, when the diff analysis reaches a damaged object the signer never needed, refuses
    // the file with a Signet error.
    const report = await signetOnly("verify of our own output", () => verifyPdf(signed, { trustAnchors: anchors }));
    if (report) {
      const ours = report.signers.find((s) => s.name === "Fuzz Signer");
      expect(ours, `${file.name} / ${mutation.name}: our signature not found`).toBeDefined();
      expect(ours!.intact).toBe(true);
      expect(ours!.signatureValid).toBe(true);
    }
  }
}

const PNG_1X1 =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/** Fields that hit whatever controls a template has (by w:tag, which most corpus controls carry, and by id). */
function fieldsFor(
  bytes: Uint8Array,
): { id: string; type: "text" | "checkbox" | "date" | "signature" | "image"; value: unknown }[] {
  const text = new TextDecoder("latin1").decode(bytes);
  const tags = [...new Set([...text.matchAll(/w:(?:tag|id) w:val="([^"]{1,40})"/g)].map((m) => m[1]!))].slice(0, 6);
  const kinds = [
    { type: "text" as const, value: "Ada <Lovelace> & \u202Eco" },
    { type: "checkbox" as const, value: true },
    { type: "date" as const, value: "2026-11-22" },
    { type: "signature" as const, value: "Ada Lovelace" },
    { type: "image" as const, value: PNG_1X1 },
  ];
  return [...tags, "not-there"].map((id, i) => ({ id, ...kinds[i % kinds.length]! }));
}

/**
 * What /v1/annotate does with a template once it is decoded: sniff it, open it (package limits,
 * DTD rule, controls), match and fill. (Called piecewise rather than through annotateDocument so the
 * test does not depend on the DOCX renderer, which annotate.ts imports for to=pdf.)
 */
function annotateLikeTheService(template: Uint8Array, fields: ReturnType<typeof fieldsFor>): Uint8Array | null {
  if (sniffDocumentType(template) !== "docx") return null;
  const t = DocxTemplate.open(template);
  const { matched } = t.match(fields);
  const png = Uint8Array.from(atob(PNG_1X1.split(",")[1]!), (c) => c.charCodeAt(0));
  const images = new Map(
    fields.flatMap((f, i) =>
      f.type === "image" && matched[i]!.length
        ? [[i, { key: "png", bytes: png, info: readImageInfo(png) }] as const]
        : [],
    ),
  );
  return join_(t.fill(fields, images).segments);
}

async function docxProperty(template: Uint8Array, fieldsFrom: Uint8Array): Promise<void> {
  const filled = await signetOnly("annotate", () => annotateLikeTheService(template, fieldsFor(fieldsFrom)));
  if (filled) {
    // A filled document must open again (filling twice is a documented use).
    const again = await signetOnly("annotate of our own output", () =>
      annotateLikeTheService(filled, fieldsFor(filled)),
    );
    expect(again, "a DOCX Signet wrote must open again").not.toBeNull();
  }
}

const env = process.env;

describe("fuzz: PDF engines with mutated corpus files", () => {
  it("has the corpus", () => {
    expect(PDFS.length).toBeGreaterThan(100);
    expect(DOCXS.length).toBeGreaterThan(30);
  });

  it(
    "reader, verify and sign only ever fail with Signet errors",
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...PDFS), pdfMutation, (file, mutation) => pdfProperty(file, mutation)),
        fuzzParams(150, env),
      );
    },
    fuzzTimeout(150, env),
  );
});

describe("fuzz: annotate with mutated corpus templates", () => {
  it(
    "ZIP-level damage (lying sizes, broken headers) only fails with Signet errors",
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...DOCXS), docxZipMutation, (file, mutation) =>
          docxProperty(mutation.apply(file.bytes), file.bytes),
        ),
        fuzzParams(120, env),
      );
    },
    fuzzTimeout(120, env),
  );

  it(
    "XML-level damage inside document.xml, re-zipped, only fails with Signet errors",
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...DOCXS), docxXmlMutation, (file, mutation) =>
          docxProperty(mutateDocxPart(file.bytes, "word/document.xml", mutation), file.bytes),
        ),
        fuzzParams(120, env),
      );
    },
    fuzzTimeout(120, env),
  );
});

describe("fuzz: the DOCX renderer with mutated corpus templates", () => {
  // Smaller files: a render lays out every page.
  const small = DOCXS.filter((f) => f.bytes.length <= 60 * 1024);
  const fonts = nodeFontSource();

  it(
    "renders or refuses with a Signet error; what it renders is a PDF Signet can read",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...small),
          fc.oneof(
            docxXmlMutation,
            docxZipMutation.map((m) => ({ ...m, zip: true })),
          ),
          async (file, mutation) => {
            const bytes =
              "zip" in mutation
                ? mutation.apply(file.bytes)
                : mutateDocxPart(file.bytes, "word/document.xml", mutation);
            const pdf = await signetOnly(`render ${file.name} / ${mutation.name}`, () =>
              renderDocxToPdf(bytes, { fonts }),
            );
            if (pdf) expect(PdfReader.open(pdf).pages().length).toBeGreaterThan(0);
          },
        ),
        fuzzParams(40, env),
      );
    },
    fuzzTimeout(40, env),
  );
});
