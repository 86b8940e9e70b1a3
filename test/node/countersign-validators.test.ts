/**
 * Countersigning checked by validators we did not write. A second test CA (openssl) signs
 * corpus PDFs with poppler (`pdfsig -add-signature`, NSS), Signet signs them once and twice
 * through `wrangler dev` with that CA in TRUSTED_ROOTS, and then:
 * - Signet's /v1/verify: every signature valid, modifications none/signatures/form_filling;
 * - pdfsig (trusting both CAs) and `mutool sign -v`: every signature valid;
 * - a model of pyHanko's default difference policy (support/whitelist-model.ts, objects read by
 *   qpdf): every earlier signature at most FORM_FILLING, never OTHER.
 * The same for third-party signed files of the corpus (Adobe, iText, PDFBox, pyHanko, DSS,
 * endesive, node-signpdf...): what each validator said of their signatures before Signet
 * countersigned, it says after.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PdfReader } from "../../src/pdf/reader";
import { appendUpdate } from "../support/signed-pdfs";
import { serializePdfValue } from "../../src/pdf/serialize";
import { PdfRef, type PdfValue } from "../../src/pdf/model";
import { devSecrets, startService, type RunningService } from "./support/service";
import { parsePdfsig, tool } from "./support/validators";
import { modelLevel, revisionEnds, type Level } from "./support/whitelist-model";

const run = promisify(execFile);
const CORPUS = new URL("../../../shared/corpus/", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "signet-countersign-"));
const ALLOWED_MODEL: Level[] = ["none", "lta", "form_filling"];
const ALLOWED_SIGNET = ["none", "signatures", "form_filling"];

let svc: RunningService;
let nssdb: string;
let otherCaPem: string;

/** A root and a signer certificate of "another tool", in an NSS database that trusts both CAs. */
async function otherSigner(): Promise<void> {
  const at = (f: string) => join(work, f);
  const o = (args: string[]) => run("openssl", args);
  await o([
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    at("ca.key"),
    "-out",
    at("ca.pem"),
    "-days",
    "3650",
    "-subj",
    "/CN=Other Tool Test Root/O=Countersign tests",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  ]);
  await o([
    "req",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    at("signer.key"),
    "-out",
    at("signer.csr"),
    "-subj",
    "/CN=Customer Signer/O=Other Tool/emailAddress=customer@example.com",
  ]);
  writeFileSync(at("ext.cnf"), "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,nonRepudiation\n");
  await o([
    "x509",
    "-req",
    "-in",
    at("signer.csr"),
    "-CA",
    at("ca.pem"),
    "-CAkey",
    at("ca.key"),
    "-CAcreateserial",
    "-out",
    at("signer.pem"),
    "-days",
    "3650",
    "-extfile",
    at("ext.cnf"),
  ]);
  await o([
    "pkcs12",
    "-export",
    "-inkey",
    at("signer.key"),
    "-in",
    at("signer.pem"),
    "-certfile",
    at("ca.pem"),
    "-name",
    "customer",
    "-out",
    at("signer.p12"),
    "-passout",
    "pass:test",
  ]);
  writeFileSync(at("signet-ca.pem"), devSecrets().caPem);
  const dir = at("nss");
  await run("mkdir", [dir]);
  await run("certutil", ["-N", "-d", `sql:${dir}`, "--empty-password"]);
  await run("pk12util", ["-i", at("signer.p12"), "-d", `sql:${dir}`, "-W", "test"]);
  await run("certutil", [
    "-M",
    "-d",
    `sql:${dir}`,
    "-n",
    "Other Tool Test Root - Countersign tests",
    "-t",
    "CT,C,C",
  ]).catch(() => run("certutil", ["-A", "-d", `sql:${dir}`, "-n", "other-ca", "-t", "CT,C,C", "-i", at("ca.pem")]));
  await run("certutil", ["-A", "-d", `sql:${dir}`, "-n", "signet-dev-ca", "-t", "CT,C,C", "-i", at("signet-ca.pem")]);
  nssdb = `sql:${dir}`;
  otherCaPem = readFileSync(at("ca.pem"), "utf8");
}

beforeAll(async () => {
  await otherSigner();
  svc = await startService({ TRUSTED_ROOTS: otherCaPem });
}, 180_000);
afterAll(async () => {
  await svc?.stop();
  rmSync(work, { recursive: true, force: true });
});

async function api(path: string, body: unknown): Promise<any> {
  const res = await fetch(`${svc.baseUrl}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${svc.apiKey}` },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as any;
  if (res.status !== 200) throw new Error(`${path} ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

async function sign(
  pdf: Uint8Array,
  eventId: string,
  name = "Ada Lovelace",
): Promise<{ bytes: Uint8Array; warnings: string[] }> {
  const body = await api("/v1/sign", {
    document: { base64: Buffer.from(pdf).toString("base64") },
    signer: { name, email: "signer@example.com" },
    auditTrail: [{ type: "submit", timestamp: "2026-11-27T10:00:00Z" }],
    eventId,
    metadata: { eventId },
  });
  return { bytes: new Uint8Array(Buffer.from(body.document.base64.split(",")[1], "base64")), warnings: body.warnings };
}

const verify = (pdf: Uint8Array) => api("/v1/verify", { document: { base64: Buffer.from(pdf).toString("base64") } });

/** Poppler signs `input` as the other tool: a new signature field, SHA-256, adbe.pkcs7.detached. */
async function popplerSigned(input: string, name: string): Promise<Uint8Array> {
  const out = join(work, `${name}.poppler.pdf`);
  await run("pdfsig", [
    "-nssdir",
    nssdb,
    "-add-signature",
    "-nick",
    "customer",
    "-new-signature-field-name",
    "CustomerSignature",
    "-reason",
    "Agreed",
    input,
    out,
  ]);
  return new Uint8Array(readFileSync(out));
}

function write(pdf: Uint8Array, name: string): string {
  const file = join(work, name);
  writeFileSync(file, pdf);
  return file;
}

/** Where each signature's signed bytes end (its /ByteRange), in file order. */
function signedEnds(pdf: Uint8Array): number[] {
  const text = Buffer.from(pdf).toString("latin1");
  return [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)].map(
    (m) => Number(m[3]) + Number(m[4]),
  );
}

/** The model's level for every signature of `pdf`, keyed by where its signed bytes end. */
async function modelLevels(pdf: Uint8Array): Promise<Map<number, { level: Level; reasons: string[] }>> {
  const ends = revisionEnds(pdf);
  const out = new Map<number, { level: Level; reasons: string[] }>();
  for (const end of signedEnds(pdf)) if (end > 0 && end <= pdf.length) out.set(end, await modelLevel(pdf, end, ends));
  return out;
}

/** mutool's verdict per signed signature: valid (with or without later edits), or what it printed instead. */
async function mutoolVerdicts(file: string): Promise<string[]> {
  const { out } = await tool("mutool", ["sign", "-v", file]);
  return out
    .split(/^Verifying signature/m)
    .slice(1)
    .filter((b) => !/Signature is not signed/.test(b))
    .map((b) =>
      /The document is unchanged since signing|The signature is valid but there have been edits since signing/.test(b)
        ? "valid"
        : b.trim(),
    );
}

describe("a PDF signed first by poppler under another CA, then by Signet once and twice", () => {
  const INPUTS = [
    "pdf-plain/pdf20examples__Simple_PDF_2.0_file.pdf", // xref table
    "pdf-plain/endesive__pdf-XRefStream.pdf", // xref streams, object streams
    "pdf-plain/pdfbox__form__AcroFormsBasicFields.pdf", // an existing form
  ];

  for (const input of INPUTS) {
    it(
      input,
      async () => {
        const name = input
          .split("/")
          .pop()!
          .replace(/\.pdf$/, "");
        const first = await popplerSigned(join(CORPUS, input), name);
        const once = await sign(first, `${name}-1`);
        const twice = await sign(once.bytes, `${name}-2`, "Grace Hopper");
        expect(once.warnings.join(" ")).toMatch(
          /already carries a signature: Signet did not append the certificate page/,
        );
        const file = write(twice.bytes, `${name}.twice.pdf`);

        // Signet, trusting both CAs.
        const r = await verify(twice.bytes);
        expect(r.reason).toBe("All 3 signature(s) are intact, cover the document and chain to a trusted root.");
        expect(r.signers.map((s: any) => s.eventId)).toEqual([null, `${name}-1`, `${name}-2`]);
        for (const s of r.signers) expect(ALLOWED_SIGNET).toContain(s.modifications);
        expect(r.document.pages).toBe(PdfReader.open(first).pages().length);

        // pdfsig with both CAs trusted, mutool.
        const sigs = parsePdfsig((await tool("pdfsig", ["-nssdir", nssdb, file])).out).filter((s) => s.signed);
        expect(sigs.map((s) => s.validation)).toEqual(Array(3).fill("Signature is Valid."));
        expect(sigs[0]!.certificate).toBe("Certificate is Trusted.");
        expect(sigs[2]!.totalDocument).toBe(true);
        expect(await mutoolVerdicts(file)).toEqual(Array(3).fill("valid"));

        // pyHanko's rules: no signature sees more than form filling after it.
        for (const [end, v] of await modelLevels(twice.bytes))
          expect(ALLOWED_MODEL, `signed to ${end}: ${v.reasons.join("; ")}`).toContain(v.level);
      },
      60_000,
    );
  }
});

describe("a prepared field signed after another tool's signature (form filling + signature)", () => {
  it("poppler signs the DSS file, Signet fills its empty field Signature1 with a visible appearance: all valid, FORM_FILLING at most", async () => {
    const first = await popplerSigned(
      join(CORPUS, "pdf-plain/dss__unsignedPDFWithSignatureFieldButInvisible.pdf"),
      "dss-field",
    );
    const body = await api("/v1/sign", {
      document: { base64: Buffer.from(first).toString("base64") },
      signer: { name: "Ada Lovelace", email: "signer@example.com" },
      auditTrail: [{ type: "submit", timestamp: "2026-11-27T10:00:00Z" }],
      signature: { appearance: {} },
    });
    expect(body.signature.fieldName).toBe("Signature1");
    const out = new Uint8Array(Buffer.from(body.document.base64.split(",")[1], "base64"));
    const file = write(out, "dss-field.countersigned.pdf");
    const sigs = parsePdfsig((await tool("pdfsig", ["-nssdir", nssdb, file])).out).filter((s) => s.signed);
    // pdfsig lists fields in form order: the prepared field first.
    expect(sigs.map((s) => [s.field, s.validation])).toEqual([
      ["Signature1", "Signature is Valid."],
      ["CustomerSignature", "Signature is Valid."],
    ]);
    expect(await mutoolVerdicts(file)).toEqual(["valid", "valid"]);
    for (const [end, v] of await modelLevels(out))
      expect(ALLOWED_MODEL, `signed to ${end}: ${v.reasons.join("; ")}`).toContain(v.level);
    const r = await verify(out);
    expect(r.valid).toBe(true);
  }, 60_000);
});

describe("the model of pyHanko's rules catches what Signet used to add", () => {
  it("a file attached to the catalog after a signature (/AF, /Names) is OTHER: Values for dict key /AF differ", async () => {
    const signed = (
      await sign(
        new Uint8Array(readFileSync(join(CORPUS, "pdf-plain/pdf20examples__Simple_PDF_2.0_file.pdf"))),
        "model-self-test",
      )
    ).bytes;
    const reader = PdfReader.open(signed);
    const catalog = reader.catalog();
    const af = (reader.resolve(catalog.get("AF")) as PdfValue[]) ?? [];
    const attached = appendUpdate(signed, [
      { num: 900, body: "<< /Type /EmbeddedFile /Length 2 >>\nstream\n{}\nendstream" },
      {
        num: 901,
        body: "<< /Type /Filespec /F (signet-audit-2.json) /UF (signet-audit-2.json) /EF << /F 900 0 R >> >>",
      },
      { num: reader.catalogRef().num, body: serializePdfValue(catalog.with({ AF: [...af, new PdfRef(901, 0)] })) },
    ]);
    const levels = [...(await modelLevels(attached)).values()];
    expect(levels).toHaveLength(1);
    expect(levels[0]!.level).toBe("other");
    expect(levels[0]!.reasons.join(" ")).toMatch(/catalog: Values for dict key \/AF differ/);
  }, 60_000);
});

describe("third-party signed corpus files countersigned by Signet", () => {
  // Adobe, iText, PDFBox, pyHanko, DSS, endesive, node-signpdf and others: xref tables and
  // streams, object streams, direct and indirect forms, widgets in /Kids, DocMDP P2/P3,
  // FieldMDP, DSS, usage rights.
  const FILES = [
    "pyhanko__separate-annots-kids-indir.pdf", // widgets in an indirect /Kids, no /Parent
    "pyhanko__extensions-update-indirect.pdf", // /Extensions rewritten between signatures
    "itext__PdfCopyTest__hello_signed.pdf", // DocMDP P2
    "itext__DocumentRevisionsValidatorIntegrationTest__fullCompressionModeLevel2.pdf", // P2, xref and object streams
    "itext__SignatureValidatorIntegrationTest__shortValidityCertsWithOcsp.pdf", // DocMDP P3
    "dss__dss-2554__fieldmdp-exclude-signed.pdf", // FieldMDP
    "itext__PadesSignatureLevelTest__signedPAdES-LT.pdf", // DSS
    "mkl-itext5__form__PD3100.pdf", // usage rights (UR3) only
    "endesive__pdf-linearized.pdf", // linearized
    "itext__SignatureAppearanceTest__cmp_signed_hybrid.pdf", // hybrid xref
    "node-signpdf__incrementally_signed.pdf", // newest trailer without /Info
    "node-signpdf__signed-twice.pdf", // two signatures
    "qpdf__digitally-signed.pdf",
    "mkl-pdfbox2__TEST-signed-pades-baseline-b.pdf", // PDFBox
    "endesive__pdf-acrobat.pdf", // Acrobat
    "itext__TimestampSigTest__cmp_timestampTest01.pdf", // a document time-stamp
    "dss__doc-firmado-T.pdf", // PAdES B-T
  ];

  it.each(FILES)(
    "%s: every validator's verdict on the earlier signatures stays, the model never says OTHER",
    async (name) => {
      const input = new Uint8Array(readFileSync(join(CORPUS, "pdf-signed", name)));
      const inFile = join(CORPUS, "pdf-signed", name);
      const out = (await sign(input, `corpus-${name}`)).bytes;
      const outFile = write(out, `${name}.countersigned.pdf`);

      const before = await modelLevels(input);
      const after = await modelLevels(out);
      for (const [end, v] of before) {
        if (v.level === "other") continue; // already a change the rules reject (the file's own later revisions)
        expect(ALLOWED_MODEL, `${name}, signed to ${end}: ${after.get(end)?.reasons.join("; ")}`).toContain(
          after.get(end)!.level,
        );
      }

      const pdfsigBefore = parsePdfsig((await tool("pdfsig", ["-nocert", inFile])).out).filter((s) => s.signed);
      const pdfsigAfter = parsePdfsig((await tool("pdfsig", ["-nocert", outFile])).out).filter((s) => s.signed);
      expect(pdfsigAfter.slice(0, pdfsigBefore.length).map((s) => s.validation)).toEqual(
        pdfsigBefore.map((s) => s.validation),
      );
      expect(pdfsigAfter.at(-1)!.validation).toBe("Signature is Valid.");

      const mutoolBefore = await mutoolVerdicts(inFile);
      const mutoolAfter = await mutoolVerdicts(outFile);
      expect(mutoolAfter.slice(0, mutoolBefore.length)).toEqual(mutoolBefore);
      expect(mutoolAfter.at(-1)).toBe("valid");

      const r = await verify(out);
      const ours = r.signers.find((s: any) => s.eventId === `corpus-${name}`);
      expect(ours).toMatchObject({
        intact: true,
        signatureValid: true,
        coverage: "entire_file",
        modifications: "none",
      });
      const beforeSignet = await verify(input);
      beforeSignet.signers.forEach((s: any, i: number) => {
        if (ALLOWED_SIGNET.includes(s.modifications))
          expect(ALLOWED_SIGNET, `${name} ${s.fieldName}`).toContain(r.signers[i].modifications);
      });
    },
    60_000,
  );
});

describe("signing a file whose startxref is wrong", () => {
  it("points /Prev at the xref table the reader found: qpdf no longer says 'xref not found'", async () => {
    const inFile = join(CORPUS, "pdf-plain/pdf20examples__pdf20-utf8-test.pdf");
    const input = new Uint8Array(readFileSync(inFile));
    expect((await tool("qpdf", ["--check", inFile])).out).toMatch(/xref not found/);
    const out = (await sign(input, "prev-utf8")).bytes;
    const prev = Number(/\/Prev (\d+)/.exec(Buffer.from(out.subarray(input.length)).toString("latin1"))![1]);
    expect(Buffer.from(out.subarray(prev, prev + 4)).toString("latin1")).toBe("xref");
    const check = await tool("qpdf", ["--check", write(out, "utf8.signed.pdf")]);
    expect(check.out).not.toMatch(/xref not found/);
    expect(check.code === 0 || check.code === 3, check.out).toBe(true);
  }, 60_000);
});
