/**
 * The phone-in's choices so far, carried in the query of each step (GET) and in the last step's
 * form (POST): service → person → day and time → customer (an existing one's id, or a new one's
 * name, e-mail and phone) → notes. Anything malformed is dropped, so that step is asked again.
 */
import { isDay } from "../../pages/state";
import { postedTime } from "../booking/move";

/** What was chosen so far. `person` is a provider's id or `any` (the API then assigns one). */
export type Choice = {
  service?: string;
  person?: string;
  day?: string;
  time?: { startTime: string; endTime: string };
  customer?: string;
  name?: string;
  email?: string;
  phone?: string;
  q?: string;
};

/** The order the choices are made in, as query parameters. */
const order = ["service", "person", "day", "time", "customer", "name", "email", "phone", "q"] as const;
export type ChoiceName = (typeof order)[number];

const id = (value: string | undefined) =>
  value !== undefined && /^[A-Za-z0-9_]{1,64}$/.test(value) ? value : undefined;
const text = (value: string | undefined, max: number) => {
  const trimmed = value?.trim();
  return trimmed && trimmed.length <= max ? trimmed : undefined;
};

/** The choices a query (or a posted form) carries; what is not well-formed is left out. */
export function choiceOf(fields: Record<string, string | undefined>): Choice {
  const day = fields.day !== undefined && isDay(fields.day) ? fields.day : undefined;
  return {
    service: id(fields.service),
    person: fields.person === "any" ? "any" : id(fields.person),
    day,
    time: day ? postedTime(fields.time) : undefined,
    customer: id(fields.customer),
    name: text(fields.name, 200),
    email: text(fields.email, 254),
    phone: text(fields.phone, 40),
    q: text(fields.q, 200),
  };
}

/** A choice as query parameters (in the steps' order). */
export function choiceParams(choice: Choice): [ChoiceName, string][] {
  const params: [ChoiceName, string][] = [];
  for (const name of order) {
    const value = choice[name];
    if (value === undefined) continue;
    params.push([name, typeof value === "string" ? value : `${value.startTime}/${value.endTime}`]);
  }
  return params;
}

/** The address of the step after `choice` with `changes` (undefined clears a choice). */
export function stepHref(choice: Choice, changes: Partial<Choice> = {}): string {
  const query = new URLSearchParams(choiceParams({ ...choice, ...changes })).toString();
  return query ? `/office/bookings/new?${query}` : "/office/bookings/new";
}

/** The choices made before `name` (to go back to that step: it and every later one cleared). */
export function before(choice: Choice, name: ChoiceName): Choice {
  const kept: Choice = {};
  for (const key of order) {
    if (key === name) break;
    (kept as Record<string, unknown>)[key] = choice[key];
  }
  return kept;
}
