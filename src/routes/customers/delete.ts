import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { actorOf } from "../../access/actor";
import { eraseCustomer } from "../../customers/erase";
import type { AppEnv } from "../../env";
import { needs } from "../../types/scopes";
import { deleteById } from "../operations";

const route = createRoute({
  method: "delete",
  path: "/{id}",
  operationId: "deleteCustomer",
  tags: ["Customers"],
  summary: "Erase a customer (right to erasure)",
  description:
    "Replaces the person's name, e-mail and phone, and the notes and cancellation reasons of their bookings, by placeholders everywhere the API keeps them: the customer, the bookings, stored idempotent responses and webhook payloads. Bookings keep their times, status and service. The customer disappears from reads and search; a later booking with the same e-mail makes a new customer. Repeating the call on an erased customer repeats the erasure (`204`).",
  security: needs("customers:write"),
  ...deleteById("cus_01jd3k5v7q8r9s0t1u2v3w4x5y", "Erased."),
});

export const registerDeleteCustomer = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    await eraseCustomer(c.env, c.var.db, c.var.caller.businessId, c.req.valid("param").id, actorOf(c.var.caller));
    return c.body(null, 204);
  });
