import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { actorOf } from "../../access/actor";
import type { AppEnv } from "../../env";
import { bodyProblems, jsonResponse, problemResponses } from "../../lib/openapi";
import { z } from "../../lib/zod";
import { rotateLinkKey } from "../../manage-links/records";
import { emptyBodyAsObject } from "../../middleware/json-body";
import { forgetCallersOf } from "../../middleware/key-check";
import { needs } from "../../types/scopes";

const LinkKeySchema = z
  .object({
    version: z.number().int().openapi({ description: "The link key's version from now on.", example: 2 }),
  })
  .openapi("ManageLinkKey");

const route = createRoute({
  method: "post",
  path: "/rotate",
  middleware: [emptyBodyAsObject] as const,
  operationId: "rotateManageLinks",
  tags: ["Manage links"],
  summary: "End every manage link sent so far",
  description:
    "Moves the business's manage-link key to its next version: every `manageUrl` given out before is a 404 from now on, and bookings show new ones (the same new one on every read). For a leak of links, or a customer list that went where it should not. The body is optional (none or `{}`). The key itself is never stored or shown; it is derived from the deployment's secret and this version.",
  security: needs("bookings:write"),
  request: {
    body: {
      required: false,
      content: { "application/json": { schema: z.strictObject({}).openapi("RotateManageLinks") } },
    },
  },
  responses: {
    200: jsonResponse("The new version of the link key.", LinkKeySchema),
    ...problemResponses(...bodyProblems),
  },
});

/** `POST /manage-links/rotate`. */
export const registerRotateManageLinks = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const version = await rotateLinkKey(c.var.db, c.var.caller.businessId, actorOf(c.var.caller));
    forgetCallersOf(c.var.caller.businessId);
    return c.json({ version }, 200);
  });
