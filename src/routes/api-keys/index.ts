import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { registerCreateApiKey } from "./create";
import { registerListApiKeys } from "./list";
import { registerRevokeApiKey } from "./revoke";

/** `/api-keys`: the business's API keys and their scopes. */
export const apiKeysApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
registerListApiKeys(apiKeysApp);
registerCreateApiKey(apiKeysApp);
registerRevokeApiKey(apiKeysApp);
