import { InvalidRequest, LimitExceeded, SignetError } from "../../errors";
import { concatBytes, latin1Bytes } from "../../util/bytes";
import { DocumentSink } from "./document-sink";
import { consumeBody } from "./read-chunk";

/**
 * A `multipart/form-data` body (RFC 7578) read as it streams in, for the binary document paths of
 * sign and verify. Each expected part goes straight into its own buffer (one copy of each chunk),
 * the file part is hashed on the way in where the runtime can (workerd's `crypto.DigestStream`),
 * and nothing else is kept: no second copy of the body, no base64.
 *
 * Hostile bodies end early with a problem: a missing or malformed boundary, part headers above
 * `maxHeaderBytes`, a part without a name, an unexpected or repeated part, a part above its cap
 * (its own error, e.g. 413 `document_too_large`), the whole body above `maxBodyBytes` (413
 * `payload_too_large`), a body that ends before its closing boundary (400); a client that stalls
 * is 408 and one that goes away 499 (readChunk).
 */

export interface MultipartPartRule {
  /** Bytes above this end the read with `tooLarge()`. */
  maxBytes: number;
  tooLarge: () => SignetError;
  /** Part Content-Types taken (lower case, parameters dropped); absent Content-Type is always taken. Omitted: any. */
  contentTypes?: readonly string[];
  /** What to say when the part's Content-Type is not one of `contentTypes` (a 415). */
  contentTypeHint?: string;
  /** Hash the part (SHA-256, hex) as it arrives. */
  sha256?: boolean;
  /** Size the part's buffer from the declared Content-Length (the document: no regrowth, no slack copies). */
  presize?: boolean;
}

export interface MultipartPart {
  bytes: Uint8Array;
  filename: string | null;
  contentType: string | null;
  /** Lowercase hex SHA-256 of `bytes`, when the rule asked for it. */
  sha256: string | null;
}

export interface ReadMultipartOptions {
  /** The parts taken, by name; any other part is a 400. */
  parts: Record<string, MultipartPartRule>;
  maxBodyBytes: number;
  /** The declared Content-Length, if any: an early 413 above maxBodyBytes, and a size hint. */
  contentLength?: number;
  idleTimeoutMs?: number;
  /** Cap of one part's header block (default 8 KiB). */
  maxHeaderBytes?: number;
}

const CR = 0x0d;
const LF = 0x0a;
const DEFAULT_MAX_HEADER_BYTES = 8 * 1024;
/** Transport padding (spaces and tabs) allowed after a boundary before its CRLF. */
const MAX_PADDING = 64;

/** The boundary of a `multipart/form-data` Content-Type, or a 400 saying what is wrong with it. */
export function multipartBoundary(contentType: string): string {
  const match = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^\s;]*))/i.exec(contentType);
  const boundary = match ? (match[1] ?? match[2] ?? "") : "";
  // RFC 2046 5.1.1: 1 to 70 characters of a restricted set, not ending in a space.
  if (!/^[0-9A-Za-z'()+_,\-./:=? ]{1,70}$/.test(boundary) || boundary.endsWith(" ")) {
    throw new InvalidRequest(
      "invalid_request",
      match
        ? "The multipart boundary must be 1 to 70 characters (letters, digits and '()+_,-./:=? ), not ending in a space."
        : "The multipart/form-data Content-Type has no boundary parameter.",
    );
  }
  return boundary;
}

/** Reads a multipart/form-data body into the parts `opts.parts` names. The stream is cancelled on any error. */
export async function readMultipart(
  body: ReadableStream<Uint8Array> | null,
  contentType: string,
  opts: ReadMultipartOptions,
): Promise<Map<string, MultipartPart>> {
  const tooLarge = () =>
    new LimitExceeded("payload_too_large", `The request body is larger than ${opts.maxBodyBytes} bytes.`, {
      maxBytes: opts.maxBodyBytes,
    });
  if (opts.contentLength !== undefined && opts.contentLength > opts.maxBodyBytes) {
    await body?.cancel().catch(() => {});
    throw tooLarge();
  }
  const scanner = new MultipartScanner(multipartBoundary(contentType), opts);
  if (!body) return scanner.end();
  let total = 0;
  return consumeBody(body, opts.idleTimeoutMs, {
    take(chunk) {
      total += chunk.length;
      if (total > opts.maxBodyBytes) throw tooLarge();
      scanner.feed(chunk);
    },
    finish: () => scanner.end(),
    abandon: () => scanner.abandon(),
  });
}

const enum State {
  /** Before the first boundary: discarded. */
  Preamble,
  /** Just after a boundary: "--" (the last one) or padding and CRLF (a part follows). */
  AfterBoundary,
  Headers,
  Body,
  /** After the closing boundary: discarded. */
  Epilogue,
}

/** One part being received. */
class PartSink {
  private readonly sink: DocumentSink;

  constructor(
    readonly name: string,
    private readonly filename: string | null,
    private readonly contentType: string | null,
    rule: MultipartPartRule,
    sizeHint: number,
  ) {
    this.sink = new DocumentSink(rule.maxBytes, rule.tooLarge, rule.sha256 ?? false, sizeHint);
  }

  write(bytes: Uint8Array): void {
    this.sink.write(bytes);
  }

  async finish(): Promise<MultipartPart> {
    const { bytes, sha256 } = await this.sink.finish();
    return { bytes, sha256, filename: this.filename, contentType: this.contentType };
  }

  abandon(): void {
    this.sink.abandon();
  }
}

class MultipartScanner {
  private readonly delimiter: Uint8Array;
  private readonly skip: Uint8Array;
  private state = State.Preamble;
  /** Bytes at the end of the last chunk that begin the delimiter (the body continues or a boundary ends it). */
  private carry: Uint8Array;
  /** The line after a boundary, or the header block, so far (latin1). */
  private text = "";
  private sink: PartSink | null = null;
  private readonly done = new Map<string, Promise<MultipartPart>>();
  private readonly seen = new Set<string>();
  private readonly maxHeaderBytes: number;

  constructor(
    boundary: string,
    private readonly opts: ReadMultipartOptions,
  ) {
    this.delimiter = latin1Bytes(`\r\n--${boundary}`);
    // Horspool's shifts: how far the delimiter may move when byte b is under its last position.
    this.skip = new Uint8Array(256).fill(this.delimiter.length);
    for (let k = 0; k < this.delimiter.length - 1; k++) this.skip[this.delimiter[k]!] = this.delimiter.length - 1 - k;
    // The first boundary may open the body with no CRLF before it: start as if one had come.
    this.carry = this.delimiter.subarray(0, 2);
    this.maxHeaderBytes = opts.maxHeaderBytes ?? DEFAULT_MAX_HEADER_BYTES;
  }

  feed(chunk: Uint8Array): void {
    let i = 0;
    while (i < chunk.length) {
      switch (this.state) {
        case State.Preamble:
        case State.Body:
          i = this.scanData(chunk, i);
          break;
        case State.AfterBoundary:
          i = this.scanAfterBoundary(chunk, i);
          break;
        case State.Headers:
          i = this.scanHeaders(chunk, i);
          break;
        case State.Epilogue:
          return;
      }
    }
  }

  async end(): Promise<Map<string, MultipartPart>> {
    if (this.state !== State.Epilogue) {
      throw new InvalidRequest(
        "invalid_request",
        this.seen.size === 0 && this.state === State.Preamble
          ? "The multipart/form-data body has no part (no boundary line was found)."
          : "The multipart/form-data body ended before its closing boundary (--boundary--): it was cut short.",
      );
    }
    const parts = new Map<string, MultipartPart>();
    for (const [name, part] of this.done) parts.set(name, await part);
    return parts;
  }

  abandon(): void {
    this.sink?.abandon();
  }

  /** Data up to the next delimiter goes to the current part (or nowhere before the first). */
  private scanData(chunk: Uint8Array, start: number): number {
    const d = this.delimiter;
    let i = start;
    if (this.carry.length) {
      // Does this chunk complete the delimiter the last one began?
      const have = this.carry.length;
      let k = have;
      while (k < d.length && k - have + i < chunk.length && chunk[k - have + i] === d[k]) k++;
      if (k === d.length) {
        this.carry = new Uint8Array(0);
        return this.boundaryFound(i + d.length - have);
      }
      if (k - have + i === chunk.length) {
        this.carry = concatBytes([this.carry, chunk.subarray(i)]);
        return chunk.length;
      }
      // Not a delimiter: the carried bytes were data (a CR only starts the delimiter, so no later one begins inside them).
      this.emit(this.carry);
      this.carry = new Uint8Array(0);
    }
    const at = this.findDelimiter(chunk, i);
    if (at >= 0) {
      this.emit(chunk.subarray(i, at));
      return this.boundaryFound(at + d.length);
    }
    // A delimiter may begin in the chunk's last bytes and end in the next chunk.
    for (let j = chunk.indexOf(CR, Math.max(i, chunk.length - d.length + 1)); j >= 0; j = chunk.indexOf(CR, j + 1)) {
      let k = 1;
      while (j + k < chunk.length && chunk[j + k] === d[k]) k++;
      if (j + k === chunk.length) {
        this.emit(chunk.subarray(i, j));
        this.carry = chunk.slice(j);
        return chunk.length;
      }
    }
    this.emit(chunk.subarray(i));
    return chunk.length;
  }

  /**
   * Where the whole delimiter starts in chunk[from..], or -1: Boyer-Moore-Horspool, comparing from the
   * delimiter's end and skipping by the last byte seen (mostly the whole delimiter's length in
   * binary data, where searching for every CR took ~110 ms of a 25 MB upload).
   */
  private findDelimiter(chunk: Uint8Array, from: number): number {
    const d = this.delimiter;
    const last = d.length - 1;
    const skip = this.skip;
    for (let i = from + last; i < chunk.length; i += skip[chunk[i]!]!) {
      let k = last;
      let j = i;
      while (k >= 0 && chunk[j] === d[k]) {
        k--;
        j--;
      }
      if (k < 0) return j + 1;
    }
    return -1;
  }

  private emit(bytes: Uint8Array): void {
    if (this.state === State.Body) this.sink!.write(bytes);
  }

  private boundaryFound(at: number): number {
    if (this.sink) {
      const sink = this.sink;
      const part = sink.finish();
      part.catch(() => {}); // awaited by end(); a later error must not leave it unhandled
      this.done.set(sink.name, part);
      this.sink = null;
    }
    this.state = State.AfterBoundary;
    this.text = "";
    return at;
  }

  /** "--" ends the body; otherwise optional padding, then CRLF and a part's headers. */
  private scanAfterBoundary(chunk: Uint8Array, start: number): number {
    let i = start;
    while (i < chunk.length) {
      this.text += String.fromCharCode(chunk[i++]!);
      const line = this.text;
      if (line === "--") {
        this.state = State.Epilogue;
        return chunk.length;
      }
      if (/^[ \t]*\r\n$/.test(line)) {
        this.state = State.Headers;
        this.text = "";
        return i;
      }
      if (line.length > MAX_PADDING || !/^(-|[ \t]*\r?)$/.test(line)) {
        throw new InvalidRequest(
          "invalid_request",
          "The multipart/form-data body is malformed: a boundary is followed by something other than CRLF or --.",
        );
      }
    }
    return i;
  }

  /** The header block up to its blank line, capped at maxHeaderBytes. */
  private scanHeaders(chunk: Uint8Array, start: number): number {
    const stop = Math.min(chunk.length, start + this.maxHeaderBytes + 4 - this.text.length);
    let i = start;
    while (i < stop) {
      this.text += String.fromCharCode(chunk[i]!);
      i++;
      if (chunk[i - 1] === LF && this.text.endsWith("\r\n\r\n")) {
        this.startPart(this.text.slice(0, -4));
        return i;
      }
      if (this.text === "\r\n") {
        this.startPart(""); // a part with no headers at all
        return i;
      }
    }
    if (this.text.length > this.maxHeaderBytes) {
      throw new InvalidRequest(
        "invalid_request",
        `A multipart part's headers are larger than ${this.maxHeaderBytes} bytes.`,
      );
    }
    return i;
  }

  private startPart(block: string): void {
    const headers = parseHeaderBlock(block);
    const disposition = headers.get("content-disposition");
    const name = disposition ? dispositionParam(disposition, "name") : null;
    if (!disposition || !/^\s*form-data\s*(;|$)/i.test(disposition) || name === null) {
      throw new InvalidRequest(
        "invalid_request",
        'Every multipart part needs Content-Disposition: form-data; name="...".',
      );
    }
    const expected = Object.keys(this.opts.parts);
    const rule = this.opts.parts[name];
    if (!rule || !Object.hasOwn(this.opts.parts, name)) {
      throw new InvalidRequest(
        "invalid_request",
        `Unexpected multipart part ${JSON.stringify(name)}: send ${expected.map((n) => `"${n}"`).join(" and ")} only.`,
        {
          errors: [{ path: name, message: "Unexpected part" }],
        },
      );
    }
    if (this.seen.has(name)) {
      throw new InvalidRequest("invalid_request", `Two multipart parts are named ${JSON.stringify(name)}: send one.`, {
        errors: [{ path: name, message: "Repeated part" }],
      });
    }
    this.seen.add(name);
    const encoding = headers.get("content-transfer-encoding")?.trim().toLowerCase();
    if (encoding && !["binary", "8bit", "7bit"].includes(encoding)) {
      throw new InvalidRequest(
        "invalid_request",
        `Part ${JSON.stringify(name)}: Content-Transfer-Encoding ${encoding} is not taken; send the bytes as they are (binary).`,
      );
    }
    const contentType = headers.get("content-type")?.trim() ?? null;
    const mediaType = contentType?.split(";")[0]!.trim().toLowerCase() ?? null;
    if (mediaType && rule.contentTypes && !rule.contentTypes.includes(mediaType)) {
      throw new SignetError(
        "unsupported_media_type",
        `Part ${JSON.stringify(name)} is ${mediaType}; ${rule.contentTypeHint ?? `send it as ${rule.contentTypes.join(" or ")}`}.`,
      );
    }
    const filename = dispositionParam(disposition, "filename");
    this.sink = new PartSink(name, filename, contentType, rule, rule.presize ? (this.opts.contentLength ?? 0) : 0);
    this.state = State.Body;
    this.text = "";
  }
}

/** Header lines (no folding, as RFC 7578 4.8 asks) by lower-cased name; a repeated header is a 400. */
function parseHeaderBlock(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  if (!block) return headers;
  for (const line of block.split("\r\n")) {
    const colon = line.indexOf(":");
    const name = colon > 0 ? line.slice(0, colon).trim().toLowerCase() : "";
    if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name)) {
      throw new InvalidRequest(
        "invalid_request",
        "A multipart part has a malformed header line (expected Name: value).",
      );
    }
    if (headers.has(name)) throw new InvalidRequest("invalid_request", `A multipart part has two ${name} headers.`);
    headers.set(name, line.slice(colon + 1).trim());
  }
  return headers;
}

/** A parameter of Content-Disposition (quoted or a token), UTF-8 as browsers send it; null when absent. */
function dispositionParam(value: string, param: string): string | null {
  const re = new RegExp(`;\\s*${param}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^\\s;]+))`, "i");
  const match = re.exec(value);
  if (!match) return null;
  const raw = match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : match[2]!;
  const bytes = latin1Bytes(raw);
  return new TextDecoder("utf-8").decode(bytes);
}
