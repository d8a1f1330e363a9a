import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { auditPage } from "../../audit/list";
import type { AppEnv } from "../../env";
import { pageResponse, problemResponses } from "../../lib/openapi";
import { z } from "../../lib/zod";
import { cursorListOf, cursorQuery, cursorRules, paginateByCursor } from "../../lists/cursor";
import { listRules, paginationQuery } from "../../lists/pagination";
import { needs } from "../../types/scopes";

const idFilter = (description: string, example: string) =>
  z
    .string()
    .min(1)
    .max(64)
    .regex(/^[a-z]{3}_[0-9a-z]{26}$|^system$/, "Must be an id such as svc_01jd3k5v7q8r9s0t1u2v3w4x5y.")
    .optional()
    .openapi({ description, example });

const AuditEventSchema = z
  .object({
    id: z.string().openapi({ example: "aud_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    at: z.string().openapi({ description: "When the change was made (UTC), such as `2026-03-01T09:00:00.000Z`." }),
    actor: z.object({
      type: z.enum(["member", "apiKey", "customer", "system"]).openapi({
        description:
          "Who made the change: a member, an API key, a customer through their manage link or a booking page (`id` is the booking's, or for a page's hold the hold's), or the system (waitlist offers, expiry, sync).",
      }),
      id: z.string().openapi({ example: "key_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    }),
    action: z.string().openapi({ description: "`<resource>.<verb>`.", example: "service.updated" }),
    resource: z.object({
      type: z.string().openapi({ description: "The resource's singular name.", example: "service" }),
      id: z.string().openapi({ example: "svc_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    }),
    fields: z.array(z.string()).openapi({
      description: "The names of the fields the change set, never their values.",
      example: ["name", "durationMinutes"],
    }),
  })
  .openapi("AuditEvent");

const route = createRoute({
  method: "get",
  path: "/",
  operationId: "listAuditEvents",
  tags: ["Audit"],
  summary: "List the audit of changes",
  description: [
    "Every change to the business, newest first: who made it, what it did to which resource, and the names of the fields it set (never their values, and never a customer's name, e-mail or phone). `resourceId` narrows to one resource, `actorId` to one actor; another business's id gives an empty list. Records are kept 400 days.",
    listRules,
    cursorRules,
  ].join("\n\n"),
  security: needs("business:write"),
  request: {
    query: z.strictObject({
      ...paginationQuery,
      ...cursorQuery(["aud_01jd3k5v7q8r9s0t1u2v3w4x5y"]),
      resourceId: idFilter("Only the records of this resource.", "svc_01jd3k5v7q8r9s0t1u2v3w4x5y"),
      actorId: idFilter(
        "Only the records of this actor (`system` for the system's own).",
        "key_01jd3k5v7q8r9s0t1u2v3w4x5y",
      ),
    }),
  },
  responses: {
    200: pageResponse("A page of audit records.", cursorListOf(AuditEventSchema, "AuditEventList")),
    ...problemResponses(422),
  },
});

export const registerListAuditEvents = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const list = await auditPage(c.var.db, c.var.caller.businessId, query);
    return c.json(paginateByCursor(c, list, query), 200);
  });
