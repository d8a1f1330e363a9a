import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { registerGetWaitlistEntry } from "./get";
import { registerJoinWaitlist } from "./join";
import { registerLeaveWaitlist } from "./leave";
import { registerListWaitlist } from "./list";

/** `/waitlist`: customers queued for a full slot, offered a hold when a seat frees. */
export const waitlistApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
registerListWaitlist(waitlistApp);
registerJoinWaitlist(waitlistApp);
registerGetWaitlistEntry(waitlistApp);
registerLeaveWaitlist(waitlistApp);
