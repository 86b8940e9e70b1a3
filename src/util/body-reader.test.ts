import { describe, expect, it } from "vitest";
import { concatBytes } from "./bytes";
import { openBodyReader } from "./body-reader";

function bytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (i * 31 + seed) & 0xff;
  return out;
}

/** A byte stream that has queued `chunks` before anyone reads (as a request body that has arrived). */
function byteStream(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    type: "bytes",
    start(controller) {
      for (const c of chunks) controller.enqueue(c.slice());
      controller.close();
    },
  });
}

async function readAll(stream: ReadableStream<Uint8Array>) {
  const reader = openBodyReader(stream);
  const pieces: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    pieces.push(value);
  }
  return pieces;
}

describe("openBodyReader", () => {
  it("reads a byte stream that arrived in 4 KiB chunks in a few large pieces, every byte in order", async () => {
    const chunks = Array.from({ length: 200 }, (_, i) => bytes(4096, i));
    const pieces = await readAll(byteStream(chunks));
    expect(concatBytes(pieces)).toEqual(concatBytes(chunks));
    expect(pieces.length).toBeLessThanOrEqual(4); // 800 KiB in 256 KiB pieces, not 200 reads
  });

  it("hands small pieces over as copies that later reads do not overwrite", async () => {
    const first = bytes(100, 1);
    const second = bytes(100, 2);
    // One chunk per pull: each read gets only what one pull delivered.
    let i = 0;
    const source = [first, second];
    const stream = new ReadableStream({
      type: "bytes",
      pull(controller) {
        const next = source[i++];
        if (next) controller.enqueue(next.slice());
        else controller.close();
      },
    });
    const pieces = await readAll(stream);
    expect(pieces.map((p) => p.length)).toEqual([100, 100]);
    expect(pieces[0]).toEqual(first);
    expect(pieces[1]).toEqual(second);
    expect(pieces[0]!.buffer.byteLength).toBe(100); // not a view on the 256 KiB read buffer
  });

  it("reads a stream that is not a byte stream chunk by chunk, as it comes", async () => {
    const chunks = [bytes(10, 3), bytes(20, 4), bytes(30, 5)];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const c of chunks) controller.enqueue(c);
        controller.close();
      },
    });
    const pieces = await readAll(stream);
    expect(pieces).toEqual(chunks);
  });
});
