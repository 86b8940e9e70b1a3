import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../context";
import { problemResponse } from "../problem";

const JSON_MEDIA_TYPE = /^application\/json\s*(;.*)?$/i;

/**
 * For POST routes: `application/json` only (415), and the body size capped
 * before parsing (413). The capped text is handed to Hono's body cache so the
 * zod validator parses it exactly once.
 */
export const jsonBody = createMiddleware<AppEnv>(async (c, next) => {
  const contentType = c.req.header("content-type") ?? "";
  if (!JSON_MEDIA_TYPE.test(contentType.trim())) {
    return problemResponse(c, "unsupported_media_type", "Send the request as Content-Type: application/json.");
  }
  const max = c.get("config").maxBodyBytes;
  const tooLarge = () => problemResponse(c, "payload_too_large", `The request body is larger than ${max} bytes.`);
  const declared = c.req.header("content-length");
  if (declared !== undefined && Number(declared) > max) return tooLarge();
  const body = c.req.raw.body;
  if (!body) return problemResponse(c, "invalid_json", "The request body is empty.");

  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => {});
      return tooLarge();
    }
    chunks.push(value);
  }
  const decoder = new TextDecoder("utf-8");
  let text = "";
  for (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
  text += decoder.decode();
  chunks.length = 0;
  if (!text.trim()) return problemResponse(c, "invalid_json", "The request body is empty.");
  // Hono caches body promises under the method name; its type says otherwise.
  (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(text);
  await next();
});
