/**
 * `npm run bench`: Signet against its peers on the same files, in the same run.
 *
 * - HTTP: a Node client → `wrangler dev` (as users run it: certificate page on,
 *   D1 and R2 writes, an eventId per request), warm, ≥ 30 runs, median / p95.
 * - Engine: Signet's signing engine alone in Node (no HTTP, no certificate page)
 *   beside @signpdf (placeholder-plain + P12 signer), the peer of issue #2.
 * - HTTP twice: JSON in and out (the default), and multipart in with the PDF out
 *   (`Accept: application/pdf`), the binary path for large files.
 * - Memory: the workerd process's resident memory in a fresh service over 30
 *   consecutive 25 MB signatures (binary path), sampled every 5, and its peak.
 */
import forge from "node-forge";
import { SignPdf } from "@signpdf/signpdf";
import { P12Signer } from "@signpdf/signer-p12";
import { plainAddPlaceholder } from "@signpdf/placeholder-plain";
import { buildCadesDetachedSignature } from "../src/cms/cades";
import { loadSigningIdentity } from "../src/cms/signing-identity";
import { PdfReader } from "../src/pdf/reader";
import { inspectForSigning } from "../src/pdf/sign/inspect";
import { signPdf } from "../src/pdf/sign/sign-pdf";
import { devSecrets, startService } from "../test/node/support/service";
import { benchInputs, signRequestJson, signRequestMultipart } from "./inputs";
import { mb, measure, ms, workerdPeakRss, type Timing } from "./stats";
import { Inspector } from "./cdp";

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const only = process.argv.slice(2);

const { vars } = devSecrets();
const identity = await loadSigningIdentity(vars.SIGNING_KEY!, vars.SIGNING_CERT!);

// The peer signs with a PKCS#12 holding the same key and chain.
const p12 = (() => {
  const key = forge.pki.privateKeyFromPem(vars.SIGNING_KEY!);
  const certs = vars
    .SIGNING_CERT!.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)!
    .map((p) => forge.pki.certificateFromPem(p));
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, certs, "bench", { algorithm: "3des" });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), "binary");
})();

async function signetEngine(bytes: Uint8Array) {
  const reader = PdfReader.open(bytes);
  const inspection = inspectForSigning(reader);
  return signPdf({
    reader,
    inspection,
    signedAt: new Date(),
    signerName: "Ada Lovelace",
    signerEmail: "ada@example.com",
    reason: "Signed electronically by Ada Lovelace",
    attachment: { bytes: new TextEncoder().encode('{"auditTrail":[]}'), description: "evidence" },
    contentsCapacity: 8192,
    buildSignature: (digest) => buildCadesDetachedSignature({ identity, contentDigest: digest }),
  });
}

async function signpdfPeer(bytes: Uint8Array) {
  const withPlaceholder = plainAddPlaceholder({
    pdfBuffer: Buffer.from(bytes),
    reason: "Signed electronically by Ada Lovelace",
    contactInfo: "ada@example.com",
    name: "Ada Lovelace",
    location: "",
    signatureLength: 8192,
  });
  return new SignPdf().sign(withPlaceholder, new P12Signer(p12, { passphrase: "bench" }));
}

const inputs = (await benchInputs()).filter((i) => !only.length || only.some((o) => i.name.includes(o)));
const rows: string[][] = [];
const row = (...cells: string[]) => rows.push(cells);
const ratio = (peer: Timing, ours: Timing) => `${(peer.median / ours.median).toFixed(1)}x`;

const body = signRequestJson;

/**
 * The in-process peer runs block this client's event loop for up to a minute (@signpdf on 25 MB), long enough
 * for wrangler dev to close the idle keep-alive connection unnoticed: the next POST would then be written into
 * a closed socket (EPIPE). A GET first, retried, leaves the pool with live connections.
 */
async function reconnect(baseUrl: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await (await fetch(`${baseUrl}/healthz`)).arrayBuffer();
      return;
    } catch (err) {
      if (attempt >= 3) throw err;
    }
  }
}

console.log(`Signet benchmark, ${RUNS} runs each after warm-up, ${new Date().toISOString()}\n`);
const svc = await startService({ RATE_LIMITS: "off" }); // measure the service, not its rate limits
let counter = 0;
let floor: Timing | null = null;
try {
  // What any request costs through wrangler dev on this machine: the service's cheapest route
  // (no key, no body, one access-log line). Signing cannot be faster than this.
  floor = await measure(RUNS, async () => void (await (await fetch(`${svc.baseUrl}/healthz`)).arrayBuffer()));
  for (const input of inputs) {
    const runs = RUNS;
    const engine = await measure(runs, () => signetEngine(input.bytes));
    const peer = await measure(runs, () => signpdfPeer(input.bytes));
    const requestBodies = () => body(input.bytes, `bench-${process.pid}-${counter++}`);
    await reconnect(svc.baseUrl);
    const http = await measure(runs, async () => {
      const res = await fetch(`${svc.baseUrl}/v1/sign`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${svc.apiKey}` },
        body: requestBodies(),
      });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    });
    await reconnect(svc.baseUrl);
    const binary = await measure(runs, async () => {
      const res = await fetch(`${svc.baseUrl}/v1/sign`, {
        method: "POST",
        headers: { Accept: "application/pdf", Authorization: `Bearer ${svc.apiKey}` },
        body: signRequestMultipart(input.bytes, `bench-${process.pid}-${counter++}`),
      });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    });
    row(
      input.name,
      mb(input.bytes.length),
      `${ms(engine.median)} / ${ms(engine.p95)}`,
      `${ms(peer.median)} / ${ms(peer.p95)}`,
      ratio(peer, engine),
      `${ms(http.median)} / ${ms(http.p95)}`,
      ratio(peer, http),
      `${ms(binary.median)} / ${ms(binary.p95)}`,
      ratio(peer, binary),
    );
  }
} finally {
  await svc.stop();
}

console.log(
  "| file | size | Signet engine (median / p95) | @signpdf (median / p95) | engine speed-up | Signet HTTP, JSON (median / p95) | JSON speed-up vs @signpdf | Signet HTTP, multipart in, PDF out (median / p95) | binary speed-up vs @signpdf |",
);
console.log("|---|---|---|---|---|---|---|---|---|");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
if (floor)
  console.log(
    `\nGET /healthz through the same wrangler dev (the floor of any request): ${ms(floor.median)} / ${ms(floor.p95)}.`,
  );

// Memory: a fresh service, warmed on the 1-page file, then the 25 MB file signed 30 times in a row
// (multipart in, PDF out); workerd's resident memory (which also holds the runtime and the local
// D1/R2) after every 5 should level off, not grow with each signature.
const big = inputs.find((i) => i.name === "25mb.pdf");
if (big) {
  const fresh = await startService({ RATE_LIMITS: "off" }); // measure the service, not its rate limits
  try {
    const small = (await benchInputs())[0]!;
    for (let i = 0; i < 3; i++) {
      await (
        await fetch(`${fresh.baseUrl}/v1/sign`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${fresh.apiKey}` },
          body: body(small.bytes, `mem-${i}`),
        })
      ).arrayBuffer();
    }
    // The worker isolate's own V8 heap and array-buffer memory, beside the process's RSS (which also
    // holds the runtime, the local D1/R2 emulation and memory the allocator keeps).
    const inspector = await Inspector.connect(fresh.inspectorPort);
    const isolate = async () => {
      const h = await inspector.send<{ usedSize: number; totalSize: number; backingStorageSize: number }>(
        "Runtime.getHeapUsage",
      );
      return `isolate heap ${mb(h.usedSize)} of ${mb(h.totalSize)}, buffers ${mb(h.backingStorageSize)}`;
    };
    const before = `${mb(workerdPeakRss(fresh.pid!, "VmRSS"))} (${await isolate()})`;
    const samples: string[] = [];
    for (let i = 1; i <= 30; i++) {
      const res = await fetch(`${fresh.baseUrl}/v1/sign`, {
        method: "POST",
        headers: { Accept: "application/pdf", Authorization: `Bearer ${fresh.apiKey}` },
        body: signRequestMultipart(big.bytes, `mem-big-${i}`),
      });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      if (i % 5 === 0) samples.push(`${i}: ${mb(workerdPeakRss(fresh.pid!, "VmRSS"))} (${await isolate()})`);
    }
    const peak = workerdPeakRss(fresh.pid!);
    inspector.close();
    console.log(
      `\nworkerd RSS: ${before} after start-up and warm-up; after n consecutive 25 MB signatures ${samples.join(", ")}; peak ${mb(peak)}.`,
    );
  } finally {
    await fresh.stop();
  }
}
