import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { InvalidRequest } from "../../errors";
import { annotateDocument, type OutputFormat } from "../../operations/annotate";
import type { AppEnv } from "../context";
import { documentFonts } from "../document-fonts";
import { requireApiKey } from "../middleware/auth";
import { documentBase64, jsonBody, type JsonPath } from "../middleware/json-body";
import { problem } from "../../contract/problem";
import { AnnotateQuery, AnnotateRequest, AnnotateResponse } from "../../contract/annotate";
import { streamedJsonResponse } from "../streamed-json";

/** `to` / `output_format` (alias) and `strict`; anything else is a 400 `invalid_query`. */
export function readAnnotateQuery(url: string): { format: OutputFormat; strict: boolean } {
  const params = new URL(url).searchParams;
  const bad = (msg: string) => new InvalidRequest("invalid_query", msg);
  const formats = [...params.getAll("to"), ...params.getAll("output_format")].map((v) => v.trim().toLowerCase());
  if (new Set(formats).size > 1) throw bad("Give the output format once (to or output_format), with one value.");
  const format = formats[0] ?? "docx";
  if (format !== "docx" && format !== "pdf")
    throw bad(`Unknown output format ${JSON.stringify(formats[0])}: use to=docx or to=pdf.`);
  const stricts = params.getAll("strict").map((v) => v.trim().toLowerCase());
  if (stricts.length > 1) throw bad("Give strict once.");
  const s = stricts[0];
  if (s !== undefined && !["true", "false", "1", "0", ""].includes(s))
    throw bad(`strict must be true or false, not ${JSON.stringify(stricts[0])}.`);
  return { format, strict: s === "true" || s === "1" };
}

const checkQuery = createMiddleware<AppEnv>(async (c, next) => {
  readAnnotateQuery(c.req.url);
  await next();
});

/** Where large base64 values are expected: the template and image field values. */
const documentOrImage = (p: JsonPath) =>
  documentBase64(p) || (p.length === 3 && p[0] === "fields" && typeof p[1] === "number" && p[2] === "value");

export const annotateRoute = createRoute({
  method: "post",
  path: "/v1/annotate",
  summary: "Fill the content controls of a DOCX template",
  description:
    "Fills Word content controls (and SuperDoc's structured content and field annotations) by `id` or `group` with text, dates, numbers, checkboxes, pictures, signatures and table rows, wherever they are (body, tables, headers, footers, notes). Only the touched parts are rewritten; the same template and fields give the same bytes. External relationships other than hyperlinks (a remote attached template, mail-merge sources, linked pictures and OLE objects) are removed from the output with what refers to them; a DTD in any XML part is refused (xml_doctype_forbidden). Fields that match nothing are listed in `unmatched` (422 `field_not_found` with `strict=true`). With `to=pdf` the filled document is laid out and painted as PDF inside the worker (open fonts metric-compatible with the Office fonts; same input, same bytes).",
  security: [{ bearerAuth: [] }],
  middleware: [requireApiKey(), checkQuery, jsonBody(documentOrImage)] as const,
  request: {
    query: AnnotateQuery,
    body: { required: true, content: { "application/json": { schema: AnnotateRequest } } },
  },
  responses: {
    200: { description: "The filled document", content: { "application/json": { schema: AnnotateResponse } } },
    400: problem("Malformed JSON, schema violation, id and group together, unknown output format (invalid_query)"),
    401: problem("Missing or unknown API key"),
    408: problem("The request body stopped arriving (request_timeout)"),
    413: problem(
      "Body, document or image too large; ZIP limits or, with to=pdf, a template too large to render (zip_limit)",
    ),
    415: problem("Not JSON, or the template is not a DOCX (e.g. a PDF)"),
    422: problem(
      "Unusable template or image (docx_invalid, xml_doctype_forbidden, image_invalid, url_forbidden), strict mode (field_not_found); with to=pdf, a document past the renderer's work, page or paragraph limits (render_limit)",
    ),
    502: problem("Fetching the document or an image failed"),
    504: problem("Fetching the document or an image timed out"),
  },
});

export function registerAnnotateRoute(app: OpenAPIHono<AppEnv>) {
  app.openapi(annotateRoute, async (c) => {
    const input = c.req.valid("json");
    const { format, strict } = readAnnotateQuery(c.req.url);
    const config = c.get("config");
    const result = await annotateDocument(input, {
      config,
      selfHost: new URL(c.req.url).hostname,
      format,
      strict,
      preDecoded: c.get("preDecoded"),
      fonts: documentFonts(c.env),
    });
    const { output, contentType, unmatched } = result;
    c.set("documentBytesOut", output.length);
    return streamedJsonResponse(
      `{"document":{"base64":"data:${contentType};base64,`,
      output.segments,
      `","contentType":"${contentType}"},"unmatched":${JSON.stringify(unmatched)}}`,
    ) as never;
  });
}
