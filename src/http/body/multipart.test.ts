import { describe, expect, it } from "vitest";
import { ClientAborted, InvalidRequest, LimitExceeded, RequestTimeout, SignetError } from "../../errors";
import { concatBytes, toHex } from "../../util/bytes";
import { multipartBoundary, readMultipart, type ReadMultipartOptions } from "./multipart";

const enc = new TextEncoder();
const BOUNDARY = "----signet-test-boundary";
const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

function pseudoRandomBytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    out[i] = seed >>> 24;
  }
  return out;
}

const concat = (parts: (string | Uint8Array)[]) =>
  concatBytes(parts.map((p) => (typeof p === "string" ? enc.encode(p) : p)));

/** A body of `parts`, each `[headers, data]`, between the boundaries. */
function body(
  parts: [string, string | Uint8Array][],
  opts: { preamble?: string; epilogue?: string; close?: boolean } = {},
): Uint8Array {
  const pieces: (string | Uint8Array)[] = [opts.preamble ?? ""];
  for (const [headers, data] of parts) pieces.push(`--${BOUNDARY}\r\n${headers}\r\n\r\n`, data, "\r\n");
  if (opts.close !== false) pieces.push(`--${BOUNDARY}--`, opts.epilogue ?? "\r\n");
  return concat(pieces);
}

const fileHeaders = (name = "file", type = "application/pdf") =>
  `Content-Disposition: form-data; name="${name}"; filename="contract.pdf"\r\nContent-Type: ${type}`;
const requestHeaders = 'Content-Disposition: form-data; name="request"\r\nContent-Type: application/json';

function streamOf(bytes: Uint8Array, chunk: (i: number) => number = () => bytes.length): ReadableStream<Uint8Array> {
  let at = 0;
  let n = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      const size = Math.max(1, chunk(n++));
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

const rules = (extra: Partial<ReadMultipartOptions> = {}): ReadMultipartOptions => ({
  parts: {
    file: {
      maxBytes: 1 << 20,
      tooLarge: () => new LimitExceeded("document_too_large", "document too large"),
      sha256: true,
      presize: true,
    },
    request: {
      maxBytes: 4096,
      tooLarge: () => new LimitExceeded("payload_too_large", "request too large"),
      contentTypes: ["application/json", "text/plain"],
    },
  },
  maxBodyBytes: 2 << 20,
  ...extra,
});

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}

async function failure(promise: Promise<unknown>): Promise<SignetError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SignetError);
  return err as SignetError;
}

describe("readMultipart: what arrives is what the parts held", () => {
  // Data that looks like the delimiter, CRLFs at every place, and a CR right before the real boundary.
  const tricky = concat([
    `\r\n--${BOUNDARY.slice(0, 10)}`,
    "\r\n\r\n",
    pseudoRandomBytes(3000, 7),
    `\r\n-${BOUNDARY}`,
    "\r",
    "\r\n--",
    "\r",
  ]);
  const request = JSON.stringify({ signer: { name: "Zoë Ωmega" } });
  const whole = body(
    [
      [fileHeaders(), tricky],
      [requestHeaders, request],
    ],
    { preamble: "ignored preamble\r\n", epilogue: "\r\nignored epilogue" },
  );

  it("splits file and request exactly, with the file's SHA-256, in any chunking (every split point, 1-byte chunks, one chunk)", async () => {
    const digest = await sha256Hex(tricky);
    const chunkings: ((i: number) => number)[] = [() => whole.length, () => 1, () => 7, () => 4096];
    for (let cut = 1; cut < whole.length; cut += 97) chunkings.push((i) => (i === 0 ? cut : whole.length));
    for (const chunking of chunkings) {
      const parts = await readMultipart(streamOf(whole, chunking), CONTENT_TYPE, rules());
      expect(parts.get("file")!.bytes).toEqual(tricky);
      expect(parts.get("file")!.sha256).toBe(digest);
      expect(parts.get("file")!.filename).toBe("contract.pdf");
      expect(new TextDecoder().decode(parts.get("request")!.bytes)).toBe(request);
    }
  });

  it("takes the request part before the file, an empty file, a quoted boundary and padding after boundaries", async () => {
    const padded = concat([
      `--${BOUNDARY} \t\r\n${requestHeaders}\r\n\r\n{}\r\n--${BOUNDARY}\r\n${fileHeaders()}\r\n\r\n\r\n--${BOUNDARY}--`,
    ]);
    const parts = await readMultipart(
      streamOf(padded, () => 5),
      `multipart/form-data; boundary="${BOUNDARY}"`,
      rules(),
    );
    expect(parts.get("file")!.bytes.length).toBe(0);
    expect(parts.get("file")!.sha256).toBe(await sha256Hex(new Uint8Array(0)));
    expect(new TextDecoder().decode(parts.get("request")!.bytes)).toBe("{}");
  });

  it("a 1 MB file in 64 KiB chunks comes out byte for byte", async () => {
    const data = pseudoRandomBytes(1_000_000, 3);
    const parts = await readMultipart(
      streamOf(body([[fileHeaders(), data]]), () => 65_536),
      CONTENT_TYPE,
      rules(),
    );
    expect(parts.get("file")!.bytes).toEqual(data);
    expect(parts.get("file")!.sha256).toBe(await sha256Hex(data));
  });
});

describe("readMultipart refuses hostile bodies with a clear error", () => {
  const ok = (p: [string, string | Uint8Array][], o?: Parameters<typeof body>[1]) => streamOf(body(p, o), () => 100);

  it("no boundary, or a malformed one, in the Content-Type", () => {
    expect(() => multipartBoundary("multipart/form-data")).toThrow(/no boundary/);
    expect(() => multipartBoundary(`multipart/form-data; boundary=${"x".repeat(71)}`)).toThrow(/1 to 70/);
    expect(() => multipartBoundary('multipart/form-data; boundary="a b "')).toThrow(/not ending in a space/);
    expect(multipartBoundary('multipart/form-data; charset=utf-8; boundary="ab:cd"')).toBe("ab:cd");
  });

  it("a body with no boundary line, or one cut short before its closing boundary", async () => {
    expect(
      (await failure(readMultipart(streamOf(enc.encode("just some bytes")), CONTENT_TYPE, rules()))).message,
    ).toMatch(/no part/);
    const cut = await failure(readMultipart(ok([[fileHeaders(), "data"]], { close: false }), CONTENT_TYPE, rules()));
    expect(cut).toBeInstanceOf(InvalidRequest);
    expect(cut.message).toMatch(/ended before its closing boundary/);
  });

  it("two file parts, an unexpected part, a part without a name", async () => {
    const two = await failure(
      readMultipart(
        ok([
          [fileHeaders(), "a"],
          [fileHeaders(), "b"],
        ]),
        CONTENT_TYPE,
        rules(),
      ),
    );
    expect(two.message).toMatch(/Two multipart parts are named "file"/);
    const other = await failure(readMultipart(ok([[fileHeaders("document"), "a"]]), CONTENT_TYPE, rules()));
    expect(other.message).toMatch(/Unexpected multipart part "document": send "file" and "request" only/);
    const nameless = await failure(readMultipart(ok([["Content-Disposition: form-data", "a"]]), CONTENT_TYPE, rules()));
    expect(nameless.message).toMatch(/needs Content-Disposition: form-data; name=/);
    const attachment = await failure(
      readMultipart(ok([['Content-Disposition: attachment; name="file"', "a"]]), CONTENT_TYPE, rules()),
    );
    expect(attachment.code).toBe("invalid_request");
  });

  it("part headers above the cap (400), however they are chunked, without reading on", async () => {
    const huge = `${fileHeaders()}\r\nX-Padding: ${"p".repeat(10_000)}`;
    for (const size of [1, 100, 1 << 20]) {
      const err = await failure(
        readMultipart(
          streamOf(body([[huge, "a"]]), () => size),
          CONTENT_TYPE,
          rules({ maxHeaderBytes: 8192 }),
        ),
      );
      expect(err.code).toBe("invalid_request");
      expect(err.message).toMatch(/headers are larger than 8192 bytes/);
    }
  });

  it("a request part of another media type (415), a base64 transfer encoding (400), malformed header lines (400)", async () => {
    const png = await failure(
      readMultipart(
        ok([['Content-Disposition: form-data; name="request"\r\nContent-Type: image/png', "{}"]]),
        CONTENT_TYPE,
        rules(),
      ),
    );
    expect(png.code).toBe("unsupported_media_type");
    const b64 = await failure(
      readMultipart(ok([[`${fileHeaders()}\r\nContent-Transfer-Encoding: base64`, "JVBERi0="]]), CONTENT_TYPE, rules()),
    );
    expect(b64.message).toMatch(/Content-Transfer-Encoding base64 is not taken/);
    const garbage = await failure(
      readMultipart(ok([[`${fileHeaders()}\r\nno colon here`, "a"]]), CONTENT_TYPE, rules()),
    );
    expect(garbage.message).toMatch(/malformed header line/);
    const doubled = await failure(
      readMultipart(ok([[`${fileHeaders()}\r\nContent-Type: text/plain`, "a"]]), CONTENT_TYPE, rules()),
    );
    expect(doubled.message).toMatch(/two content-type headers/);
  });

  it("a part above its cap gets the part's error; a body above the body cap 413 payload_too_large, also when declared", async () => {
    const big = await failure(readMultipart(ok([[requestHeaders, "x".repeat(5000)]]), CONTENT_TYPE, rules()));
    expect(big.code).toBe("payload_too_large");
    expect(big.message).toBe("request too large");
    const file = await failure(
      readMultipart(
        ok([[fileHeaders(), pseudoRandomBytes(5000, 1)]]),
        CONTENT_TYPE,
        rules({ parts: { file: { maxBytes: 4096, tooLarge: () => new LimitExceeded("document_too_large", "doc") } } }),
      ),
    );
    expect(file.code).toBe("document_too_large");
    const body413 = await failure(
      readMultipart(ok([[fileHeaders(), pseudoRandomBytes(5000, 1)]]), CONTENT_TYPE, rules({ maxBodyBytes: 3000 })),
    );
    expect(body413.code).toBe("payload_too_large");
    let cancelled = false;
    const declared = new ReadableStream<Uint8Array>({ cancel: () => void (cancelled = true) });
    expect(
      (await failure(readMultipart(declared, CONTENT_TYPE, rules({ maxBodyBytes: 10, contentLength: 11 })))).code,
    ).toBe("payload_too_large");
    expect(cancelled).toBe(true);
  });

  it("a body that stalls is RequestTimeout; one that fails (the client went away) is ClientAborted", async () => {
    const head = enc.encode(`--${BOUNDARY}\r\n${fileHeaders()}\r\n\r\nsome bytes`);
    let sent = false;
    const stalled = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) controller.enqueue(head);
        sent = true;
        return new Promise(() => {});
      },
    });
    expect(await failure(readMultipart(stalled, CONTENT_TYPE, rules({ idleTimeoutMs: 50 })))).toBeInstanceOf(
      RequestTimeout,
    );
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(head);
        controller.error(new Error("Network connection lost."));
      },
    });
    expect(await failure(readMultipart(failing, CONTENT_TYPE, rules({ idleTimeoutMs: 5_000 })))).toBeInstanceOf(
      ClientAborted,
    );
  });
});
