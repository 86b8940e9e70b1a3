import { z } from "./zod";
import { EXAMPLE_MARKDOWN_BASE64 } from "./examples";
import { DocumentInput, OutputDocument } from "./document";

/** Schemas of POST /v1/convert (SuperDoc's convert, plus JSON input and output like annotate). */

export const ConvertQuery = z.object({
  from: z.enum(["docx", "md", "markdown", "html", "htm"]).openapi({
    description: "What the document is: `docx`, `md` (Markdown, CommonMark + GFM) or `html`.",
    example: "md",
  }),
  to: z
    .enum(["pdf", "docx"])
    .optional()
    .openapi({ description: "What to return: `pdf` (default) or `docx`.", example: "pdf" }),
});

export const ConvertMultipart = z
  .object({
    file: z.string().openapi({
      type: "string",
      format: "binary",
      description: "The document (as `FormData.append('file', blob, name)` sends it).",
    }),
  })
  .openapi("ConvertMultipart");

export const ConvertJsonRequest = z.object({ document: DocumentInput }).openapi("ConvertRequest", {
  example: { document: { base64: `data:text/markdown;base64,${EXAMPLE_MARKDOWN_BASE64}` } },
});

export const ConvertJsonResponse = z
  .object({
    document: OutputDocument,
    warnings: z
      .array(z.string())
      .openapi({ description: "Pictures that could not be embedded (their alt text is shown instead)." }),
  })
  .openapi("ConvertResponse");
