import { z } from "./zod";
import { FIELD_TYPES, valueProblem, type FieldType } from "../docx/fields";
import { isNumericValue } from "../docx/values";
import { LIMITS } from "../limits";
import { EXAMPLE_DOCX_BASE64 } from "./examples";
import { DocumentInput, OutputDocument } from "./document";

/** Schemas of POST /v1/annotate (interface.md). Unknown option keys are accepted and ignored. */

const numberLike = z
  .union([z.number(), z.string()])
  .refine((v) => isNumericValue(v) && Number(v) > 0, "must be a positive number (CSS pixels)");

export const AnnotateOptions = z
  .looseObject({
    dimensions: z.looseObject({ width: numberLike.optional(), height: numberLike.optional() }).optional().openapi({
      description: "Picture size in CSS pixels (1 px = 9525 EMU); with one side the other keeps the aspect ratio.",
    }),
    format: z.string().max(100).optional().openapi({
      description: "Date picture (Word tokens: d dd MMM MMMM yy yyyy ...) when the control has none.",
      example: "MMMM dd, yyyy",
    }),
    decimals: z
      .union([z.number(), z.string()])
      .optional()
      .openapi({ description: "Fixed decimals for number fields (0-20)." }),
    keepTextNodeStyles: z
      .boolean()
      .optional()
      .openapi({ description: "Keep the formatting of the control's first run (default true)." }),
    bottomLabel: z
      .looseObject({ text: z.string().max(1000).nullable().optional() })
      .optional()
      .openapi({ description: "Caption line under a signature." }),
  })
  .openapi("AnnotateOptions");

const selector = z.union([z.string().min(1).max(1024), z.number()]);

export const AnnotateField = z
  .looseObject({
    id: selector
      .optional()
      .openapi({ description: "Fills every control whose w:id, JSON tag fieldId, or plain tag is this value." }),
    group: selector
      .optional()
      .openapi({ description: "Fills every control whose JSON tag has this group, or whose plain tag is this value." }),
    type: z.enum(FIELD_TYPES),
    value: z.unknown().optional().openapi({
      description:
        'text: string (numbers, booleans, null accepted); date: ISO 8601; number: number or numeric string; checkbox: boolean or "true"/"false"; image: data: URI or URL; signature: image or typed text; table: array of rows of cell strings.',
    }),
    options: AnnotateOptions.optional(),
  })
  .superRefine((f, ctx) => {
    if ((f.id === undefined) === (f.group === undefined)) {
      ctx.addIssue({ code: "custom", message: "Give exactly one of id or group", path: [] });
      return;
    }
    const problem = valueProblem(f.type as FieldType, f.value, f.options);
    if (problem)
      ctx.addIssue({
        code: "custom",
        message: problem.message,
        path: problem.path.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
      });
  })
  .openapi("AnnotateField");

export const AnnotateRequest = z
  .object({
    document: DocumentInput,
    fields: z.array(AnnotateField).max(LIMITS.docx.maxFields),
  })
  .superRefine((r, ctx) => {
    let cells = 0;
    for (const f of r.fields)
      if (f.type === "table" && Array.isArray(f.value))
        for (const row of f.value) cells += Array.isArray(row) ? row.length : 0;
    if (cells > LIMITS.docx.maxTableCells)
      ctx.addIssue({
        code: "custom",
        message: `At most ${LIMITS.docx.maxTableCells} table cells per request`,
        path: ["fields"],
      });
  })
  .openapi("AnnotateRequest", {
    example: {
      document: { base64: EXAMPLE_DOCX_BASE64 },
      fields: [
        { id: "client_name", type: "text", value: "Ada Lovelace" },
        { id: "signed_on", type: "date", value: "2026-11-21" },
      ],
    },
  });

/** An annotate request after validation: the input of operations/annotate.ts. */
export type AnnotateRequestBody = z.output<typeof AnnotateRequest>;

export const AnnotateQuery = z.object({
  to: z.string().optional().openapi({ description: "Output format: `docx` (default) or `pdf`.", example: "docx" }),
  output_format: z.string().optional().openapi({ description: "Alias of `to`." }),
  strict: z
    .string()
    .optional()
    .openapi({ description: "`true`: a field that matches no control is a 422 `field_not_found`." }),
});

export const UnmatchedSelector = z
  .union([z.object({ id: selector }), z.object({ group: selector })])
  .openapi("UnmatchedSelector");

export const AnnotateResponse = z
  .object({
    document: OutputDocument,
    unmatched: z
      .array(UnmatchedSelector)
      .openapi({ description: "Fields that matched no control, as their selectors." }),
  })
  .openapi("AnnotateResponse");
