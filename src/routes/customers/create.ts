import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { actorOf } from "../../access/actor";
import { addCustomer } from "../../customers/records";
import type { AppEnv } from "../../env";
import { bodyProblems, jsonResponse, problemResponses } from "../../lib/openapi";
import { CreateCustomerSchema, CustomerSchema } from "../../schemas/customers";
import { needs } from "../../types/scopes";

const route = createRoute({
  method: "post",
  path: "/",
  operationId: "createCustomer",
  tags: ["Customers"],
  summary: "Create a customer",
  description:
    "E-mail addresses are unique per business, compared case-insensitively: a second customer with the same e-mail is a 409 `customer_exists`.",
  security: needs("customers:write"),
  request: { body: { required: true, content: { "application/json": { schema: CreateCustomerSchema } } } },
  responses: {
    201: jsonResponse("The new customer; `Location` points at it.", CustomerSchema, { required: ["Location"] }),
    ...problemResponses(409, ...bodyProblems),
  },
});

export const registerCreateCustomer = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const customer = await addCustomer(c.var.db, c.var.caller.businessId, c.req.valid("json"), actorOf(c.var.caller));
    c.header("Location", `/api/v1/customers/${customer.id}`);
    return c.json(customer, 201);
  });
