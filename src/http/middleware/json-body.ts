import { createMiddleware } from "hono/factory";
import { InvalidRequest } from "../../errors";
import { encodeBase64, type PreDecodedBase64 } from "../../input/base64";
import { LIMITS } from "../../limits";
import { readJsonWithBlobs } from "../body/json-blobs";
import type { AppEnv } from "../context";
import { problemResponse } from "../problem";

const JSON_MEDIA_TYPE = /^application\/json\s*(;.*)?$/i;

export type JsonPath = readonly (string | number)[];

/**
 * For POST routes: `application/json` only (415) and the body capped before
 * parsing (413). Large base64 strings (documents, images) are decoded while the
 * body streams in, so a 25 MB document exists once, as bytes, never as a 33 MB
 * string; the JSON keeps a token the operation resolves through `preDecoded`.
 *
 * `documentPaths` says where such a value is expected (e.g. `document.base64`).
 * A large string anywhere else is put back as it was sent (re-encoded), so
 * every other field is validated and stored exactly as the client meant.
 * The text then goes to Hono's body cache, parsed once by the zod validator.
 */
export function jsonBody(documentPaths: (path: JsonPath) => boolean) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const contentType = c.req.header("content-type") ?? "";
    if (!JSON_MEDIA_TYPE.test(contentType.trim())) {
      return problemResponse(c, "unsupported_media_type", "Send the request as Content-Type: application/json.");
    }
    const config = c.get("config");
    const declared = c.req.header("content-length");
    const contentLength = declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : undefined;
    const body = c.req.raw.body;
    if (!body) return problemResponse(c, "invalid_json", "The request body is empty.");
    let { text, blobs } = await readJsonWithBlobs(body, {
      maxBodyBytes: config.maxBodyBytes,
      maxBlobBytes: config.maxDocumentBytes,
      blobThreshold: LIMITS.preDecodeThresholdBytes,
      contentLength,
      idleTimeoutMs: LIMITS.requestBodyIdleTimeoutMs,
    });
    if (!text.trim()) return problemResponse(c, "invalid_json", "The request body is empty.");
    if (blobs.size) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return problemResponse(c, "invalid_json", "The request body is not valid JSON.");
      }
      const keep = new Map<string, PreDecodedBase64>();
      const restored = restoreOutside(
        parsed,
        [],
        (path, token) => {
          const blob = blobs.get(token)!;
          if (documentPaths(path)) {
            keep.set(token, blob);
            return token;
          }
          if (!blob.bytes) {
            throw new InvalidRequest(
              "invalid_request",
              `${path.join(".")}: strings above ${LIMITS.preDecodeThresholdBytes} bytes are accepted only as base64 data.`,
            );
          }
          const data = encodeBase64(blob.bytes);
          return blob.mediaType ? `data:${blob.mediaType};base64,${data}` : data;
        },
        blobs,
      );
      if (keep.size !== blobs.size) text = JSON.stringify(restored);
      blobs = keep;
    }
    c.set("preDecoded", blobs);
    // Hono caches body promises under the method name; its type says otherwise.
    (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(text);
    await next();
  });
}

/** Walks parsed JSON, letting `visit` replace every blob token string. */
function restoreOutside(
  value: unknown,
  path: (string | number)[],
  visit: (path: JsonPath, token: string) => string,
  blobs: ReadonlyMap<string, unknown>,
): unknown {
  if (typeof value === "string") return blobs.has(value) ? visit(path, value) : value;
  if (Array.isArray(value)) return value.map((v, i) => restoreOutside(v, [...path, i], visit, blobs));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = restoreOutside(v, [...path, k], visit, blobs);
    return out;
  }
  return value;
}

/** `document.base64`, or `document` itself as a bare string: the document of every operation. */
export const documentBase64 = (path: JsonPath) =>
  path[0] === "document" && (path.length === 1 || (path.length === 2 && path[1] === "base64"));
