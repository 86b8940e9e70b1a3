/**
 * Agreement of Signet's PAdES levels and ETSI EN 319 102-1 indications with what EU DSS's test
 * suite expects, over the DSS files of ../shared/corpus/pdf-signed (dss__*).
 *
 *   npx tsx scripts/verify-etsi-agreement.ts [--list]
 *
 * Expectations, per signature (document time-stamps are not DSS "signatures"):
 * - Level: where the suite asserts one (`SignatureLevel.X` for the file's first signature).
 *   MANIFEST.tsv names the test and cuts the assertion short ("SignatureLevel.PA"); the full
 *   values below were read in the named DSS tests. DSS's non-baseline formats (PAdES_BES,
 *   PAdES_EPES, PAdES_LTV: a CAdES-detached CMS outside the baseline profile; PKCS7_*;
 *   PDF_NOT_ETSI) are level null in Signet's vocabulary. Tests that extend or re-sign a file
 *   assert the level of their output, not of the file, and are left out.
 * - Indication: what MANIFEST.tsv's expectation column states (TOTAL_FAILED, HASH_FAILURE,
 *   "not intact / invalid", FORMAT_FAILURE, TOTAL_PASSED, "intact & valid"), or the DSS test's
 *   assertion; otherwise INDETERMINATE: the suite validates with an offline certificate
 *   verifier and no trusted list, so an intact signature cannot pass. Signet runs the same
 *   way (no trust anchors, no online revocation). A stated expectation applies to the file's
 *   first signature; the others expect INDETERMINATE.
 * - A signature agrees when its indication agrees (and its sub-indication, when one is
 *   stated) and, when a level is stated, its level agrees.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SignetError } from "../src/errors";
import type { SignerReport } from "../src/pdf/verify/status";
import { verifyPdf } from "../src/pdf/verify/verify-pdf";

const CORPUS = join(import.meta.dirname, "../../shared/corpus");
const SIGNED = join(CORPUS, "pdf-signed");

type Level = "B-B" | "B-T" | "B-LT" | "B-LTA" | null;
interface Expected {
  level?: Level;
  indication?: "TOTAL_PASSED" | "TOTAL_FAILED" | "INDETERMINATE" | "NOT_FAILED";
  subIndication?: string;
  /** Where the expectation comes from. */
  source: string;
}

/** Levels asserted by DSS tests (the manifest names the test; the value is read in it). */
const LEVELS: Record<string, [Level, string]> = {
  "dss__pades-bes.pdf": [null, "PAdESBESValidationTest: PAdES_BES"],
  "dss__pades-bes-no-certificates.pdf": [null, "PAdESBESNoCertificatesValidationTest: PAdES_BES"],
  "dss__pades-not-epes.pdf": [null, "PAdESBESWithSigPolicyIdentifierValidationTest: PAdES_BES"],
  "dss__pades-epes.pdf": [null, "PAdESEPESValidationTest: PAdES_EPES"],
  "dss__pades-ltv.pdf": [null, "PAdESLTVValidationTest: PAdES_LTV"],
  "dss__pades-ltv-from-epes.pdf": [null, "PAdESLTVBasedOnEPESValidationTest: PAdES_LTV"],
  "dss__pades-ltv-with-reason.pdf": [null, "PAdESLTVWithReasonValidationTest: PAdES_LTV"],
  "dss__Signature-P-FR_CS-5.pdf": [null, "PAdESWithDssVriAndCertRefTest: PAdES_LTV"],
  "dss__pades-lta-copied-doctst.pdf": ["B-LTA", "PAdESLevelLTAWithCopiedDocTstTest: PAdES_BASELINE_LTA"],
  "dss__pades-t-duplicated-doctst.pdf": ["B-T", "PAdESLevelTWithDuplicatedDocTstTest: PAdES_BASELINE_T"],
  "dss__pades-t-duplicated-sigtst.pdf": ["B-T", "PAdESLevelTWithDuplicatedSigTstTest: PAdES_BASELINE_T"],
  "dss__Signature-P-HU_POL-7.pdf": ["B-LTA", "PAdESOverwrittenDSSDictTest: PAdES_BASELINE_LTA"],
  "dss__pades-two-sig-copied-tst.pdf": ["B-T", "PAdESTwoSigWithCopiedTstTest: PAdES_BASELINE_T"],
  "dss__pades-enveloping-cms.pdf": [null, "PAdESWithEnvelopingCMSTest: PDF_NOT_ETSI"],
  "dss__pades-enveloping-empty-bytes-cms.pdf": [null, "PAdESWithEnvelopingEmptyContentCMSTest: PDF_NOT_ETSI"],
  "dss__pdf-with-vri-timestamp.pdf": ["B-B", "PAdESWithVRITimeStampTest: PAdES_BASELINE_B"],
  "dss__test-with-vri.pdf": ["B-B", "PAdESWithVRITimeTest: PAdES_BASELINE_B"],
  "dss__pdf-double-signer-info.pdf": [null, "PDFWithMultipleSignerInfoValidationTest: PDF_NOT_ETSI"],
  "dss__pkcs7-no-message-digest.pdf": [null, "PdfPkcs7SubFilterValidAndInvalidTest: PDF_NOT_ETSI"],
  "dss__pkcs7.pdf": [null, "PdfPkcs7Test: PKCS7_T"],
  "dss__timestamped_and_signed.pdf": ["B-B", "TimestampedAndSignedTest: PAdES_BASELINE_B"],
  "dss__dss-1420__PAdES-BpB-att-SHA256-SHA3_256withRSA.pdf": [null, "DSS1420Test: PAdES_BES"],
  "dss__doc-firmado-LT.pdf": ["B-LT", "DSS1469LTTest: PAdES_BASELINE_LT"],
  "dss__doc-firmado.pdf": ["B-T", "DSS1469Test: PAdES_BASELINE_T"],
  "dss__pades-tst-with-sig-type.pdf": ["B-LT", "DSS1899Test: PAdES_BASELINE_LT"],
  "dss__pades-tst-with-null-type.pdf": ["B-LTA", "DSS1899TstWithNullTypeTest: PAdES_BASELINE_LTA"],
  "dss__dss-818__Signature-P-IT_ADO-1_HASH_FAILURE_ECDSA_.pdf": [null, "DSS818ADOTest: PAdES_BES"],
  "dss__dss-818__Signature-P-DE_CRY-2_HASH_FAILURE_.pdf": [null, "DSS818CRYTest: PAdES_BES"],
  "dss__dss-818__Signature-P-SK-1_HASH_FAILURE_.pdf": [null, "DSS818SKTest: PDF_NOT_ETSI"],
  "dss__evidence-record__PAdES_with_er.pdf": [null, "PAdESWithEmbeddedEvidenceRecordTest: PAdES_BES"],
  "dss__DSS-2155.pdf": [null, "DSS2155Test: PKCS7_T"],
  "dss__DSS-2199.pdf": [null, "DSS2199Test: PKCS7_LT"],
  "dss__Signature-P-PK7-2.pdf": [null, "DSS2258Test: PKCS7_T"],
  "dss__DSS-2821.pdf": ["B-B", "DSS2821Test: PAdES_BASELINE_B"],
};

/** Indications asserted by DSS tests that the manifest's column does not spell out. */
const INDICATIONS: Record<string, [Expected["indication"], string | undefined, string]> = {
  "dss__DSS-1683.pdf": ["INDETERMINATE", undefined, "DSS1683Test (simple report)"],
  "dss__self-issued-qesig.pdf": [
    "INDETERMINATE",
    "CERTIFICATE_CHAIN_GENERAL_FAILURE",
    "PAdESEndEntityCertIssuedByNotCACertTest",
  ],
  "dss__mra__john-doe-lta.pdf": [
    "TOTAL_PASSED",
    undefined,
    "ThirdCountryLOTLTest (with the MRA trusted list configured)",
  ],
};

/** Tests that say which of several signatures fails (DSS2451Test: one TOTAL_FAILED/FORMAT_FAILURE, one not failed; pdfsig names the second). */
const PER_FIELD: Record<string, Record<string, [Expected["indication"], string | undefined, string]>> = {
  "dss__pdf-byterange-overlap.pdf": {
    Signature1: ["NOT_FAILED", undefined, "DSS2451Test: the other signature is not failed"],
    Signature2: ["TOTAL_FAILED", "FORMAT_FAILURE", "DSS2451Test: overlapping byte range (pdfsig: Digest Mismatch)"],
  },
};

function manifestExpectations(): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of readFileSync(join(CORPUS, "MANIFEST.tsv"), "utf8").split("\n")) {
    const cols = line.split("\t");
    const m = /^pdf-signed\/(dss__.*\.pdf)$/.exec(cols[0] ?? "");
    if (m) out.set(m[1]!, cols[4] ?? "");
  }
  return out;
}

/** The indication the manifest's expectation text states, if it states one. */
function statedIndication(text: string): Pick<Expected, "indication" | "subIndication"> | null {
  const expect = /EXPECT: ([^;\t]*)/.exec(text)?.[1] ?? "";
  if (/HASH_FAILURE|hash failure/.test(expect) || /HASH_FAILURE/.test(text.slice(0, 0)))
    return { indication: "TOTAL_FAILED", subIndication: "HASH_FAILURE" };
  if (/TOTAL_FAILED \/ FORMAT_FAILURE/.test(expect))
    return { indication: "TOTAL_FAILED", subIndication: "FORMAT_FAILURE" };
  if (/TOTAL_FAILED/.test(expect)) return { indication: "TOTAL_FAILED" };
  if (/not intact|expects signature not intact/.test(expect)) return { indication: "TOTAL_FAILED" };
  if (/inconsistent signature dictionary|dictionary-inconsistency|spoofing detected/.test(expect))
    return { indication: "TOTAL_FAILED", subIndication: "FORMAT_FAILURE" };
  if (/expects intact & valid/.test(expect)) return { indication: "NOT_FAILED" };
  if (/Indication\.TOTAL_PASSED/.test(text)) return { indication: "TOTAL_PASSED" };
  return null;
}

export interface EtsiRow {
  file: string;
  field: string;
  index: number;
  expected: Expected;
  signer: SignerReport | null;
  refused: string | null;
  agrees: boolean;
  levelAgrees: boolean | null;
}

function agreesIndication(e: Expected, s: SignerReport): boolean {
  const ind = e.indication ?? "INDETERMINATE";
  const main = ind === "NOT_FAILED" ? s.indication !== "TOTAL_FAILED" : s.indication === ind;
  return main && (!e.subIndication || s.subIndication === e.subIndication);
}

export async function computeEtsiAgreement(): Promise<EtsiRow[]> {
  const manifest = manifestExpectations();
  const rows: EtsiRow[] = [];
  for (const file of readdirSync(SIGNED)
    .filter((f) => f.startsWith("dss__") && f.endsWith(".pdf"))
    .sort()) {
    const text = manifest.get(file) ?? "";
    let signers: SignerReport[] = [];
    let refused: string | null = null;
    try {
      signers = (
        await verifyPdf(new Uint8Array(readFileSync(join(SIGNED, file))), { trustAnchors: [] })
      ).signers.filter((s) => s.kind === "signature");
    } catch (e) {
      if (!(e instanceof SignetError)) throw e;
      refused = `${e.code}: ${e.message}`;
    }
    const stated = statedIndication(text);
    const testStated = INDICATIONS[file];
    const level = LEVELS[file];
    const first: Expected = {
      source:
        [
          level?.[1],
          testStated?.[2],
          stated ? `MANIFEST: ${/EXPECT: ([^;\t]*)/.exec(text)?.[1] ?? "Indication"}` : null,
        ]
          .filter(Boolean)
          .join("; ") || "default (no trust anchors: INDETERMINATE)",
      ...(level ? { level: level[0] } : {}),
      ...(testStated ? { indication: testStated[0], subIndication: testStated[1] } : (stated ?? {})),
    };
    const pdfsigCount = Number(/(\d+) sig\(s\) per pdfsig/.exec(text)?.[1] ?? "0");
    if (refused) {
      for (let i = 0; i < Math.max(1, pdfsigCount); i++) {
        rows.push({
          file,
          field: "?",
          index: i,
          expected: i === 0 ? first : { source: "default" },
          signer: null,
          refused,
          agrees: false,
          levelAgrees: null,
        });
      }
      continue;
    }
    signers.forEach((s, i) => {
      const perField = PER_FIELD[file]?.[s.fieldName];
      const expected: Expected = perField
        ? { indication: perField[0], subIndication: perField[1], source: perField[2] }
        : i === 0
          ? first
          : { source: "default (no trust anchors: INDETERMINATE)" };
      const levelAgrees = "level" in expected ? s.level === expected.level : null;
      rows.push({
        file,
        field: s.fieldName,
        index: i,
        expected,
        signer: s,
        refused: null,
        agrees: agreesIndication(expected, s) && levelAgrees !== false,
        levelAgrees,
      });
    });
  }
  return rows;
}

export function describeEtsiRow(r: EtsiRow): string {
  const e = r.expected;
  const want = `${e.indication ?? "INDETERMINATE"}${e.subIndication ? `/${e.subIndication}` : ""}${"level" in e ? ` level ${e.level}` : ""}`;
  const got = r.signer
    ? `${r.signer.indication}/${r.signer.subIndication ?? "-"} level ${r.signer.level}`
    : `refused (${r.refused})`;
  return `${r.file} [${r.field}] expected ${want} (${e.source}); Signet ${got}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!existsSync(SIGNED)) throw new Error(`no corpus at ${SIGNED}`);
  const rows = await computeEtsiAgreement();
  const agree = rows.filter((r) => r.agrees).length;
  const levels = rows.filter((r) => r.levelAgrees !== null);
  console.log(`Signet level and ETSI indication vs EU DSS's test suite, dss__* files of ../shared/corpus/pdf-signed`);
  console.log(`Signatures: ${rows.length}; agree: ${agree} = ${((agree / rows.length) * 100).toFixed(1)} %`);
  console.log(
    `Of which with a level stated by the suite: ${levels.length}; level agrees: ${levels.filter((r) => r.levelAgrees).length}`,
  );
  for (const r of rows.filter((x) => !x.agrees)) console.log(`  DISAGREE ${describeEtsiRow(r)}`);
  if (process.argv.includes("--list"))
    for (const r of rows) console.log(`  ${r.agrees ? "same" : "diff"} ${describeEtsiRow(r)}`);
}
