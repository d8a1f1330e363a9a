/**
 * The customer's edit form as the server reads it: name, e-mail and phone, each checked by the
 * API's own field rules (the fields of `PATCH /customers/{id}`); an empty phone removes it.
 */
import type { FormFields } from "../../pages/form";
import { customerEmail, customerName, customerPhone } from "../../schemas/fields";
import type { DeskWords } from "../frame/en";

/** The change to make, or the problems by field name (then nothing is changed). */
export type CustomerEdit = {
  changes?: { name: string; email: string; phone: string | null };
  problems: Record<string, string>;
};

/** Reads the edit form: every field is sent, so the change sets all three. */
export function readCustomerEdit(fields: FormFields, m: DeskWords): CustomerEdit {
  const problems: Record<string, string> = {};
  const value = (name: string) => (fields[name] ?? "").trim();
  const name = customerName.safeParse(value("name"));
  if (!name.success || /[\p{Cc}]/u.test(value("name"))) problems.name = m.customers.badName;
  const email = customerEmail.safeParse(value("email"));
  if (!email.success) problems.email = m.customers.badEmail;
  const phone = value("phone") === "" ? undefined : customerPhone.safeParse(value("phone"));
  if (phone && !phone.success) problems.phone = m.customers.badPhone;
  if (!name.success || !email.success || Object.keys(problems).length > 0) return { problems };
  return { changes: { name: name.data, email: email.data, phone: phone?.data ?? null }, problems };
}
