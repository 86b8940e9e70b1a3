/**
 * `npm run bench` (decoders): the request-body decoders on a document at the 25 MiB limit, timed in
 * Node (the tests check what they return, never how fast): base64 encode and decode (data: URI,
 * plain, and the portable decoder used where Uint8Array.fromBase64 is missing), and
 * readJsonWithBlobs on the 33 MB JSON body that carries it, with and without Content-Length.
 */
import { randomBytes } from "node:crypto";
import { readJsonWithBlobs } from "../src/http/body/json-blobs";
import { __portable, decodeBase64Payload, encodeBase64 } from "../src/input/base64";
import { measure, ms } from "./stats";

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
const MiB = 1024 * 1024;
const SIZE = 25 * MiB;

const doc = new Uint8Array(randomBytes(SIZE));
const b64 = encodeBase64(doc);
const body = new TextEncoder().encode(`{"document":{"base64":"data:application/pdf;base64,${b64}"},"fields":[]}`);

/** The body as a stream of 64 KiB chunks, as a socket would deliver it. */
function bodyStream(): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= body.length) return controller.close();
      controller.enqueue(body.subarray(at, Math.min(body.length, at + 65536)));
      at += 65536;
    },
  });
}

const rows: Record<string, string>[] = [];
const time = async (name: string, fn: () => unknown) => {
  const t = await measure(RUNS, async () => fn(), 1);
  rows.push({ decoder: name, runs: String(t.runs), median: ms(t.median), p95: ms(t.p95) });
};

await time("encodeBase64 (25 MiB)", () => encodeBase64(doc));
await time("decodeBase64Payload, data: URI", () =>
  decodeBase64Payload(`data:application/pdf;base64,${b64}`, { maxBytes: SIZE }),
);
await time("decodeBase64Payload, plain", () => decodeBase64Payload(b64, { maxBytes: SIZE }));
await time("portable decoder", () => __portable.decode(b64));
for (const withLength of [true, false]) {
  await time(
    `readJsonWithBlobs (${(body.length / MiB).toFixed(1)} MiB body, Content-Length ${withLength ? "given" : "absent"})`,
    () =>
      readJsonWithBlobs(bodyStream(), {
        maxBodyBytes: 40 * MiB,
        maxBlobBytes: SIZE,
        contentLength: withLength ? body.length : undefined,
      }),
  );
}
console.log("\nRequest-body decoders, 25 MiB document (Node)");
console.table(rows);
