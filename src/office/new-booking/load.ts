/**
 * Which step of the phone-in comes next and what it shows, each part read by the function the
 * API's operation uses after the same role check: the active services (`GET /services`), each
 * chosen service and its people (`GET /services/{id}`, `GET /providers`), the free times (times.ts:
 * `GET /services/{id}/availability`), the customers (`GET /customers?search=`, `GET
 * /customers/{id}`). The whole flow needs `POST /bookings` first (`POST /appointments` too for a
 * visit of several services).
 */

import { batchReader } from "../../middleware/key-check";
import { dayKeyOf } from "../../pages/i18n/format";
import { customerEmail, customerName, customerPhone } from "../../schemas/fields";
import { MAX_SEGMENTS } from "../../schemas/visits";
import { providersOfService } from "../../services/assignments";
import { findService, servicePage } from "../../services/records";
import type { Question } from "../../types/questions";
import { type CustomerFacts, customerOf, searchCustomers } from "../customers/load";
import { authorise } from "../frame/authorise";
import { asApp, type DeskContext } from "../frame/desk";
import type { Choice, Segment } from "./state";
import { freeTimesOf, type Time, visitTimesOf } from "./times";

export type { Time } from "./times";

type Named = { id: string; name: string };
type ServiceFacts = Named & { durationMinutes: number; questions?: Question[] };

/** The step to show, with what it lists. */
export type PhoneInStep =
  | { kind: "service"; services: (Named & { durationMinutes: number })[]; adding?: boolean }
  | { kind: "person"; people: Named[]; segment?: number }
  | { kind: "time"; day: string; times: Time[]; canAdd: boolean }
  | { kind: "customer"; found?: CustomerFacts[]; problems: Record<string, string> }
  | { kind: "notes" };

/** A service of a visit after the first, as chosen: what it names and who does it. */
export type LaterService = { service: ServiceFacts; person?: string; choice: Segment };

/** The phone-in so far: the choices, what they name, and the next step. */
export type PhoneIn = {
  choice: Choice;
  step: PhoneInStep;
  service?: ServiceFacts;
  person?: string;
  /** The services after the first: with them the phone-in books a visit. */
  later?: LaterService[];
  /** A refused last step's fields and problems, shown on it again. */
  entered?: { values: Record<string, string>; problems: Record<string, string> };
  customer?: { name: string; email: string; phone?: string };
};

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

/** The business's active services, by name. */
async function activeServices(c: DeskContext) {
  await authorise(c, "catalog:read", "GET /services");
  const list = await servicePage(c.var.db, batchReader(asApp(c)), c.var.caller.businessId, {
    page: 1,
    limit: 100,
    active: true,
  });
  const services = list.items.map((s) => ({ id: s.id, name: s.name, durationMinutes: s.durationMinutes }));
  return services.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * A chosen service (undefined when it is no longer active) and the person asked for: `ask` with
 * its people when one must still be chosen; none to choose on a team or without people.
 */
async function chosenService(c: DeskContext, id: string, asked: string | undefined) {
  const { businessId } = c.var.caller;
  await authorise(c, "catalog:read", "GET /services/:id", id);
  const { service: found } = await findService(c.var.db, businessId, id);
  if (!found.active) return undefined;
  const service = {
    id: found.id,
    name: found.name,
    durationMinutes: found.durationMinutes,
    questions: found.questions,
  };
  if (found.providerIds.length === 0 || found.providerMode === "all") return { service, person: undefined };
  await authorise(c, "catalog:read", "GET /providers");
  const rows = await providersOfService(c.var.db, businessId, found.id);
  const people = rows
    .filter((row) => row.provider.active)
    .map((row) => ({ id: row.provider.id, name: row.provider.name }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const named = people.find((p) => p.id === asked);
  if (asked !== "any" && !named) return { service, ask: people };
  return { service, person: asked, personName: named?.name };
}

/** Reads what the choices name and decides the next step (a 403 when the member may not book). */
export async function loadPhoneIn(c: DeskContext, choice: Choice): Promise<PhoneIn> {
  await authorise(c, "bookings:write", "POST /bookings");
  if (choice.more) await authorise(c, "bookings:write", "POST /appointments");
  const pickService = async (): Promise<PhoneIn> => ({
    choice: {},
    step: { kind: "service", services: await activeServices(c) },
  });
  if (!choice.service) return pickService();
  const first = await chosenService(c, choice.service, choice.person);
  if (!first) return pickService();
  const { service } = first;
  if (first.ask) return { choice: { service: service.id }, service, step: { kind: "person", people: first.ask } };
  const person = first.personName;
  const base = { service: service.id, person: first.person, day: choice.day };
  // The visit's later services in order; one no longer active is left out, one without its person asks for it.
  const later: LaterService[] = [];
  // Read side by side (at most four), not one round trip after another.
  const chosenLater = await Promise.all(
    (choice.more ?? []).map((segment) => chosenService(c, segment.service, segment.person)),
  );
  for (const chosen of chosenLater) {
    if (!chosen) continue;
    const kept = { service: chosen.service.id, person: chosen.person };
    if (chosen.ask) {
      const asking = { ...base, more: [...later.map((l) => l.choice), kept] };
      const step = { kind: "person" as const, people: chosen.ask, segment: later.length };
      return { choice: asking, service, person, later: [...later, { service: chosen.service, choice: kept }], step };
    }
    later.push({ service: chosen.service, person: chosen.personName, choice: kept });
  }
  const more = later.length > 0 ? later.map((l) => l.choice) : undefined;
  const canAdd = later.length < MAX_SEGMENTS - 1;
  const flow = { service, person, ...(more ? { later } : {}) };
  if (choice.add && canAdd) {
    const services = await activeServices(c);
    return { ...flow, choice: { ...base, more, add: "1" }, step: { kind: "service", services, adding: true } };
  }
  const kept: Choice = { ...choice, ...base, more, add: undefined };
  if (!kept.day || !kept.time) {
    const day = kept.day ?? dayKeyOf(Date.now(), c.var.desk.timezone);
    const times = more
      ? await visitTimesOf(
          c,
          [{ ...service, person: first.person }, ...later.map((l) => ({ ...l.service, person: l.choice.person }))],
          day,
        )
      : await freeTimesOf(c, service.id, day, first.person);
    return { ...flow, choice: { ...kept, time: undefined }, step: { kind: "time", day, times, canAdd } };
  }
  if (more) {
    // A visit ends where its last service does, whatever the address said.
    const minutes = [service, ...later.map((l) => l.service)].reduce((sum, s) => sum + s.durationMinutes, 0);
    const endTime = new Date(Date.parse(kept.time.startTime) + minutes * 60_000).toISOString();
    kept.time = { startTime: kept.time.startTime, endTime };
  }
  if (kept.customer) {
    const chosen = await customerOf(c, kept.customer);
    const customer = { name: chosen.name, email: chosen.email, phone: chosen.phone ?? undefined };
    return { ...flow, choice: kept, customer, step: { kind: "notes" } };
  }
  if (kept.name !== undefined || kept.email !== undefined) {
    const { customer, problems } = newCustomerOf(kept, c.var.desk.m);
    if (customer) return { ...flow, choice: kept, customer, step: { kind: "notes" } };
    return { ...flow, choice: kept, step: { kind: "customer", problems } };
  }
  const found = kept.q ? (await searchCustomers(c, kept.q)).items : undefined;
  return { ...flow, choice: kept, step: { kind: "customer", found, problems: {} } };
}
