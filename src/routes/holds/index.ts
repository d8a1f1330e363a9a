import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { registerCreateHold } from "./create";
import { registerGetHold } from "./get";
import { registerReleaseHold } from "./release";

/** `/holds`: seats kept for a few minutes, turned into bookings with `POST /bookings` and `holdId`. */
export const holdsApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
registerCreateHold(holdsApp);
registerGetHold(holdsApp);
registerReleaseHold(holdsApp);
