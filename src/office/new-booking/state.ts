/**
 * The phone-in's choices so far, carried in the query of each step (GET) and in the last step's
 * form (POST): service → person → (more services, each with its person: a visit) → day and time →
 * customer (an existing one's id, or a new one's name, e-mail and phone) → notes. Anything
 * malformed is dropped, so that step is asked again.
 */
import { isDay } from "../../pages/state";
import { MAX_SEGMENTS } from "../../schemas/visits";
import { postedTime } from "../booking/move";

/** A service after the first, with its person (`any`, a provider's id, or not chosen yet). */
export type Segment = { service: string; person?: string };

/** What was chosen so far. `person` is a provider's id or `any` (the API then assigns one). */
export type Choice = {
  service?: string;
  person?: string;
  /** The services after the first, in order: with them the phone-in books a visit. */
  more?: Segment[];
  /** `1` while the desk picks the next service of the visit. */
  add?: string;
  day?: string;
  time?: { startTime: string; endTime: string };
  customer?: string;
  name?: string;
  email?: string;
  phone?: string;
  q?: string;
};

/** The order the choices are made in, as query parameters. */
const order = ["service", "person", "more", "add", "day", "time", "customer", "name", "email", "phone", "q"] as const;
export type ChoiceName = (typeof order)[number];

const id = (value: string | undefined) =>
  value !== undefined && /^[A-Za-z0-9_]{1,64}$/.test(value) ? value : undefined;
const text = (value: string | undefined, max: number) => {
  const trimmed = value?.trim();
  return trimmed && trimmed.length <= max ? trimmed : undefined;
};

/**
 * The later services of a visit, `svc_a:any,svc_b:prv_c` (a person may be left to choose): at most
 * the API's segments less the first; a list that is malformed or longer is left out whole.
 */
function segmentsOf(value: string | undefined): Segment[] | undefined {
  if (value === undefined || value === "") return undefined;
  const items = value.split(",");
  if (items.length > MAX_SEGMENTS - 1) return undefined;
  const segments: Segment[] = [];
  for (const item of items) {
    const [service, person, ...rest] = item.split(":");
    if (!id(service) || rest.length > 0) return undefined;
    if (person === undefined) segments.push({ service: service as string });
    else if (person === "any" || id(person)) segments.push({ service: service as string, person });
    else return undefined;
  }
  return segments;
}

/** A visit's later services as one query value. */
const segmentsValue = (segments: Segment[]) =>
  segments.map((s) => (s.person ? `${s.service}:${s.person}` : s.service)).join(",");

/** The choices a query (or a posted form) carries; what is not well-formed is left out. */
export function choiceOf(fields: Record<string, string | undefined>): Choice {
  const day = fields.day !== undefined && isDay(fields.day) ? fields.day : undefined;
  return {
    service: id(fields.service),
    person: fields.person === "any" ? "any" : id(fields.person),
    more: segmentsOf(fields.more),
    add: fields.add === "1" ? "1" : undefined,
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
    if (Array.isArray(value)) {
      if (value.length > 0) params.push([name, segmentsValue(value)]);
    } else params.push([name, typeof value === "string" ? value : `${value.startTime}/${value.endTime}`]);
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
