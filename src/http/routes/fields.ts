import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { listFields } from "../../operations/fields";
import type { AppEnv } from "../context";
import { requireApiKey } from "../middleware/auth";
import { documentBase64, jsonBody } from "../middleware/json-body";
import { problem } from "../../contract/problem";
import { FieldsRequest, FieldsResponse } from "../../contract/fields";

export const fieldsRoute = createRoute({
  method: "post",
  path: "/v1/fields",
  summary: "List a template's fields",
  description:
    "Every content control of a DOCX template, in document order, as SuperDoc's template builder and Word show them: id, tag, alias, group, SuperDoc fieldId and JSON tag, type, current value, and where it sits (body, table, header, footer, note). What a backend needs to map its data to the template before calling `/v1/annotate`.",
  security: [{ bearerAuth: [] }],
  middleware: [requireApiKey(), jsonBody(documentBase64)] as const,
  request: { body: { required: true, content: { "application/json": { schema: FieldsRequest } } } },
  responses: {
    200: { description: "The template's fields", content: { "application/json": { schema: FieldsResponse } } },
    400: problem("Malformed JSON or schema violation"),
    401: problem("Missing or unknown API key"),
    408: problem("The request body stopped arriving (request_timeout)"),
    413: problem("Body or document too large; ZIP limits (zip_limit)"),
    415: problem("Not JSON, or the document is not a DOCX"),
    422: problem("Unusable template (docx_invalid, xml_doctype_forbidden), url_forbidden"),
    502: problem("Fetching the document failed"),
    504: problem("Fetching the document timed out"),
  },
});

export function registerFieldsRoute(app: OpenAPIHono<AppEnv>) {
  app.openapi(fieldsRoute, async (c) => {
    const input = c.req.valid("json");
    const result = await listFields(input, {
      config: c.get("config"),
      selfHost: new URL(c.req.url).hostname,
      preDecoded: c.get("preDecoded"),
    });
    return c.json(result, 200);
  });
}
