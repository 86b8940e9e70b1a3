/** The document every operation takes, and the document a JSON response carries. */
import { z } from "./zod";

const DocumentObject = z
  .object({
    base64: z.string().min(1).optional().openapi({
      description: "Document bytes as plain base64 or a `data:` URI.",
      example: "data:application/pdf;base64,JVBERi0xLjcK...",
    }),
    url: z.string().min(1).max(2048).optional().openapi({
      description: "HTTPS address to fetch the document from (no userinfo, public hosts only, ≤ 3 redirects, 10 s).",
      example: "https://example.com/contract.pdf",
    }),
  })
  .refine((d) => (d.base64 === undefined) !== (d.url === undefined), {
    message: "Give exactly one of document.base64 or document.url",
  });

/**
 * `{ base64 }` or `{ url }`; a bare string (base64 or a data URI, as SuperDoc's backend guide
 * sends it) is taken as `{ base64 }`.
 */
export const DocumentInput = z
  .union([
    z
      .string()
      .min(1)
      .transform((base64) => ({ base64, url: undefined as string | undefined }))
      .openapi({ description: "Plain base64 or a `data:` URI, taken as `{ base64 }`." }),
    DocumentObject,
  ])
  .openapi("DocumentInput", {
    description:
      "The document: `{ base64 }` (plain base64 or a `data:` URI), `{ url }`, or a bare base64 / data URI string.",
    example: { base64: "data:application/pdf;base64,JVBERi0xLjcK..." },
  });

/** The `document` of a request after validation: `{ base64 }` or `{ url }`. */
export type DocumentRef = z.output<typeof DocumentInput>;

export const OutputDocument = z
  .object({
    base64: z.string().openapi({ description: "The file as a data URI: `data:<type>;base64,...`." }),
    contentType: z.string().openapi({ example: "application/pdf" }),
  })
  .openapi("OutputDocument");
