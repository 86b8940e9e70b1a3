/**
 * `tsx bench/long-term.ts`: PAdES B-LT / B-LTA against B-T, and verifying a B-LTA file beside pdfsig.
 *
 * - Local responders, as the tests run them (test/support): the revocation PKI with its
 *   `openssl ocsp` responder, CRLs on the URL fixture server, the RFC 3161 test TSA (`/tsa/ltv`).
 *   Loopback round trips: a real deployment adds its responders' network time.
 * - Signing: POST /v1/sign through `wrangler dev` (certificate page on) at B-T, B-LT and B-LTA,
 *   warm, BENCH_RUNS runs each (default 20), median / p95. B-LT adds the OCSP and CRL fetches
 *   and the DSS update; B-LTA a second time-stamp and, for its authority, one more DSS update.
 * - Verifying the B-LTA output: POST /v1/verify (offline: the file's own validation data,
 *   the PKI's root in TRUSTED_ROOTS) beside `pdfsig` with an NSS database trusting that root
 *   (one process per run, as users run it; pdfsig reads neither the DSS nor document
 *   time-stamps), and Signet's verifier engine alone in Node.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { verifyPdf } from "../src/pdf/verify/verify-pdf";
import { parseCertificatesPem } from "../src/cms/pem";
import { startRevocationPki } from "../test/support/revocation-pki";
import { startTsaServer } from "../test/support/tsa-server";
import { startUrlFixtureServer } from "../test/support/url-fixtures";
import { startService, type RunningService } from "../test/node/support/service";
import { nssDbTrusting } from "../test/node/support/validators";
import { benchInputs } from "./inputs";
import { measure, ms } from "./stats";

const RUNS = Number(process.env.BENCH_RUNS_LTV ?? 20);
const tmp = mkdtempSync(join(tmpdir(), "signet-bench-ltv-"));
const crlDir = join(tmp, "crl");
spawnSync("mkdir", ["-p", crlDir]);
const urls = await startUrlFixtureServer({ crlDir });
const pki = await startRevocationPki({ fixtureBaseUrl: urls.baseUrl, crlDir });
const tsa = await startTsaServer({ ltvSigner: pki.tsa });
const pdf = (await benchInputs())[0]!;

const body = (level: string) =>
  JSON.stringify({
    document: { base64: Buffer.from(pdf.bytes).toString("base64") },
    signer: { name: "Ada Lovelace", email: "ada@example.com" },
    auditTrail: [{ type: "submit", timestamp: "2026-11-21T10:00:00Z" }],
    signature: { level },
  });

async function sign(svc: RunningService, level: string): Promise<Uint8Array> {
  const res = await fetch(`${svc.baseUrl}/v1/sign`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${svc.apiKey}` },
    body: body(level),
  });
  if (res.status !== 200)
    throw new Error(
      `sign ${level}: HTTP ${res.status}: ${await res.text()}\n${svc.log().split("\n").slice(-30).join("\n")}`,
    );
  const json = (await res.json()) as { document: { base64: string }; signature: { level: string } };
  if (json.signature.level !== level) throw new Error(`asked ${level}, got ${json.signature.level}`);
  return new Uint8Array(Buffer.from(json.document.base64.split(",")[1]!, "base64"));
}

console.log(
  `Signet long-term signing benchmark (${pdf.name}, local responders), ${RUNS} runs each after warm-up, ${new Date().toISOString()}\n`,
);
const svc = await startService({
  SIGNING_KEY: pki.signers.good.keyPem,
  SIGNING_CERT: pki.signers.good.chainPem,
  TRUSTED_ROOTS: pki.rootPem,
  TSA_URL: `${tsa.url}/ltv`,
  ALLOW_PRIVATE_URLS: "true",
  RATE_LIMITS: "off",
});
try {
  const rows: string[] = [];
  const timings: Record<string, number> = {};
  let lta: Uint8Array | null = null;
  for (const level of ["B-T", "B-LT", "B-LTA"]) {
    const t = await measure(RUNS, async () => {
      const out = await sign(svc, level);
      if (level === "B-LTA") lta = out;
    });
    timings[level] = t.median;
    rows.push(
      `| ${level} | ${ms(t.median)} / ${ms(t.p95)} | ${level === "B-T" ? "" : `+${ms(t.median - timings["B-T"]!)}`} |`,
    );
  }
  console.log("| level | POST /v1/sign (median / p95) | over B-T |");
  console.log("|---|---|---|");
  for (const r of rows) console.log(r);

  const file = join(tmp, "lta.pdf");
  writeFileSync(file, lta!);
  const nssDir = await nssDbTrusting(pki.rootPem);
  const verifyBody = JSON.stringify({ document: { base64: Buffer.from(lta!).toString("base64") } });
  const http = await measure(RUNS, async () => {
    const res = await fetch(`${svc.baseUrl}/v1/verify`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: verifyBody,
    });
    const json = (await res.json()) as { signers: { indication: string }[] };
    if (json.signers[0]?.indication !== "TOTAL_PASSED")
      throw new Error(`verify: ${JSON.stringify(json).slice(0, 300)}`);
  });
  const anchors = parseCertificatesPem(pki.rootPem, "root");
  const engine = await measure(RUNS, () => verifyPdf(lta!, { trustAnchors: anchors }));
  const pdfsig = await measure(RUNS, async () => {
    const r = spawnSync("pdfsig", ["-nssdir", nssDir, file], { stdio: "ignore", timeout: 60_000 });
    if (r.error) throw r.error;
  });
  console.log(
    `\nVerifying the B-LTA file (${(lta!.length / 1024).toFixed(0)} KiB: signature, DSS, document time-stamp, DSS):`,
  );
  console.log("| verifier | median / p95 |");
  console.log("|---|---|");
  console.log(
    `| Signet POST /v1/verify (revocation from the DSS, level, indication) | ${ms(http.median)} / ${ms(http.p95)} |`,
  );
  console.log(`| Signet engine in Node | ${ms(engine.median)} / ${ms(engine.p95)} |`);
  console.log(
    `| pdfsig (process per file; no DSS, no document time-stamps) | ${ms(pdfsig.median)} / ${ms(pdfsig.p95)} |`,
  );
} finally {
  await svc.stop();
  await tsa.close();
  await pki.close();
  await urls.close();
  rmSync(tmp, { recursive: true, force: true });
}
