/**
 * `/office/setup`: an owner's list of what to set up; a staff member is sent to their own person's
 * page (their hours, days off and calendars); the front desk gets the 403 page. The people and
 * members pages are in provider-routes.tsx (the person's calendars and feed in calendars/) and members-routes.tsx; the business settings, services,
 * rooms, API keys and webhooks in their folders.
 */
import { Hono } from "hono";
import type { DeskEnv } from "../frame/desk";
import { businessRoutes } from "./business/routes";
import { calendarRoutes } from "./calendars/routes";
import { setupRefusal } from "./guard";
import { setupIndexPage } from "./index-page";
import { keyRoutes } from "./keys/routes";
import { memberRoutes } from "./members-routes";
import { providerSetupRoutes } from "./provider-routes";
import { providersOf } from "./providers";
import { roomRoutes } from "./rooms/routes";
import { serviceRoutes } from "./services/routes";
import { webhookRoutes } from "./webhooks/routes";

/** The setup pages, mounted by desk.ts. */
export const setupRoutes = new Hono<DeskEnv>();

setupRoutes.get("/setup", async (c) => {
  const { member } = c.var.caller;
  if (member?.role === "staff" && member.providerId)
    return c.redirect(`/office/setup/people/${member.providerId}`, 303);
  // Setting up the business's people is the catalog's write: the owner's.
  const denied = await setupRefusal(c, "catalog:write", "POST /providers");
  return denied ?? setupIndexPage(c, await providersOf(c));
});

// Each folder's pages name their whole paths (`/setup/services/:id`), so none hides another.
for (const routes of [
  providerSetupRoutes,
  calendarRoutes,
  memberRoutes,
  businessRoutes,
  serviceRoutes,
  roomRoutes,
  keyRoutes,
  webhookRoutes,
])
  setupRoutes.route("/", routes);
