/**
 * Agreement of Signet's verifier with poppler's pdfsig over ../shared/corpus/pdf-signed.
 *
 *   npx tsx scripts/verify-agreement.ts [--list]
 *
 * For every file: pdfsig -nocert (live, so field names are known; the corpus MANIFEST
 * records the same pdfsig 22.12 verdicts) and Signet's engine (`verifyPdf`, in Node, no trust
 * anchors: trust is not compared). Signatures are matched by fully qualified field name
 * (in order when a name repeats).
 *
 * - pdfsig's verdict: "Signature is Valid" → valid; "Signature is Invalid" / "Digest Mismatch"
 *   → not valid; anything else ("not yet verified", "Unknown Validation Failure", unsigned
 *   fields, files pdfsig cannot open) → no verdict, left out.
 * - Signet's verdict: `intact && signatureValid === true` for the signature (intact includes
 *   the byte-range checks: a wrapped or malformed byte range is not intact). A file Signet
 *   refuses (422) gives "not valid" for each of pdfsig's signatures in it.
 * - The denominator: the signatures where pdfsig reaches a verdict and which both tools list.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SignetError } from "../src/errors";
import type { SignerReport } from "../src/pdf/verify/status";
import { verifyPdf } from "../src/pdf/verify/verify-pdf";

export const CORPUS = join(import.meta.dirname, "../../shared/corpus/pdf-signed");

export interface PdfsigEntry {
  field: string;
  /** End of the signed bytes (second range's end), -1 when not shown. */
  signedEnd: number;
  validation: string;
  /** true/false for a verdict; null for none. */
  verdict: boolean | null;
}

export interface AgreementRow {
  file: string;
  field: string;
  pdfsig: string;
  verdict: boolean | null;
  /** Signet's verdict; null when Signet lists no signature of that field name. */
  ours: boolean | null;
  signer: SignerReport | null;
  /** When Signet refused the file: the problem code and message. */
  refused: string | null;
  reason: string | null;
}

export interface Agreement {
  files: number;
  rows: AgreementRow[];
  judged: AgreementRow[];
  agree: AgreementRow[];
  disagree: AgreementRow[];
  /** pdfsig signatures Signet does not list (by field name). */
  unmatched: AgreementRow[];
  rate: number;
}

export function pdfsigAvailable(): boolean {
  return spawnSync("pdfsig", ["-v"]).status === 0;
}

export function runPdfsig(path: string): PdfsigEntry[] {
  const r = spawnSync("pdfsig", ["-nocert", path], { encoding: "latin1", timeout: 60_000 });
  const out: PdfsigEntry[] = [];
  for (const block of (r.stdout ?? "").split(/^Signature #\d+:$/m).slice(1)) {
    const field = /Signature Field Name: (.*)$/m.exec(block)?.[1]?.trim() ?? "";
    if (/The signature form field is not signed/.test(block)) {
      out.push({ field, signedEnd: -1, validation: "field not signed", verdict: null });
      continue;
    }
    const validation = /Signature Validation: (.*)$/m.exec(block)?.[1]?.trim() ?? "(none)";
    let verdict: boolean | null = null;
    if (/^Signature is Valid/.test(validation)) verdict = true;
    else if (/^Signature is Invalid|^Digest Mismatch/.test(validation)) verdict = false;
    const ranges = /Signed Ranges: \[(\d+) - (\d+)\], \[(\d+) - (\d+)\]/.exec(block);
    out.push({ field, signedEnd: ranges ? Number(ranges[4]) : -1, validation, verdict });
  }
  return out;
}

export async function computeAgreement(opts: { only?: (file: string) => boolean } = {}): Promise<Agreement> {
  const files = readdirSync(CORPUS)
    .filter((f) => f.endsWith(".pdf") && (!opts.only || opts.only(f)))
    .sort();
  const rows: AgreementRow[] = [];
  for (const file of files) {
    const path = join(CORPUS, file);
    const theirs = runPdfsig(path);
    if (!theirs.length) continue;
    let signers: SignerReport[] = [];
    let refused: string | null = null;
    let reason: string | null = null;
    try {
      const report = await verifyPdf(new Uint8Array(readFileSync(path)), { trustAnchors: [] });
      signers = report.signers;
      reason = report.reason;
    } catch (e) {
      if (!(e instanceof SignetError)) throw e;
      refused = `${e.code}: ${e.message}`;
    }
    // By field name; a name used twice pairs up in the order of where the signed bytes end (ours are in that order).
    const used = new Set<SignerReport>();
    const byEnd = [...theirs].sort((a, b) => a.signedEnd - b.signedEnd);
    const match = new Map<PdfsigEntry, SignerReport | null>();
    for (const t of byEnd) {
      const mine = signers.find((s) => s.fieldName === t.field && !used.has(s)) ?? null;
      if (mine) used.add(mine);
      match.set(t, mine);
    }
    for (const t of theirs) {
      const mine = match.get(t) ?? null;
      const ours = refused ? false : mine ? mine.intact && mine.signatureValid === true : null;
      rows.push({
        file,
        field: t.field,
        pdfsig: t.validation,
        verdict: t.verdict,
        ours,
        signer: mine,
        refused,
        reason,
      });
    }
  }
  const withVerdict = rows.filter((r) => r.verdict !== null);
  const judged = withVerdict.filter((r) => r.ours !== null);
  const agree = judged.filter((r) => r.ours === r.verdict);
  const disagree = judged.filter((r) => r.ours !== r.verdict);
  const unmatched = withVerdict.filter((r) => r.ours === null);
  return {
    files: files.length,
    rows,
    judged,
    agree,
    disagree,
    unmatched,
    rate: judged.length ? agree.length / judged.length : 1,
  };
}

export function describeRow(r: AgreementRow): string {
  const s = r.signer;
  const ours = r.refused
    ? `refused (${r.refused})`
    : s
      ? `intact=${s.intact} signatureValid=${s.signatureValid} coverage=${s.coverage} [${s.problems
          .filter((p) => p.severity === "error")
          .map((p) => p.code)
          .join(",")}]`
      : "not listed";
  return `${r.file} [${r.field}] pdfsig="${r.pdfsig}" ours=${r.ours} ${ours}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!existsSync(CORPUS)) throw new Error(`no corpus at ${CORPUS}`);
  if (!pdfsigAvailable()) throw new Error("pdfsig is not installed (apt-get install poppler-utils)");
  const t0 = Date.now();
  const a = await computeAgreement();
  const withVerdict = a.rows.filter((r) => r.verdict !== null).length;
  console.log(
    `Signet verify vs pdfsig over ${a.files} files of ../shared/corpus/pdf-signed (${((Date.now() - t0) / 1000).toFixed(1)} s)`,
  );
  console.log(
    `pdfsig lists ${a.rows.length} signature fields; it reaches a verdict on ${withVerdict}; Signet lists ${a.judged.length} of those by field name.`,
  );
  console.log(
    `Agreement: ${a.agree.length} / ${a.judged.length} = ${(a.rate * 100).toFixed(1)} % (denominator: signatures with a pdfsig verdict that both tools list)`,
  );
  if (a.unmatched.length) console.log(`Not listed by Signet (left out of the denominator): ${a.unmatched.length}`);
  for (const r of a.disagree) console.log(`  DISAGREE ${describeRow(r)}`);
  for (const r of a.unmatched) console.log(`  UNMATCHED ${describeRow(r)}`);
  if (process.argv.includes("--list"))
    for (const r of a.rows) console.log(`  ${r.verdict === r.ours ? "same" : "diff"} ${describeRow(r)}`);
}
