/**
 * `npm run bench:memory`: the memory of the operation path of a 25 MB signature and verification
 * (body in, engine, response out), measured where memory can be counted: the worker's own Hono app in
 * Node, with real local D1 and R2 (wrangler's getPlatformProxy: those of `wrangler dev`). The body
 * arrives as a stream in 64 KiB chunks (multipart, or the raw PDF for verify) and the response is read
 * as a stream and hashed, never joined. Reported per request: the peak of V8's heap and of
 * ArrayBuffer memory (the document's bytes live there, outside the heap) above what the process held
 * before it, sampled every 2 ms and at every chunk.
 *
 * Why not `--max-old-space-size=128` around it all: in Node the harness alone holds more heap than that
 * (wrangler's platform proxy ~146 MB, the app's modules through tsx ~74 MB), so the figure that says
 * whether a request fits the isolate is what the request adds. Node also lacks workerd's
 * crypto.DigestStream, so hashing here joins segments first (one more copy of the output than in
 * workerd): the ArrayBuffer figures are an upper bound for the isolate.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { getPlatformProxy } from "wrangler";
import app from "../src/index";
import { devSecrets } from "../test/node/support/service";
import { benchInputs, OUT, signRequestFields } from "./inputs";
import { mb } from "./stats";

const ROOT = new URL("../", import.meta.url).pathname;
// workerd's crypto.subtle.timingSafeEqual (API-key checks), which Node's WebCrypto lacks: Node's own.
(crypto.subtle as unknown as { timingSafeEqual: (a: ArrayBufferView, b: ArrayBufferView) => boolean }).timingSafeEqual =
  (a, b) =>
    timingSafeEqual(
      new Uint8Array(a.buffer, a.byteOffset, a.byteLength),
      new Uint8Array(b.buffer, b.byteOffset, b.byteLength),
    );
// workerd's FixedLengthStream (R2 puts of a known length): an identity transform here.
(globalThis as { FixedLengthStream?: unknown }).FixedLengthStream ??= class extends TransformStream<
  Uint8Array,
  Uint8Array
> {
  constructor(_length: number) {
    super();
  }
};
// The access log's JSON lines would bury the table.
const log = console.log.bind(console);
console.log = (...args: unknown[]) => {
  if (!(typeof args[0] === "string" && args[0].startsWith('{"time"'))) log(...args);
};
const { vars, apiKey } = devSecrets();

const platform = await getPlatformProxy<{ DB: D1Database; REPLAYS: R2Bucket }>({
  configPath: join(ROOT, "wrangler.toml"),
  persist: { path: mkdtempSync(join(tmpdir(), "signet-memory-")) },
});
// R2 through the platform proxy takes only bodies of a known length (workerd's FixedLengthStream, which
// Node lacks): the stream Signet hands R2 is gathered into a Blob first, one copy the isolate never makes.
// That copy (and the proxy's transport) is kept out of the measured window: the put waits until the
// client has read the whole response.
const replays = platform.env.REPLAYS;
let responseRead: Promise<void> = Promise.resolve();
const REPLAYS = Object.assign(Object.create(replays) as R2Bucket, {
  put: async (key: string, value: unknown, options?: R2PutOptions) => {
    await responseRead;
    if (!(value instanceof ReadableStream)) return replays.put(key, value as Blob, options);
    const parts: Uint8Array[] = [];
    for await (const part of value as ReadableStream<Uint8Array>) parts.push(part);
    return replays.put(key, new Blob(parts), options);
  },
  get: (key: string) => replays.get(key),
  head: (key: string) => replays.head(key),
  delete: (key: string) => replays.delete(key),
});
const env = { ...vars, RATE_LIMITS: "off", DB: platform.env.DB, REPLAYS };
for (const file of ["0001_signing_events.sql", "0002_evidence_reference.sql", "0003_api_keys.sql"]) {
  const sql = readFileSync(join(ROOT, "migrations", file), "utf8");
  for (const statement of sql
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter((s) => s && !/^--[^\n]*$/.test(s)))
    await env.DB.prepare(statement).run();
}

let heapPeak = 0;
let buffersPeak = 0;
const sample = () => {
  const m = process.memoryUsage();
  heapPeak = Math.max(heapPeak, m.heapUsed);
  buffersPeak = Math.max(buffersPeak, m.arrayBuffers);
};
const sampler = setInterval(sample, 2);

/** A stream of `parts`, each handed out in 64 KiB chunks (as a socket would). */
function chunked(parts: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      sample();
      if (i >= parts.length) return controller.close();
      const part = parts[i]!;
      controller.enqueue(part.slice(at, at + 65_536));
      at += 65_536;
      if (at >= part.length) {
        i++;
        at = 0;
      }
    },
  });
}

async function call(
  path: string,
  body: ReadableStream<Uint8Array>,
  headers: Record<string, string>,
  keep = false,
): Promise<{
  status: number;
  sha256: string;
  headers: Headers;
  kept: Uint8Array[];
  peaks: { heap: number; buffers: number };
}> {
  const waits: Promise<unknown>[] = [];
  const ctx = { waitUntil: (p: Promise<unknown>) => void waits.push(p), passThroughOnException() {}, props: {} };
  const req = new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${apiKey}`, ...headers },
    body,
    duplex: "half",
  } as RequestInit);
  let read!: () => void;
  responseRead = new Promise((resolve) => (read = resolve));
  const res = await app.fetch(req, env as never, ctx as never);
  const hash = createHash("sha256");
  const kept: Uint8Array[] = [];
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    sample();
    if (done) break;
    hash.update(value);
    if (keep) kept.push(value);
  }
  const peaks = { heap: heapPeak, buffers: buffersPeak };
  read();
  await Promise.all(waits);
  return { status: res.status, sha256: hash.digest("hex"), headers: res.headers, kept, peaks };
}

const big = (await benchInputs()).find((i) => i.name === "25mb.pdf")!;
const enc = new TextEncoder();
const boundary = "signet-bench-boundary";
const multipart = (eventId: string) => [
  enc.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="request"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(signRequestFields(eventId))}\r\n`,
  ),
  enc.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="25mb.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  ),
  big.bytes,
  enc.encode(`\r\n--${boundary}--\r\n`),
];

const mode = process.argv[2] === "verify" ? "verify" : "sign";
const SIGNED = join(OUT, "25mb.signed.pdf");
const toVerify = mode === "verify" ? new Uint8Array(readFileSync(SIGNED)) : null;
global.gc?.();
const base = process.memoryUsage();
const above = (peak: number, rest: number) => `${mb(Math.max(0, peak - rest))} (${mb(peak)})`;
if (mode === "sign") {
  console.log(
    `Node ${process.version}; before the requests: heap ${mb(base.heapUsed)} (the app, wrangler's platform proxy), ArrayBuffers ${mb(base.arrayBuffers)} (incl. the client's copy of the 25 MB input), RSS ${mb(base.rss)}\n`,
  );
  console.log(
    "| request (25 MB PDF) | status | V8 heap peak above that (absolute) | ArrayBuffers peak above that (absolute) |\n|---|---|---|---|",
  );
}
const headers = { "Content-Type": `multipart/form-data; boundary=${boundary}`, Accept: "application/pdf" };
for (let run = 0; run < 3; run++) {
  global.gc?.();
  heapPeak = 0;
  buffersPeak = 0;
  const last = run === 2;
  const res =
    mode === "sign"
      ? await call("/v1/sign", chunked(multipart(`memory-${process.pid}-${run}`)), headers, last)
      : await call("/v1/verify", chunked([toVerify!]), { "Content-Type": "application/pdf" });
  if (mode === "sign" && JSON.parse(res.headers.get("signet-result") ?? "{}").sha256 !== res.sha256)
    throw new Error("the streamed PDF does not match Signet-Result's sha256");
  const what = mode === "sign" ? "sign, multipart in, PDF out" : "verify, raw PDF body";
  console.log(
    `| ${what} (run ${run + 1}) | ${res.status} | ${above(res.peaks.heap, base.heapUsed)} | ${above(res.peaks.buffers, base.arrayBuffers)} |`,
  );
  if (mode === "sign" && last) writeFileSync(SIGNED, Buffer.concat(res.kept));
}
clearInterval(sampler);
await platform.dispose();
