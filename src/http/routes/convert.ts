import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { InvalidRequest } from "../../errors";
import { convertDocument, type ConvertFrom, type ConvertInput, type ConvertTo } from "../../operations/convert";
import { encodeBase64 } from "../../input/base64";
import { readBodyCapped } from "../body/read-capped";
import type { AppEnv } from "../context";
import { documentFonts } from "../document-fonts";
import { requireApiKey } from "../middleware/auth";
import { readJsonRequest } from "../document-request";
import { problemResponse } from "../problem";
import { problem } from "../../contract/problem";
import { ConvertJsonRequest, ConvertJsonResponse, ConvertMultipart, ConvertQuery } from "../../contract/convert";

const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
/** Raw bodies: the document itself, with its own media type. */
const RAW_TYPES = [
  DOCX_TYPE,
  "text/markdown",
  "text/x-markdown",
  "text/html",
  "text/plain",
  "application/xhtml+xml",
  "application/octet-stream",
];

export const convertRoute = createRoute({
  method: "post",
  path: "/v1/convert",
  summary: "Convert DOCX, Markdown or HTML to PDF or DOCX",
  description:
    "SuperDoc's convert. The document comes as `multipart/form-data` (part `file`, as axios and fetch send a `FormData`), as JSON `{ document: { base64 | url } }`, or as the raw body with its own media type. " +
    "Markdown (CommonMark with GitHub's tables, task lists, strikethrough, autolinks and footnotes) and HTML (with inline and `<style>` CSS) become a DOCX in Word's built-in styles; `to=pdf` lays that DOCX out with Signet's renderer. " +
    "The answer is the document itself (`application/pdf` or the DOCX type); with `Accept: application/json` alone it is `{ document: { base64, contentType }, warnings }` like annotate. " +
    "Pictures come from data URIs or https URLs under the same rules as documents; one that cannot be had is shown as its alt text and listed in `warnings` (header `X-Signet-Warnings` counts them).",
  security: [{ bearerAuth: [] }],
  request: {
    query: ConvertQuery,
    body: {
      required: true,
      content: {
        "multipart/form-data": { schema: ConvertMultipart },
        "application/json": { schema: ConvertJsonRequest },
        "text/markdown": { schema: z.string().openapi({ example: "# Hello\n\nThis is **Signet**.\n" }) },
        "text/html": {
          schema: z.string().openapi({ example: '<h1>Hello</h1><p style="color:#1f5fbf">This is <b>Signet</b>.</p>' }),
        },
        [DOCX_TYPE]: { schema: z.string().openapi({ type: "string", format: "binary" }) },
      },
    },
  },
  responses: {
    200: {
      description: "The converted document (or, with Accept: application/json, the document as base64 in JSON)",
      content: {
        "application/pdf": { schema: z.string().openapi({ type: "string", format: "binary" }) },
        [DOCX_TYPE]: { schema: z.string().openapi({ type: "string", format: "binary" }) },
        "application/json": { schema: ConvertJsonResponse },
      },
    },
    400: problem("Unknown from/to (invalid_query), no `file` part, malformed JSON or base64"),
    401: problem("Missing or unknown API key"),
    408: problem("The request body stopped arriving (request_timeout)"),
    413: problem(
      "Body or document too large; a source beyond the convert limits (convert_limit); ZIP limits (zip_limit)",
    ),
    415: problem(
      "A body type convert does not take, or a document that is not what `from` says (a PDF, a PNG, binary data as Markdown)",
    ),
    422: problem(
      "Unusable DOCX (docx_invalid, xml_doctype_forbidden), a picture URL to a forbidden address (url_forbidden); to=pdf past the renderer's work, page or paragraph limits (render_limit)",
    ),
    429: problem("Too many requests with this API key"),
    502: problem("Fetching the document failed"),
    504: problem("Fetching the document timed out"),
  },
});

/** `from` (required) and `to` (default pdf); anything else is a 400 `invalid_query`. */
export function readConvertQuery(url: string): { from: ConvertFrom; to: ConvertTo } {
  const params = new URL(url).searchParams;
  const bad = (msg: string) =>
    new InvalidRequest("invalid_query", msg, {
      errors: [{ path: msg.startsWith("to") ? "to" : "from", message: msg }],
    });
  const froms = params.getAll("from").map((v) => v.trim().toLowerCase());
  if (froms.length !== 1) throw bad(froms.length ? "from: give it once." : "from: required (docx, md or html).");
  const FROM: Record<string, ConvertFrom> = { docx: "docx", md: "md", markdown: "md", html: "html", htm: "html" };
  const from = FROM[froms[0]!];
  if (!from) throw bad(`from: ${JSON.stringify(froms[0])} is not one of docx, md, html.`);
  const tos = [...params.getAll("to"), ...params.getAll("output_format")].map((v) => v.trim().toLowerCase());
  if (tos.length > 1) throw bad("to: give it once.");
  const to = tos[0] ?? "pdf";
  if (to !== "pdf" && to !== "docx") throw bad(`to: ${JSON.stringify(tos[0])} is not one of pdf, docx.`);
  return { from, to };
}

/** JSON is returned only to a client that asks for JSON alone (axios' default Accept also lists text/plain and *\/*). */
function wantsJson(accept: string | undefined): boolean {
  if (!accept) return false;
  const types = accept
    .split(",")
    .map((t) => t.split(";")[0]!.trim().toLowerCase())
    .filter(Boolean);
  return types.length > 0 && types.every((t) => t === "application/json" || /^application\/[\w.+-]*\+json$/.test(t));
}

/** The document of the request, however it came; or a problem response. */
async function readInput(c: Context<AppEnv>): Promise<{ input: ConvertInput; name?: string } | Response> {
  const contentType = (c.req.header("content-type") ?? "").trim();
  const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
  const config = c.get("config");
  const declared = c.req.header("content-length");
  const length = declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : undefined;

  if (mediaType === "application/json") {
    const request = await readJsonRequest(c, ConvertJsonRequest);
    return request instanceof Response ? request : { input: { document: request.document } };
  }
  if (mediaType === "multipart/form-data") {
    const body = await readBodyCapped(c.req.raw.body, config.maxBodyBytes, length);
    let form: FormData;
    try {
      form = await new Response(body, { headers: { "content-type": contentType } }).formData();
    } catch {
      throw new InvalidRequest("invalid_request", "The multipart/form-data body could not be read.");
    }
    const part = form.get("file") ?? form.get("document");
    if (part === null || typeof part === "string") {
      throw new InvalidRequest(
        "invalid_request",
        "file: send the document as the multipart part `file` (a file, not a text field).",
        {
          errors: [{ path: "file", message: "Required: the document as a file part" }],
        },
      );
    }
    return { input: { bytes: new Uint8Array(await part.arrayBuffer()) }, name: part.name };
  }
  if (RAW_TYPES.includes(mediaType)) {
    return { input: { bytes: await readBodyCapped(c.req.raw.body, config.maxBodyBytes, length) } };
  }
  return problemResponse(
    c,
    "unsupported_media_type",
    `Send the document as multipart/form-data (part file), as JSON {document}, or as the raw body (${RAW_TYPES.join(", ")}); not ${mediaType || "without a Content-Type"}.`,
  );
}

/** `contract.md` → `contract.pdf`; a safe ASCII name for Content-Disposition. */
function outputName(name: string | undefined, to: ConvertTo): string {
  const base =
    (name ?? "")
      .replace(/\.[^.]*$/, "")
      .replace(/[^\w.-]+/g, "_")
      .slice(0, 100) || "document";
  return `${base}.${to}`;
}

export function registerConvertRoute(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerPath(convertRoute);
  app.post("/v1/convert", requireApiKey(), async (c) => {
    const { from, to } = readConvertQuery(c.req.url);
    const read = await readInput(c);
    if (read instanceof Response) return read;
    const result = await convertDocument(read.input, from, to, {
      config: c.get("config"),
      selfHost: new URL(c.req.url).hostname,
      fonts: documentFonts(c.env),
      preDecoded: c.get("preDecoded"),
    });
    c.set("documentBytesOut", result.bytes.length);
    const headers: Record<string, string> = { "X-Signet-Warnings": String(result.warnings.length) };
    if (wantsJson(c.req.header("accept"))) {
      return c.json(
        {
          document: {
            base64: `data:${result.contentType};base64,${encodeBase64(result.bytes)}`,
            contentType: result.contentType,
          },
          warnings: result.warnings,
        },
        200,
        headers,
      );
    }
    return new Response(result.bytes, {
      status: 200,
      headers: {
        ...headers,
        "Content-Type": result.contentType,
        "Content-Disposition": `attachment; filename="${outputName(read.name, to)}"`,
        "Content-Length": String(result.bytes.length),
      },
    });
  });
}
