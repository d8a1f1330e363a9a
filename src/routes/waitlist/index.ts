import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { getWaitlistEntry } from "./get";
import { joinWaitlist } from "./join";
import { leaveWaitlist } from "./leave";
import { listWaitlist } from "./list";

/** `/waitlist`: customers queued for a full slot, offered a hold when a seat frees. */
export const waitlistApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
listWaitlist(waitlistApp);
joinWaitlist(waitlistApp);
getWaitlistEntry(waitlistApp);
leaveWaitlist(waitlistApp);
