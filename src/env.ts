import type { Database } from "./db/client";

/** The caller, resolved from its API key by the auth middleware. */
export type Caller = { businessId: string; businessName: string; keyId: string };

/** Hono environment shared by every route: Worker bindings plus per-request variables. */
export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    db: Database;
    caller: Caller;
  };
};
