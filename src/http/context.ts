import type { PreDecodedValues } from "../input/base64";
import type { Config, Env } from "../config";

/** Hono generics for Signet: bindings plus what middleware puts on the context. */
export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    config: Config;
    /** Hex SHA-256 of the caller's API key, when authenticated. Scopes eventIds. */
    keyId: string | null;
    /**
     * Resolves once the key is confirmed (D1 or the secret), throws `Unauthorized` when it was refused.
     * Work that records anything (a signing event) awaits it first; see middleware/auth.ts.
     */
    keyConfirmed: () => Promise<void>;
    /** Large base64 values decoded while the body streamed in (see middleware/json-body.ts). */
    preDecoded: PreDecodedValues;
    /** Bytes of the document a route returns, for the access log (middleware/access-log.ts). */
    documentBytesOut: number | undefined;
  };
};
