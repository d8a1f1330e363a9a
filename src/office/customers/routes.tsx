/**
 * `/office/customers`: the search, one customer's page, its edit and its erasure. Each reads or
 * changes through the API operation's own function (`customerPage`, `loadCustomer`,
 * `editCustomer`, `eraseCustomer`) after the same role check (`GET /customers`, `GET|PATCH|DELETE
 * /customers/:id`), with the member as the actor the audit records. Staff are refused the search
 * (403, as the API refuses them the list) and see only their own bookings' customers (another is a
 * 404); the front desk is refused the erasure (403).
 */
import { Hono } from "hono";
import { actorOf } from "../../access/actor";
import { editCustomer } from "../../customers/edit";
import { eraseCustomer } from "../../customers/erase";
import { ApiError } from "../../lib/api-error";
import { readForm } from "../../pages/form";
import { authorise } from "../frame/authorise";
import type { DeskEnv } from "../frame/desk";
import { deskProblem } from "../frame/layout";
import { erasePage } from "./erase";
import { readCustomerEdit } from "./form";
import { customerOf, loadCustomerView, MAX_TERM, searchCustomers } from "./load";
import { customerDeskPage } from "./page";
import { customerSearchPage } from "./search";

/** The customers' pages and their actions, mounted by desk.ts. */
export const customerRoutes = new Hono<DeskEnv>();

customerRoutes.get("/customers", async (c) => {
  const term = (c.req.query("q") ?? "").trim();
  const { m } = c.var.desk;
  if (term.length > MAX_TERM) return deskProblem(c, 400, m.booking.refused, m.customers.badTerm);
  const found = await searchCustomers(c, term || undefined);
  const done = c.req.query("done");
  return customerSearchPage(c, term, found, done === "erased" ? m.customers.erased : undefined);
});

customerRoutes.get("/customers/:id", async (c) => {
  const view = await loadCustomerView(c, c.req.param("id"));
  const done = c.req.query("done");
  return customerDeskPage(c, view, { flash: done === "saved" ? c.var.desk.m.flash.saved : undefined });
});

customerRoutes.post("/customers/:id", async (c) => {
  const id = c.req.param("id");
  await authorise(c, "customers:write", "PATCH /customers/:id", id);
  const fields = await readForm(c);
  const { changes, problems } = readCustomerEdit(fields, c.var.desk.m);
  if (!changes) {
    const view = await loadCustomerView(c, id);
    return customerDeskPage(c, view, { refused: c.var.desk.m.customers.fix, values: fields, problems }, 422);
  }
  try {
    await editCustomer(c.env, c.var.db, c.var.caller.businessId, id, changes, undefined, actorOf(c.var.caller));
  } catch (error) {
    // Another customer's e-mail (409): the form again with the reason, nothing changed.
    if (!(error instanceof ApiError) || error.status !== 409) throw error;
    const view = await loadCustomerView(c, id);
    return customerDeskPage(c, view, { refused: error.message, values: fields }, 409);
  }
  return c.redirect(`/office/customers/${id}?done=saved`, 303);
});

customerRoutes.get("/customers/:id/erase", async (c) => {
  const id = c.req.param("id");
  await authorise(c, "customers:write", "DELETE /customers/:id", id);
  return erasePage(c, await customerOf(c, id));
});

customerRoutes.post("/customers/:id/erase", async (c) => {
  const id = c.req.param("id");
  await authorise(c, "customers:write", "DELETE /customers/:id", id);
  const customer = await customerOf(c, id);
  const typed = ((await readForm(c)).confirm ?? "").trim().toLowerCase();
  if (typed !== customer.email.toLowerCase()) return erasePage(c, customer, c.var.desk.m.customers.eraseMismatch, 422);
  await eraseCustomer(c.env, c.var.db, c.var.caller.businessId, id, actorOf(c.var.caller));
  return c.redirect("/office/customers?done=erased", 303);
});
