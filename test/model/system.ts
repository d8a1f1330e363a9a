/**
 * The real side of the model-based test: one business per sequence, driven through the Worker's
 * HTTP surface with a faked clock, and the checks made after every command (nothing answered
 * 5xx, the model's invariants hold, D1 agrees with the model, reconciliation finds nothing).
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, vi } from "vitest";
import { reconcileClaimed } from "../../src/calendar/d1/reconcile-claimed";
import { reconcile } from "../../src/calendar/d1/reconcile-services";
import { providerCalendarOf, resourceCalendarOf } from "../../src/calendar/stubs";
import { api, createAccount } from "../support/api";
import { calendarStub } from "../support/bookings";
import { checkConflicts } from "./conflicts";
import {
  type Expected,
  HOUR,
  type HoursName,
  hoursCatalog,
  MINUTE,
  type Model,
  type ProviderKey,
  type ProviderModel,
  type ResourceKey,
  type ResourceModel,
  type ServiceKey,
  type ServiceModel,
  T0,
  violations,
} from "./model";
import { syncOffers } from "./waitlist";

/** Prints every request as it is sent (MODEL_TRACE=1), to find where a sequence stops. */
const TRACE = (env as unknown as { MODEL_TRACE?: string }).MODEL_TRACE === "1";

/** The business under test: its key, and the real id of each model key. */
export type System = {
  apiKey: string;
  businessId: string;
  ids: Record<ServiceKey | ProviderKey | ResourceKey, string>;
  /** Real booking and hold ids are the model's ids; this maps them to nothing more. */
  log: string[];
  /** The business's booking page (both services are offered on it), and its visitor's address. */
  slug: string;
  visitor: string;
};

/** The clock starts half a day before the first day appointments are made for. */
export const START = T0 - 12 * HOUR;

export const weekly = (hours: HoursName) => {
  const day = hoursCatalog[hours].map(([start, end]) => ({ start, end }));
  return { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day };
};

/** The local date of day `n` of the run (the same in both zones: T0 is midnight UTC). */
export const dateOf = (n: number) => new Date(T0 + n * 24 * HOUR).toISOString().slice(0, 10);

export const providerBody = (p: ProviderModel) => ({
  timezone: p.zone,
  weeklySchedule: weekly(p.hours),
  dateOverrides: p.dayOff === null ? [] : [{ date: dateOf(p.dayOff), intervals: [] }],
  active: p.active,
  limits: { perDay: p.perDay ?? null },
});

export const resourceBody = (r: Partial<ResourceModel>) => ({
  ...(r.quantity === undefined ? {} : { quantity: r.quantity }),
  ...(r.active === undefined ? {} : { active: r.active }),
  ...(r.hours === undefined ? {} : { weeklySchedule: r.hours === null ? null : weekly(r.hours) }),
});

export const serviceBody = (s: ServiceModel, ids: Record<string, string>) => ({
  capacity: s.capacity,
  durationMinutes: s.duration,
  bufferBeforeMinutes: s.bufferBefore,
  bufferAfterMinutes: s.bufferAfter,
  weeklySchedule: weekly(s.hours),
  providerIds: s.providers.map((p) => ids[p]),
  resourceIds: s.resources.map((r) => ids[r]),
  providerMode: s.mode,
  cancellationNoticeMinutes: s.cancelNotice,
  rescheduleNoticeMinutes: s.moveNotice,
  active: s.active,
  bookableOnline: true,
  limits: { perDay: s.limits?.perDay ?? null, perWeek: s.limits?.perWeek ?? null },
  maxActivePerCustomer: s.perCustomer ?? null,
  assignment: s.assignment ?? "first",
});

/**
 * Sends a request and fails on any 5xx, whatever the command expected. `asCustomer`: without a
 * key, as a customer's manage link is used (each from its own address, so no limit is met), or
 * from the address given (a booking page's visitor).
 */
/** Customers' calls, counted across every sequence of the run: each gets an address of its own. */
let customerCalls = 0;
const nextCustomerAddress = () => {
  customerCalls++;
  return `198.18.${(customerCalls >> 8) % 250}.${customerCalls % 250}`;
};

export async function send(
  sys: System,
  method: string,
  path: string,
  body?: unknown,
  asCustomer: boolean | string = false,
): Promise<Response> {
  if (TRACE) console.log(`model: ${method} ${path} ${JSON.stringify(body ?? "")}`);
  const res = await api(method, path, {
    key: asCustomer ? null : sys.apiKey,
    body,
    headers: asCustomer
      ? { "CF-Connecting-IP": typeof asCustomer === "string" ? asCustomer : nextCustomerAddress() }
      : undefined,
  });
  sys.log.push(`${method} ${path} → ${res.status}`);
  expect(res.status, `${method} ${path} answered ${res.status}: ${await res.clone().text()}`).toBeLessThan(500);
  return res;
}

/** Asserts that an answer is what the model expected; returns the body. */
export async function expectAnswer(res: Response, expected: Expected, what: string) {
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary JSON
  const body: any = res.status === 204 ? null : await res.json();
  const got = { status: res.status, code: body?.code, reason: body?.reason };
  const want =
    "code" in expected
      ? { status: expected.status, code: expected.code, reason: expected.reason }
      : { status: expected.status, code: undefined, reason: undefined };
  expect(got, `${what}: ${JSON.stringify(body)}`).toEqual(want);
  return body;
}

/** Makes the business with the model's first state. */
export async function setUp(model: Model): Promise<System> {
  vi.setSystemTime(model.now);
  const { apiKey, businessId } = await createAccount("Model");
  const visitor = nextCustomerAddress();
  const slug = `model-${businessId.slice(-12)}`;
  const sys: System = { apiKey, businessId, ids: {} as System["ids"], log: [], slug, visitor };
  for (const key of ["P0", "P1"] as const) {
    const res = await send(sys, "POST", "/providers", { name: key, ...providerBody(model.providers[key]) });
    sys.ids[key] = ((await res.json()) as { id: string }).id;
  }
  // A team's people are claimed in the order of their real ids.
  model.order = (["P0", "P1"] as const).slice().sort((a, b) => (sys.ids[a] < sys.ids[b] ? -1 : 1));
  const room = await send(sys, "POST", "/resources", {
    name: "R0",
    timezone: "UTC",
    ...resourceBody(model.resources.R0),
  });
  expect(room.status).toBe(201);
  sys.ids.R0 = ((await room.json()) as { id: string }).id;
  for (const key of ["S0", "S1"] as const) {
    const body = { name: key, timezone: "UTC", slotIntervalMinutes: 30, ...serviceBody(model.services[key], sys.ids) };
    const res = await send(sys, "POST", "/services", body);
    expect(res.status).toBe(201);
    sys.ids[key] = ((await res.json()) as { id: string }).id;
  }
  const page = await send(sys, "PATCH", "/business", { slug, bookingPage: { enabled: true } });
  expect(page.status).toBe(200);
  return sys;
}

/** Time passes: the clock moves and every calendar object's alarm runs, as it would on time. */
export async function advance(model: Model, sys: System, minutes: number): Promise<void> {
  model.now += minutes * MINUTE;
  vi.setSystemTime(model.now);
  for (const key of ["S0", "S1"] as const) await runDurableObjectAlarm(calendarStub(sys.businessId, sys.ids[key]));
  for (const key of ["P0", "P1"] as const) {
    await runDurableObjectAlarm(providerCalendarOf(env, sys.businessId, sys.ids[key]));
  }
  await runDurableObjectAlarm(resourceCalendarOf(env, sys.businessId, sys.ids.R0));
}

/** The checks after every command; `freed` names the services whose calendars may have freed seats (offers ran there). */
export async function checkInvariants(model: Model, sys: System, freed: readonly ServiceKey[] = []): Promise<void> {
  await syncOffers(model, sys, freed);
  expect(violations(model), "model invariants").toEqual([]);
  // D1 holds what the model holds: every booking with its status, times and person.
  const res = await send(sys, "GET", "/bookings?limit=100");
  const listed = (
    ((await res.json()) as { data: unknown[] }).data as {
      id: string;
      status: string;
      startTime: string;
      providerId: string;
      providerIds: string[];
      resourceIds: string[];
    }[]
  )
    .map((b) => ({
      id: b.id,
      status: b.status,
      start: Date.parse(b.startTime),
      provider: b.providerId,
      people: [...b.providerIds].sort(),
      resources: b.resourceIds,
    }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  const modelled = model.bookings
    .map((b) => ({
      id: b.id,
      status: b.status,
      start: b.start,
      provider: b.provider ? sys.ids[b.provider] : null,
      people: (b.provider ? [b.provider] : b.team).map((p) => sys.ids[p]).sort(),
      resources: b.resources.map((r) => sys.ids[r]),
    }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  expect(listed, "D1 bookings").toEqual(modelled);
  const scope = { businessId: sys.businessId };
  const [calendars, people] = await Promise.all([reconcile(env, scope), reconcileClaimed(env, scope)]);
  expect(calendars.differences, "calendars vs D1").toEqual([]);
  expect(calendars.consistent).toBe(true);
  expect(people.differences, "people's and resources' calendars vs D1").toEqual([]);
  await checkConflicts(model, sys, () => send(sys, "GET", "/bookings?conflicted=true&limit=100"));
}
