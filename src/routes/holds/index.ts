import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { createHold } from "./create";
import { getHold } from "./get";
import { releaseHold } from "./release";

/** `/holds`: seats kept for a few minutes, turned into bookings with `POST /bookings` and `holdId`. */
export const holdsApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
createHold(holdsApp);
getHold(holdsApp);
releaseHold(holdsApp);
