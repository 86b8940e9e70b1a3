import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect } from "vitest";

const run = promisify(execFile);

/** Runs a command and returns its output even when it exits non-zero. */
export async function tool(cmd: string, args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(cmd, args, { maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, out: stdout + stderr };
  } catch (err: any) {
    if (err.code === "ENOENT")
      throw new Error(`${cmd} is not installed (apt-get install poppler-utils mupdf-tools qpdf libnss3-tools)`);
    return { code: typeof err.code === "number" ? err.code : 1, out: `${err.stdout ?? ""}${err.stderr ?? ""}` };
  }
}

/** An NSS database trusting the given CA, so pdfsig can check the chain. */
export async function nssDbTrusting(caPem: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "signet-nss-"));
  const ca = join(dir, "ca.pem");
  writeFileSync(ca, caPem);
  await run("certutil", ["-N", "-d", `sql:${dir}`, "--empty-password"]);
  await run("certutil", ["-A", "-d", `sql:${dir}`, "-n", "signet-dev-ca", "-t", "CT,C,C", "-i", ca]);
  return `sql:${dir}`;
}

export interface PdfsigSignature {
  field: string;
  signed: boolean;
  validation: string;
  certificate: string;
  totalDocument: boolean;
}

/** Parses `pdfsig` output into one record per signature. */
export function parsePdfsig(out: string): PdfsigSignature[] {
  const sigs: PdfsigSignature[] = [];
  for (const block of out.split(/^Signature #\d+:/m).slice(1)) {
    sigs.push({
      field: /Signature Field Name: (.*)/.exec(block)?.[1]?.trim() ?? "",
      signed: !/The signature form field is not signed/.test(block),
      validation: /Signature Validation: (.*)/.exec(block)?.[1]?.trim() ?? "",
      certificate: /Certificate Validation: (.*)/.exec(block)?.[1]?.trim() ?? "",
      totalDocument: /Total document signed/.test(block),
    });
  }
  return sigs;
}

/** Every signature's CMS and signed bytes, found through its /ByteRange, in file order. */
export function signatures(pdf: Uint8Array): { cms: Uint8Array; signed: Uint8Array }[] {
  const text = Buffer.from(pdf).toString("latin1");
  return [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)].map((m) => {
    const [a, b, c, d] = m.slice(1).map(Number) as [number, number, number, number];
    const signed = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);
    const padded = Buffer.from(text.slice(a + b + 1, c - 1), "hex");
    return { cms: padded.subarray(0, derLength(padded)), signed };
  });
}

/** Length of the DER element at the start of `der` (the zero padding after it is not part of it). */
function derLength(der: Uint8Array): number {
  const first = der[1]!;
  if (first < 0x80) return 2 + first;
  const n = first & 0x7f;
  let len = 0;
  for (let i = 0; i < n; i++) len = len * 256 + der[2 + i]!;
  return 2 + n + len;
}

/** openssl checks the CMS of signature `index` against the signed bytes and the CA in `caFile`. */
export async function opensslAccepts(caFile: string, file: string, index: number) {
  const sig = signatures(readFileSync(file))[index]!;
  const cmsFile = `${file}.${index}.p7s`;
  const contentFile = `${file}.${index}.content`;
  writeFileSync(cmsFile, sig.cms);
  writeFileSync(contentFile, sig.signed);
  const openssl = await tool("openssl", [
    "cms",
    "-verify",
    "-binary",
    "-inform",
    "DER",
    "-in",
    cmsFile,
    "-content",
    contentFile,
    "-CAfile",
    caFile,
    "-purpose",
    "any",
    "-out",
    "/dev/null",
  ]);
  expect(openssl.out, openssl.out).toMatch(/Verification successful/);
}

/** qpdf's findings on a file, with the file name taken out so two files compare. */
export async function qpdfFindings(file: string) {
  const { code, out } = await tool("qpdf", ["--check", file]);
  const findings = out
    .split("\n")
    .filter((l) => /^(WARNING|ERROR|qpdf:)/.test(l))
    .map((l) => l.replaceAll(file, "FILE"))
    .sort();
  return { code, findings };
}

/**
 * pdfsig (with `trust.nssdb`), mutool, qpdf (no finding the original did not have) and openssl
 * (with `trust.caFile`) accept the last signature of `file`, which has `signedFields` signatures.
 */
export async function expectAcceptedBy(
  trust: { nssdb: string; caFile: string },
  file: string,
  signedFields: number,
  original?: string,
) {
  const pdfsig = await tool("pdfsig", ["-nssdir", trust.nssdb, file]);
  const sigs = parsePdfsig(pdfsig.out).filter((s) => s.signed);
  expect(sigs.length, pdfsig.out).toBe(signedFields);
  const ours = sigs[sigs.length - 1]!;
  expect(ours.validation, pdfsig.out).toBe("Signature is Valid.");
  expect(ours.totalDocument, pdfsig.out).toBe(true);
  if (signedFields === 1) expect(ours.certificate, pdfsig.out).toBe("Certificate is Trusted.");

  // mutool checks the digest over the byte ranges; it has no trust store, so our
  // development root is reported as a self-signed certificate in the chain.
  const mutool = await tool("mutool", ["sign", "-v", file]);
  const lastBlock = mutool.out.split(/^Verifying signature/m).pop()!;
  expect(lastBlock, mutool.out).toContain("The document is unchanged since signing.");
  expect(lastBlock, mutool.out).not.toMatch(/Signature error|changed since signing(?!\.)|Digest error/i);
  expect(lastBlock).toMatch(/Certificate error: Self-signed certificate in chain|Certificate is trusted/i);

  // qpdf: no errors, and no warning the input did not already have.
  const qpdf = await qpdfFindings(file);
  const before = original ? await qpdfFindings(original) : { code: 0, findings: [] };
  expect(qpdf.code === 0 || qpdf.code === 3, qpdf.findings.join("\n")).toBe(true);
  const norm = (f: string) => f.replace(/ \(object.*|offset \d+/, "");
  const known = new Set(before.findings.map(norm));
  expect(qpdf.findings.map(norm).filter((f) => !known.has(f) && !f.startsWith("qpdf: operation succeeded"))).toEqual(
    [],
  );

  await opensslAccepts(trust.caFile, file, signatures(readFileSync(file)).length - 1);
}
