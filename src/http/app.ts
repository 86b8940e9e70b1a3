import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "./context";
import { requestContext } from "./middleware/request-id";
import { accessLog } from "./middleware/access-log";
import { handleError, problemResponse, validationProblem } from "./problem";
import { registerMetaRoutes } from "./routes/meta";
import { registerSignRoute } from "./routes/sign";
import { registerAnnotateRoute } from "./routes/annotate";
import { registerConvertRoute } from "./routes/convert";
import { registerFieldsRoute } from "./routes/fields";
import { registerDocsRoutes } from "./routes/docs";
import { registerVerifyRoutes } from "./routes/verify";
import { registerEvidenceRoutes } from "./routes/evidence";
import { registerVerifyPage } from "./routes/verify-page";

/** The Hono app: middleware, routes, and the one error mapping. */
export function createApp() {
  const app = new OpenAPIHono<AppEnv>({
    // Schema violations become 400 invalid_request problems with per-field errors.
    defaultHook: (result, c) => {
      if (!result.success) return validationProblem(c, result.error.issues);
    },
  });
  app.use("*", requestContext);
  app.use("*", accessLog);
  registerMetaRoutes(app);
  registerDocsRoutes(app);
  registerSignRoute(app);
  registerAnnotateRoute(app);
  registerConvertRoute(app);
  registerFieldsRoute(app);
  registerVerifyRoutes(app);
  registerEvidenceRoutes(app);
  registerVerifyPage(app);
  app.notFound((c) => problemResponse(c, "not_found", `No route for ${c.req.method} ${new URL(c.req.url).pathname}.`));
  app.onError(handleError);
  return app;
}
