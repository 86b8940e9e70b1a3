import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devSecrets, startService, type RunningService } from "./support/service";
import {
  expectAcceptedBy,
  nssDbTrusting,
  opensslAccepts as opensslAcceptsWith,
  parsePdfsig,
  tool,
} from "./support/validators";

const CORPUS = new URL("../../../shared/corpus/", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "signet-validate-"));

// Ten varied real files: PDF 1.0 to 2.0, xref streams, object streams, hybrid xref,
// linearized, incremental updates, forms, attachments, Cyrillic text, 1000 pages.
const INPUTS = [
  "pdf-plain/pdf20examples__Simple_PDF_2.0_file.pdf",
  "pdf-plain/pdf20examples__PDF_2.0_via_incremental_save.pdf",
  "pdf-plain/qpdf__name-pound-images.pdf",
  "pdf-plain/poppler-test__fonts.pdf",
  "pdf-plain/itext__PdfReaderTest__1000PagesDocumentWithFullCompression.pdf",
  "pdf-plain/qpdf__c-linearized.pdf",
  "pdf-plain/pyhanko__minimal-hybrid-xref.pdf",
  "pdf-plain/pdfbox__form__AcroFormsBasicFields.pdf",
  "pdf-plain/poppler-test__WithAttachments.pdf",
  "pdf-plain/poppler-test__russian.pdf",
  "pdf-plain/pdfbox__input__openoffice-test-document.pdf",
  "pdf-plain/mkl-itext5__extract__certified-school-list-9-16-2015.pdf",
];

let svc: RunningService;
let nssdb: string;
let caFile: string;

beforeAll(async () => {
  svc = await startService();
  nssdb = await nssDbTrusting(devSecrets().caPem);
  caFile = join(work, "ca.pem");
  writeFileSync(caFile, devSecrets().caPem);
}, 180_000);
afterAll(async () => svc?.stop());

async function sign(pdf: Uint8Array, extra: Record<string, unknown> = {}): Promise<Uint8Array> {
  return (await signResponse(pdf, extra)).bytes;
}

async function signResponse(
  pdf: Uint8Array,
  extra: Record<string, unknown> = {},
): Promise<{ bytes: Uint8Array; body: any }> {
  // extra may replace signer / auditTrail
  const res = await fetch(`${svc.baseUrl}/v1/sign`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${svc.apiKey}` },
    body: JSON.stringify({
      document: { base64: Buffer.from(pdf).toString("base64") },
      signer: { name: "Ada Lovelace", email: "ada@example.com" },
      auditTrail: [{ type: "submit", timestamp: "2026-11-21T10:00:00Z" }],
      ...extra,
    }),
  });
  const body = (await res.json()) as any;
  if (res.status !== 200) throw new Error(`sign ${res.status}: ${JSON.stringify(body)}`);
  return { bytes: Buffer.from(body.document.base64.split(",")[1], "base64"), body };
}

/** pdfsig (trusting the dev CA), mutool, qpdf and openssl accept the last signature of `file`. */
const expectAccepted = (file: string, signedFields: number, original?: string) =>
  expectAcceptedBy({ nssdb, caFile }, file, signedFields, original);

describe("signed output is accepted by pdfsig, mutool, qpdf and openssl", () => {
  for (const input of INPUTS) {
    it(input, async () => {
      const out = await sign(readFileSync(join(CORPUS, input)));
      const file = join(
        work,
        input
          .split("/")
          .pop()!
          .replace(/\.pdf$/, ".signed.pdf"),
      );
      writeFileSync(file, out);
      await expectAccepted(file, 1, join(CORPUS, input));
    });
  }

  it("a PDF signed twice by Signet: both signatures valid", async () => {
    const once = await sign(readFileSync(join(CORPUS, INPUTS[0]!)));
    const twice = await sign(once);
    const file = join(work, "twice.pdf");
    writeFileSync(file, twice);
    await expectAccepted(file, 2);
    // NSS reports "Unknown issue with Certificate" when one pdfsig run checks the same
    // certificate twice, so the chains are checked by openssl, signature by signature.
    const sigs = parsePdfsig((await tool("pdfsig", ["-nssdir", nssdb, file])).out);
    expect(sigs.map((s) => s.validation)).toEqual(["Signature is Valid.", "Signature is Valid."]);
    expect(sigs[0]!.certificate).toBe("Certificate is Trusted.");
    await opensslAcceptsWith(caFile, file, 0);
    await opensslAcceptsWith(caFile, file, 1);
  });
});

describe("binary documents (multipart in, PDF out) through wrangler dev", () => {
  it("a 1000-page PDF sent as the part file comes back as the body, Signet-Result round-trips a non-ASCII signer, and the validators accept it", async () => {
    const input = readFileSync(
      join(CORPUS, "pdf-plain/itext__PdfReaderTest__1000PagesDocumentWithFullCompression.pdf"),
    );
    const form = new FormData();
    form.append("file", new Blob([input], { type: "application/pdf" }), "long.pdf");
    const name = "Zoë Ångström-Łukasz 山田 ✍";
    form.append(
      "request",
      JSON.stringify({
        signer: { name, email: "zoe@example.com" },
        auditTrail: [{ type: "submit", timestamp: "2026-11-21T10:00:00Z" }],
        eventId: `binary-${name}`,
      }),
    );
    const res = await fetch(`${svc.baseUrl}/v1/sign`, {
      method: "POST",
      headers: { Authorization: `Bearer ${svc.apiKey}`, Accept: "application/pdf" },
      body: form,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const result = JSON.parse(res.headers.get("signet-result")!);
    expect(result.eventId).toBe(`binary-${name}`);
    const out = new Uint8Array(await res.arrayBuffer());
    expect(Number(res.headers.get("content-length"))).toBe(out.length);
    expect(createHash("sha256").update(out).digest("hex")).toBe(result.sha256);
    const file = join(work, "binary.signed.pdf");
    writeFileSync(file, out);
    await expectAccepted(
      file,
      1,
      join(CORPUS, "pdf-plain/itext__PdfReaderTest__1000PagesDocumentWithFullCompression.pdf"),
    );
    // The raw body to verify gives the same verdict.
    const verified = (await (
      await fetch(`${svc.baseUrl}/v1/verify`, {
        method: "POST",
        headers: { "Content-Type": "application/pdf" },
        body: out,
      })
    ).json()) as any;
    expect(verified.valid).toBe(true);
    expect(verified.signers[0].name).toBe(name);
  });
});

describe("defects found in signing (issue 16)", () => {
  it("an attachment tree with UTF-16 keys: qpdf lists signet-audit.json and can also open it", async () => {
    const input = join(CORPUS, "pdf-plain/poppler-test__WithAttachments.pdf");
    const file = join(work, "attachments-utf16.signed.pdf");
    writeFileSync(file, await sign(readFileSync(input), { eventId: "attachments-utf16" }));
    expect((await tool("qpdf", ["--list-attachments", file])).out).toMatch(/^signet-audit\.json -> /m);
    const shown = await tool("qpdf", [`--show-attachment=signet-audit.json`, file]);
    expect(shown.out).not.toMatch(/not found|does not exist/i);
    expect(JSON.parse(shown.out.slice(0, shown.out.lastIndexOf("}") + 1)).eventId).toBe("attachments-utf16");
    // The earlier attachments are still found by name (their keys sort before ours, by text and by bytes).
    expect((await tool("qpdf", ["--show-attachment=/usr/share/gnome-about/gnome-64.gif", file])).out.slice(0, 6)).toBe(
      "GIF89a",
    );
  });

  it("bytes before %PDF-: signed without them, and pdfsig, mutool, qpdf and openssl all accept the signature", async () => {
    const inputFile = join(CORPUS, "pdf-plain/pdf20examples__PDF_2.0_with_offset_start.pdf");
    const input = readFileSync(inputFile);
    const header = input.indexOf("%PDF-");
    expect(header).toBe(656);
    const { bytes, body } = await signResponse(input);
    expect(Buffer.from(bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    expect(Buffer.compare(bytes.subarray(0, input.length - header), input.subarray(header))).toBe(0);
    expect(body.warnings.join(" ")).toMatch(/The 656 bytes before %PDF- were left out/);
    const file = join(work, "offset-start.signed.pdf");
    writeFileSync(file, bytes);
    await expectAccepted(file, 1);
  });
});

describe("signing a PDF that other tools signed keeps their signatures valid", () => {
  for (const input of [
    "pdf-signed/itext__PdfASigningTest__cmp_signPdfCades.pdf",
    "pdf-signed/endesive__pdf-acrobat.pdf",
  ]) {
    it(input, async () => {
      const original = readFileSync(join(CORPUS, input));
      const before = parsePdfsig((await tool("pdfsig", [join(CORPUS, input)])).out);
      const file = join(
        work,
        input
          .split("/")
          .pop()!
          .replace(/\.pdf$/, ".resigned.pdf"),
      );
      writeFileSync(file, await sign(original));
      const after = parsePdfsig((await tool("pdfsig", ["-nssdir", nssdb, file])).out);
      expect(after.length).toBe(before.length + 1);
      for (let i = 0; i < before.length; i++) {
        expect(after[i]!.field).toBe(before[i]!.field);
        expect(after[i]!.validation).toBe("Signature is Valid.");
      }
      expect(after[after.length - 1]!.validation).toBe("Signature is Valid.");
      expect(after[after.length - 1]!.totalDocument).toBe(true);
    });
  }
});

describe("the certificate page in the signed document", () => {
  it("shows the signer, the event and a collapsed 2,000-event trail, all extractable", async () => {
    const trail: any[] = [{ type: "ready", timestamp: "2026-11-21T09:00:00.000Z" }];
    let t = Date.parse("2026-11-21T09:00:01Z");
    const tick = () => new Date((t += 700)).toISOString();
    for (let i = 0; i < 300; i++)
      trail.push({ type: "scroll", timestamp: tick(), data: { percent: i === 150 ? null : Math.min(100, i / 3) } });
    const typed = {
      full_name: "Дмитрий Шостакович",
      address: "Keizersgracht 123, 1015 CJ Amsterdam",
      company: "Ωmega Labs",
    };
    for (const [fieldId, value] of Object.entries(typed)) {
      for (let k = 1; k <= value.length; k++)
        trail.push({ type: "field_change", timestamp: tick(), data: { fieldId, value: value.slice(0, k) } });
    }
    while (trail.length < 1998)
      trail.push({
        type: "field_change",
        timestamp: tick(),
        data: { fieldId: "notes", value: "x".repeat(trail.length % 50) },
      });
    trail.push({ type: "submit", timestamp: tick() }, { type: "submit", timestamp: tick() });
    expect(trail.length).toBe(2000);

    const input = readFileSync(join(CORPUS, INPUTS[0]!));
    const out = await sign(input, {
      signer: {
        name: "Дмитрий Шостакович",
        email: "dmitri@example.com",
        ip: "2001:db8::7",
        userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0",
      },
      auditTrail: trail,
      eventId: "contract-2000-events",
    });
    const file = join(work, "certificate-2000.pdf");
    writeFileSync(file, out);
    const { out: text } = await tool("pdftotext", ["-f", "2", "-layout", file, "-"]);
    for (const item of [
      "Дмитрий Шостакович",
      "dmitri@example.com",
      "2001:db8::7",
      "Firefox/140.0",
      "contract-2000-events",
      "Signet Development Signer",
      createHash("sha256").update(input).digest("hex").slice(0, 32),
      "field_change",
      "scroll",
      "submit",
    ]) {
      expect(text.replace(/\s+/g, " "), item).toContain(item);
    }
    // Keystrokes collapse: far fewer lines than events, with counts.
    expect(text).toMatch(/×\s*\d{2,}|x\s*\d{2,}|\d{2,}\s*events/);
    await tool("pdftoppm", ["-f", "2", "-l", "2", "-r", "60", "-png", file, join(work, "certificate-page")]);
  });
});

describe("a production-like service refuses URLs to private addresses", () => {
  for (const url of [
    "http://127.0.0.1:8787/healthz",
    "https://127.0.0.1/a.pdf",
    "https://10.0.0.1/a.pdf",
    "https://[::ffff:7f00:1]/a.pdf",
    "https://2130706433/a.pdf",
    "https://localhost/a.pdf",
    "https://169.254.169.254/latest/meta-data",
  ]) {
    it(url, async () => {
      const res = await fetch(`${svc.baseUrl}/v1/sign`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${svc.apiKey}` },
        body: JSON.stringify({
          document: { url },
          signer: { name: "Ada Lovelace", email: "ada@example.com" },
          auditTrail: [{ type: "submit", timestamp: "2026-11-21T10:00:00Z" }],
        }),
      });
      expect(res.status).toBe(422);
      expect(((await res.json()) as any).code).toBe("url_forbidden");
    });
  }
});
