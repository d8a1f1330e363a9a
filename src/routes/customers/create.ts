import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { customers } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { bearerSecurity, bodyProblems, jsonResponse, problemResponses } from "../../lib/openapi";
import { CreateCustomerSchema, CustomerSchema, toCustomer } from "../../schemas/customers";

const route = createRoute({
  method: "post",
  path: "/",
  operationId: "createCustomer",
  tags: ["Customers"],
  summary: "Create a customer",
  description:
    "E-mail addresses are unique per business, compared case-insensitively: a second customer with the same e-mail is a 409 `customer_exists`.",
  security: bearerSecurity,
  request: { body: { required: true, content: { "application/json": { schema: CreateCustomerSchema } } } },
  responses: {
    201: jsonResponse("The new customer; `Location` points at it.", CustomerSchema, { required: ["Location"] }),
    ...problemResponses(409, ...bodyProblems),
  },
});

export const createCustomer = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { name, email, phone } = c.req.valid("json");
    const now = new Date().toISOString();
    const [row] = await c.var.db
      .insert(customers)
      .values({
        id: newId("customer"),
        businessId: c.var.caller.businessId,
        name,
        email,
        emailNormalized: email.toLowerCase(),
        nameNormalized: name.toLowerCase(),
        phone: phone ?? null,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new ApiError("customer_exists", `A customer with the e-mail ${email} exists already.`);
    c.header("Location", `/api/v1/customers/${row.id}`);
    return c.json(toCustomer(row), 201);
  });
