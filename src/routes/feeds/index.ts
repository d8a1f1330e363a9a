import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { registerGetCalendarFeed } from "./get";

/** `/feeds`: people's calendar feeds, public, opened by the secret in their address. */
export const feedsApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
registerGetCalendarFeed(feedsApp);
