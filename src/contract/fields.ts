import { z } from "./zod";
import { EXAMPLE_DOCX_BASE64 } from "./examples";
import { DocumentInput } from "./document";

/** Schemas of POST /v1/fields (Signet's own: the template builder's view of a template). */

export const FieldsRequest = z
  .object({ document: DocumentInput })
  .openapi("FieldsRequest", { example: { document: { base64: EXAMPLE_DOCX_BASE64 } } });

/** A fields request after validation: the input of operations/fields.ts. */
export type FieldsRequestBody = z.output<typeof FieldsRequest>;

export const TemplateField = z
  .object({
    id: z
      .string()
      .nullable()
      .openapi({ description: "`w:id` of the control: `fields[].id` in annotate.", example: "1834567001" }),
    tag: z.string().nullable().openapi({
      description: "The plain tag (also matched by `id`), or the raw SuperDoc JSON tag.",
      example: "client_name",
    }),
    alias: z.string().nullable().openapi({ description: "The control's title in Word.", example: "Client name" }),
    group: z.string().nullable().openapi({
      description: "SuperDoc's group: `fields[].group` in annotate fills every control of it.",
      example: "party",
    }),
    fieldId: z
      .string()
      .nullable()
      .openapi({ description: "SuperDoc's fieldId (field annotations): also matched by `id`." }),
    type: z.string().openapi({
      description:
        "text, date, checkbox, picture, dropdown, combobox, group, repeatingSection, docPart, other; or SuperDoc's own type (e.g. signature) from its tag.",
      example: "text",
    }),
    value: z.union([z.string(), z.boolean()]).nullable().openapi({
      description: "Current text (paragraphs joined by newlines), a checkbox's state, null for a picture.",
    }),
    placeholder: z.boolean().openapi({ description: "The control still shows its placeholder text." }),
    options: z
      .array(z.object({ text: z.string(), value: z.string() }))
      .nullable()
      .openapi({ description: "Choices of a drop-down or combo box." }),
    dateFormat: z.string().nullable().openapi({ description: "The date control's format (Word tokens)." }),
    location: z
      .enum(["body", "table", "header", "footer", "note"])
      .openapi({ description: "Where it sits: body text, a body table, a header, a footer or a foot/endnote." }),
    part: z.string().openapi({ example: "word/document.xml" }),
    level: z
      .enum(["inline", "block", "row", "cell"])
      .openapi({ description: "What the control wraps: runs, paragraphs, table rows or cells." }),
    parent: z.string().nullable().openapi({ description: "id (or tag) of the control this one is nested in." }),
    superdoc: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: "The SuperDoc JSON tag, parsed, when there is one." }),
  })
  .openapi("TemplateField");

export const FieldsResponse = z
  .object({ fields: z.array(TemplateField).openapi({ description: "Every content control, in document order." }) })
  .openapi("FieldsResponse");
