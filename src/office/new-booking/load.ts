/**
 * Which step of the phone-in comes next and what it shows, each part read by the function the
 * API's operation uses after the same role check: the active services (`GET /services`), the
 * service and its people (`GET /services/{id}`, `GET /providers`), the free times (`GET
 * /services/{id}/availability`, bookable ones, at most 96 a day), the customers (`GET
 * /customers?search=`, `GET /customers/{id}`). The whole flow needs `POST /bookings` first.
 */

import { batchReader } from "../../middleware/key-check";
import { addDays, dayKeyOf, startOfDay } from "../../pages/i18n/format";
import { customerEmail, customerName, customerPhone } from "../../schemas/fields";
import { providersOfService } from "../../services/assignments";
import { serviceAvailability } from "../../services/availability";
import { findService, servicePage } from "../../services/records";
import type { Question } from "../../types/questions";
import { type CustomerFacts, customerOf, searchCustomers } from "../customers/load";
import { authorise } from "../frame/authorise";
import { asApp, type DeskContext } from "../frame/desk";
import type { Choice } from "./state";

/** The free times shown for one day: at most this many (a day of 5-minute slots is 288). */
const MAX_TIMES = 96;

export type Time = { startTime: string; endTime: string };
type Named = { id: string; name: string };

/** The step to show, with what it lists. */
export type PhoneInStep =
  | { kind: "service"; services: (Named & { durationMinutes: number })[] }
  | { kind: "person"; people: Named[] }
  | { kind: "time"; day: string; times: Time[] }
  | { kind: "customer"; found?: CustomerFacts[]; problems: Record<string, string> }
  | { kind: "notes" };

/** The phone-in so far: the choices, what they name, and the next step. */
export type PhoneIn = {
  choice: Choice;
  step: PhoneInStep;
  service?: Named & { durationMinutes: number; questions?: Question[] };
  person?: string;
  /** A refused last step's fields and problems, shown on it again. */
  entered?: { values: Record<string, string>; problems: Record<string, string> };
  customer?: { name: string; email: string; phone?: string };
};

/** The free times of `day` (business zone) for the service, for the person or anyone. */
export async function freeTimesOf(c: DeskContext, serviceId: string, day: string, person: string | undefined) {
  await authorise(c, "catalog:read", "GET /services/:id/availability", serviceId);
  const { timezone } = c.var.desk;
  const found = await serviceAvailability(c.env, c.var.db, c.var.caller.businessId, serviceId, {
    from: new Date(startOfDay(day, timezone)).toISOString(),
    to: new Date(startOfDay(addDays(day, 1), timezone)).toISOString(),
    ...(person && person !== "any" ? { providerId: person } : {}),
  });
  return found.slots
    .filter((slot) => slot.bookable)
    .slice(0, MAX_TIMES)
    .map((slot) => ({ startTime: slot.startTime, endTime: slot.endTime }));
}

/** A new customer's details as the API checks them, or the problems by field. */
export function newCustomerOf(choice: Choice, m: DeskContext["var"]["desk"]["m"]) {
  const problems: Record<string, string> = {};
  const name = customerName.safeParse(choice.name ?? "");
  if (!name.success) problems.name = m.customers.badName;
  const email = customerEmail.safeParse(choice.email ?? "");
  if (!email.success) problems.email = m.customers.badEmail;
  const phone = choice.phone ? customerPhone.safeParse(choice.phone) : undefined;
  if (phone && !phone.success) problems.phone = m.customers.badPhone;
  if (!name.success || !email.success || (phone && !phone.success)) return { problems };
  return { customer: { name: name.data, email: email.data, phone: phone?.data }, problems };
}

/** Reads what the choices name and decides the next step (a 403 when the member may not book). */
export async function loadPhoneIn(c: DeskContext, choice: Choice): Promise<PhoneIn> {
  const { businessId } = c.var.caller;
  await authorise(c, "bookings:write", "POST /bookings");
  const pickService = async (): Promise<PhoneIn> => {
    await authorise(c, "catalog:read", "GET /services");
    const list = await servicePage(c.var.db, batchReader(asApp(c)), businessId, { page: 1, limit: 100, active: true });
    const services = list.items.map((s) => ({ id: s.id, name: s.name, durationMinutes: s.durationMinutes }));
    return { choice: {}, step: { kind: "service", services: services.sort((a, b) => a.name.localeCompare(b.name)) } };
  };
  if (!choice.service) return pickService();
  await authorise(c, "catalog:read", "GET /services/:id", choice.service);
  const { service: found } = await findService(c.var.db, businessId, choice.service);
  if (!found.active) return pickService();
  const service = {
    id: found.id,
    name: found.name,
    durationMinutes: found.durationMinutes,
    questions: found.questions,
  };

  // A team (everyone performs it) or a service without people has no one to choose.
  let person: string | undefined;
  if (found.providerIds.length > 0 && found.providerMode !== "all") {
    await authorise(c, "catalog:read", "GET /providers");
    const rows = await providersOfService(c.var.db, businessId, found.id);
    const people = rows
      .filter((row) => row.provider.active)
      .map((row) => ({ id: row.provider.id, name: row.provider.name }))
      .sort((a, b) => a.name.localeCompare(b.name));
    const named = people.find((p) => p.id === choice.person);
    if (choice.person !== "any" && !named) {
      return { choice: { service: found.id }, service, step: { kind: "person", people } };
    }
    person = named?.name;
  }
  const kept = {
    ...choice,
    person: person === undefined ? (choice.person === "any" ? "any" : undefined) : choice.person,
  };
  if (!kept.day || !kept.time) {
    const day = kept.day ?? dayKeyOf(Date.now(), c.var.desk.timezone);
    const times = await freeTimesOf(c, found.id, day, kept.person);
    return { choice: { ...kept, time: undefined }, service, person, step: { kind: "time", day, times } };
  }
  if (kept.customer) {
    const chosen = await customerOf(c, kept.customer);
    const customer = { name: chosen.name, email: chosen.email, phone: chosen.phone ?? undefined };
    return { choice: kept, service, person, customer, step: { kind: "notes" } };
  }
  if (kept.name !== undefined || kept.email !== undefined) {
    const { customer, problems } = newCustomerOf(kept, c.var.desk.m);
    if (customer) return { choice: kept, service, person, customer, step: { kind: "notes" } };
    return { choice: kept, service, person, step: { kind: "customer", problems } };
  }
  const found2 = kept.q ? (await searchCustomers(c, kept.q)).items : undefined;
  return { choice: kept, service, person, step: { kind: "customer", found: found2, problems: {} } };
}
