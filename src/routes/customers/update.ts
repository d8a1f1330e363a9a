import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { editCustomer } from "../../customers/edit";
import type { AppEnv } from "../../env";
import { CustomerSchema, UpdateCustomerSchema } from "../../schemas/customers";
import { needs } from "../../types/scopes";
import { answerEdited, editOf } from "../edit-by-id";
import { conditionalPatch } from "../operations";

const route = createRoute({
  method: "patch",
  path: "/{id}",
  operationId: "updateCustomer",
  tags: ["Customers"],
  summary: "Change a customer's name, e-mail or phone",
  description:
    "The customer's bookings show the new details too. E-mail addresses stay unique per business, compared case-insensitively (`409 customer_exists`).",
  security: needs("customers:write"),
  ...conditionalPatch(
    UpdateCustomerSchema,
    CustomerSchema,
    "The updated customer.",
    "cus_01jd3k5v7q8r9s0t1u2v3w4x5y",
    409,
  ),
});

export const registerUpdateCustomer = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const customer = await editCustomer(...editOf(c));
    return answerEdited(c, customer, customer.updatedAt);
  });
