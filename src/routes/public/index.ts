import { OpenAPIHono } from "@hono/zod-openapi";
import { cors } from "hono/cors";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { getPublicAvailability } from "./availability";
import { createPublicBooking } from "./bookings";
import { createPublicHold } from "./holds";
import { listPublicServices } from "./services";

/**
 * `/public/{slug}`: what a booking page uses, for any page (CORS open to every origin: no key and
 * no cookie is ever sent or read here, and nothing private is answered).
 */
export const publicApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
publicApp.use(
  "*",
  cors({
    origin: "*",
    allowMethods: ["GET", "POST", "OPTIONS"],
    allowHeaders: ["Content-Type", "X-Request-Id"],
    exposeHeaders: ["Retry-After", "X-Request-Id"],
    maxAge: 600,
  }),
);
listPublicServices(publicApp);
getPublicAvailability(publicApp);
createPublicHold(publicApp);
createPublicBooking(publicApp);
