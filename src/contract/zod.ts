/**
 * zod with the `.openapi()` metadata of @asteasolutions/zod-to-openapi: the contract's schemas
 * describe themselves without knowing of Hono (@hono/zod-openapi extends the same zod the same way,
 * once; whichever runs first does it).
 */
import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

extendZodWithOpenApi(z);

export { z };
