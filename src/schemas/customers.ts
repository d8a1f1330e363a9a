/** The customer as the API shows it, and the bodies that create and change one. */

import { utcTimestamp } from "../lib/datetime";
import { z } from "../lib/zod";
import { cursorListOf } from "../lists/cursor";
import { customerEmail, customerName, customerPhone } from "./fields";

export const CreateCustomerSchema = z
  .strictObject({ name: customerName, email: customerEmail, phone: customerPhone.optional() })
  .openapi("CreateCustomer");

export const UpdateCustomerSchema = z
  .strictObject({
    name: customerName.optional(),
    email: customerEmail.optional(),
    phone: customerPhone.nullable().optional().openapi({ description: "`null` removes the phone number." }),
  })
  .refine((body) => Object.values(body).some((v) => v !== undefined), "Send at least one field to change.")
  .openapi("UpdateCustomer", { example: { email: "ada.lovelace@example.com", phone: null } });

export const CustomerSchema = z
  .object({
    id: z.string().openapi({ example: "cus_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    createdAt: utcTimestamp,
    updatedAt: utcTimestamp,
  })
  .openapi("Customer");

export const CustomerListSchema = cursorListOf(CustomerSchema, "CustomerList");
