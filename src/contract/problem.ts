/** The error body of every route (http/problem.ts writes it), and its entry in a route's `responses`. */
import { ERROR_CODES } from "../errors";
import { z } from "./zod";

export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    code: z
      .enum(ERROR_CODES)
      .openapi({ description: "The machine code; each operation's responses name the codes it answers with." }),
    detail: z.string(),
    message: z.string().openapi({ description: "Same text as `detail` (SuperDoc clients read `message`)." }),
    error: z
      .string()
      .openapi({ description: "The HTTP reason phrase (SuperDoc's error field).", example: "Bad Request" }),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    details: z
      .array(z.object({ field: z.string(), issue: z.string() }))
      .optional()
      .openapi({ description: "The `errors` in SuperDoc's shape, for validation errors." }),
    requestId: z.string().optional(),
  })
  .openapi("Problem", {
    description: "RFC 9457 problem details with SuperDoc's `error`, `message` and `details` beside them.",
    example: {
      type: "/problems/invalid_request",
      title: "Invalid request",
      status: 400,
      code: "invalid_request",
      detail: "signer.email: Invalid email address",
      message: "signer.email: Invalid email address",
      error: "Bad Request",
      errors: [{ path: "signer.email", message: "Invalid email address" }],
      details: [{ field: "signer.email", issue: "Invalid email address" }],
      requestId: "2b4c6f0e9a1d4e3f",
    },
  });

/** A route's error response in the OpenAPI document: `responses: { 422: problem("...codes...") }`. */
export const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: Problem } },
});
