import { OpenAPIHono } from "@hono/zod-openapi";
import { cors } from "hono/cors";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { registerGetPublicAvailability } from "./availability";
import { registerCreatePublicBooking } from "./bookings";
import { registerCreatePublicHold } from "./holds";
import { registerListPublicServices } from "./services";

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
registerListPublicServices(publicApp);
registerGetPublicAvailability(publicApp);
registerCreatePublicHold(publicApp);
registerCreatePublicBooking(publicApp);
