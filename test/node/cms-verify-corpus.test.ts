/**
 * The CMS verifier against PDFs signed by other tools (../shared/corpus/pdf-signed),
 * compared with poppler's pdfsig per signature.
 *
 * Signatures are found with a small regex extractor (every /ByteRange in the file, its
 * /Contents taken from the byte-range gap): the real PDF reader is another module's job,
 * this test only needs the CMS and the signed bytes. Signatures are matched with pdfsig's
 * by their byte ranges. Ours is "valid" when intact && signatureValid; pdfsig reaches a
 * verdict with "Signature is Valid", "Signature is Invalid" or "Digest Mismatch" (not with
 * "not yet verified", "Unknown Validation Failure" or an unreadable file).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type CmsVerification, type DigestName, createHasher, verifyCmsSignature } from "../../src/cms/verify";

const CORPUS = join(__dirname, "../../../shared/corpus/pdf-signed");
const hasCorpus = existsSync(CORPUS);
const hasPdfsig = spawnSync("pdfsig", ["-v"]).status === 0;

interface Extracted {
  byteRange: [number, number, number, number];
  cms: Uint8Array;
  subFilter: string;
  claimedTime: Date | null;
}

function latin1(bytes: Uint8Array): string {
  let s = "";
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) s += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return s;
}

function hexToBytes(hex: string): Uint8Array {
  const clean = hex.replace(/[^0-9a-fA-F]/g, "");
  const even = clean.length % 2 ? clean + "0" : clean;
  const out = new Uint8Array(even.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(even.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function pdfDate(s: string): Date | null {
  const m = /^D:(\d{4})(\d\d)?(\d\d)?(\d\d)?(\d\d)?(\d\d)?([Zz+-])?(\d\d)?'?(\d\d)?/.exec(s);
  if (!m) return null;
  const [y, mo = "01", d = "01", h = "00", mi = "00", se = "00"] = m.slice(1, 7);
  let t = Date.UTC(+y!, +mo - 1, +d, +h, +mi, +se);
  if (m[7] === "+" || m[7] === "-") t -= (m[7] === "-" ? -1 : 1) * (+(m[8] ?? 0) * 60 + +(m[9] ?? 0)) * 60_000;
  return Number.isFinite(t) ? new Date(t) : null;
}

/** Every signature dictionary of a file, found by its /ByteRange (deduplicated). */
function extractSignatures(bytes: Uint8Array): Extracted[] {
  const text = latin1(bytes);
  const out: Extracted[] = [];
  const seen = new Set<string>();
  const re = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;
  for (let m; (m = re.exec(text));) {
    const br = [m[1], m[2], m[3], m[4]].map(Number) as [number, number, number, number];
    const key = br.join(",");
    if (seen.has(key)) continue;
    const [a, b, c, d] = br;
    if (a !== 0 || c < a + b || c + d > bytes.length) continue;
    const gap = text.slice(a + b, c);
    let hex: string | null = null;
    if (/^\s*</.test(gap) && /\>\s*$/.test(gap)) hex = gap.replace(/^\s*</, "").replace(/>\s*$/, "");
    // The dictionary around the /ByteRange: from the preceding "obj" to the next "endobj".
    const objStart = Math.max(0, text.lastIndexOf(" obj", m.index));
    let objEnd = text.indexOf("endobj", m.index);
    if (objEnd < 0) objEnd = Math.min(text.length, m.index + 65536);
    const dict = text.slice(objStart, objEnd);
    if (hex === null) {
      const cm = /\/Contents\s*<([0-9A-Fa-f\s]*)>/.exec(dict);
      if (!cm) continue;
      hex = cm[1]!;
    }
    const dictOutsideContents = text.slice(objStart, a + b) + text.slice(c, objEnd);
    const sf = /\/SubFilter\s*\/([^\s/<>[\]()]+)/.exec(dictOutsideContents);
    const mt = /\/M\s*\((D:[^)]*)\)/.exec(dictOutsideContents);
    seen.add(key);
    out.push({
      byteRange: br,
      cms: hexToBytes(hex),
      subFilter: sf ? sf[1]! : "adbe.pkcs7.detached",
      claimedTime: mt ? pdfDate(mt[1]!) : null,
    });
  }
  return out;
}

const NODE_HASH: Partial<Record<DigestName, string>> = {
  MD5: "md5",
  "SHA-1": "sha1",
  "SHA-224": "sha224",
  "SHA-256": "sha256",
  "SHA-384": "sha384",
  "SHA-512": "sha512",
  "SHA3-224": "sha3-224",
  "SHA3-256": "sha3-256",
  "SHA3-384": "sha3-384",
  "SHA3-512": "sha3-512",
};

function rangesDigest(bytes: Uint8Array, br: readonly number[], alg: DigestName): Uint8Array {
  const parts = [bytes.subarray(br[0]!, br[0]! + br[1]!), bytes.subarray(br[2]!, br[2]! + br[3]!)];
  const nodeName = NODE_HASH[alg];
  if (nodeName) {
    const h = createHash(nodeName);
    for (const p of parts) h.update(p);
    return new Uint8Array(h.digest());
  }
  const h = createHasher(alg);
  for (const p of parts) h.update(p);
  return h.digest();
}

interface PdfsigSignature {
  field: string;
  key: string | null;
  validation: string;
  verdict: boolean | null;
}

function runPdfsig(file: string): PdfsigSignature[] {
  const r = spawnSync("pdfsig", ["-nocert", file], { encoding: "latin1", timeout: 60_000 });
  const out: PdfsigSignature[] = [];
  const blocks = (r.stdout ?? "").split(/^Signature #\d+:$/m).slice(1);
  for (const block of blocks) {
    const field = /Signature Field Name: (.*)$/m.exec(block)?.[1]?.trim() ?? "";
    const ranges = /Signed Ranges: \[(\d+) - (\d+)\], \[(\d+) - (\d+)\]/.exec(block);
    const key = ranges
      ? [+ranges[1]!, +ranges[2]! - +ranges[1]!, +ranges[3]!, +ranges[4]! - +ranges[3]!].join(",")
      : null;
    const validation = /Signature Validation: (.*)$/m.exec(block)?.[1]?.trim() ?? "(none)";
    let verdict: boolean | null = null;
    if (/^Signature is Valid/.test(validation)) verdict = true;
    else if (/^Signature is Invalid|^Digest Mismatch/.test(validation)) verdict = false;
    out.push({ field, key, validation, verdict });
  }
  return out;
}

const hasOpenssl = spawnSync("openssl", ["version"]).status === 0;
const tmp = mkdtempSync(join(tmpdir(), "signet-cms-corpus-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** OpenSSL's verdict on a detached CMS signature over the given bytes (the tie-breaker). */
function opensslVerdict(cms: Uint8Array, bytes: Uint8Array, br: readonly number[]): boolean | null {
  if (!hasOpenssl) return null;
  const sig = join(tmp, "sig.p7s");
  const data = join(tmp, "data.bin");
  writeFileSync(sig, cms);
  writeFileSync(
    data,
    Buffer.concat([bytes.subarray(br[0]!, br[0]! + br[1]!), bytes.subarray(br[2]!, br[2]! + br[3]!)]),
  );
  const r = spawnSync(
    "openssl",
    ["cms", "-verify", "-binary", "-noverify", "-inform", "DER", "-in", sig, "-content", data, "-out", "/dev/null"],
    {
      encoding: "utf8",
    },
  );
  if (/Verification successful/.test(r.stderr + r.stdout)) return true;
  if (/Verification failure|content verify error|signature failure|digest failure/i.test(r.stderr + r.stdout))
    return false;
  return null;
}

/**
 * Disagreements understood and accepted, with the reason (file name → reason). Every
 * disagreement the run finds must be listed here.
 */
const EXPLAINED: Record<string, string> = {
  "dss__pades-enveloping-cms.pdf":
    "the CMS encapsulates the signed bytes themselves (eContent = byte ranges, message-digest matches); pdfsig treats any eContent as an embedded digest (the adbe.pkcs7.sha1 model) and reports Digest Mismatch",
};

function explanation(r: Row): string | null {
  if (EXPLAINED[r.file]) return EXPLAINED[r.file]!;
  if (r.openssl !== null && r.openssl === r.ours) {
    return `OpenSSL cms -verify agrees with us (${r.openssl ? "verifies" : "fails"}); pdfsig's NSS backend differs`;
  }
  return null;
}

interface Row {
  file: string;
  field: string;
  pdfsig: string;
  verdict: boolean | null;
  ours: boolean;
  /** OpenSSL's verdict, asked only where we and pdfsig disagree. */
  openssl: boolean | null;
  result: CmsVerification;
}

describe.skipIf(!hasCorpus || !hasPdfsig)("CMS verifier vs pdfsig over the signed corpus", () => {
  it("agrees with pdfsig on at least 95 % of the signatures where pdfsig reaches a verdict", async () => {
    const files = readdirSync(CORPUS)
      .filter((f) => f.endsWith(".pdf"))
      .sort();
    const rows: Row[] = [];
    let extractedCount = 0;
    let unmatched = 0;
    const started = Date.now();
    for (const file of files) {
      const path = join(CORPUS, file);
      const bytes = new Uint8Array(readFileSync(path));
      const sigs = extractSignatures(bytes);
      extractedCount += sigs.length;
      const theirs = runPdfsig(path);
      for (const sig of sigs) {
        const result = await verifyCmsSignature({
          cms: sig.cms,
          subFilter: sig.subFilter,
          content: { digest: async (alg) => rangesDigest(bytes, sig.byteRange, alg) },
          trustAnchors: [],
          claimedTime: sig.claimedTime,
        });
        const match = theirs.find((t) => t.key === sig.byteRange.join(","));
        if (!match) {
          unmatched++;
          continue;
        }
        const ours = result.intact === true && result.signatureValid === true;
        const disagrees = match.verdict !== null && match.verdict !== ours;
        rows.push({
          file,
          field: match.field,
          pdfsig: match.validation,
          verdict: match.verdict,
          ours,
          openssl: disagrees && result.kind === "signature" ? opensslVerdict(sig.cms, bytes, sig.byteRange) : null,
          result,
        });
      }
    }
    const judged = rows.filter((r) => r.verdict !== null);
    const agree = judged.filter((r) => r.ours === r.verdict);
    const disagree = judged.filter((r) => r.ours !== r.verdict);
    const rate = judged.length ? agree.length / judged.length : 1;
    const lines = [
      `CMS verifier vs pdfsig: ${files.length} files, ${extractedCount} signatures extracted, ${rows.length} matched to pdfsig (${unmatched} unmatched)`,
      `pdfsig verdicts: ${judged.length}; agreement ${agree.length}/${judged.length} = ${(rate * 100).toFixed(1)} % (${(Date.now() - started) / 1000} s)`,
      ...disagree.map((r) => {
        const why = explanation(r) ?? "UNEXPLAINED";
        const probs = r.result.problems
          .filter((p) => p.severity === "error")
          .map((p) => p.code)
          .join(",");
        return `  DISAGREE ${r.file} [${r.field}] pdfsig="${r.pdfsig}" ours=${r.ours} (intact=${r.result.intact} sig=${r.result.signatureValid} ${r.result.signatureAlgorithm}/${r.result.digestAlgorithm} ${probs}) — ${why}`;
      }),
    ];
    const noVerdict = rows.filter((r) => r.verdict === null);
    lines.push(
      `No pdfsig verdict on ${noVerdict.length} signatures; ours valid on ${noVerdict.filter((r) => r.ours).length} of them:`,
      ...noVerdict.map(
        (r) =>
          `  ${r.file} [${r.field}] pdfsig="${r.pdfsig}" ours=${r.ours} (intact=${r.result.intact} sig=${r.result.signatureValid} ${r.result.signatureAlgorithm}/${r.result.digestAlgorithm} ${r.result.problems
            .filter((p) => p.severity === "error")
            .map((p) => p.code)
            .join(",")})`,
      ),
    );
    console.log(lines.join("\n"));
    expect(judged.length).toBeGreaterThan(200);
    expect(rate).toBeGreaterThanOrEqual(0.95);
    expect(disagree.filter((r) => !explanation(r)).map((r) => `${r.file} [${r.field}]`)).toEqual([]);
  });
});
