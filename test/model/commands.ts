/**
 * The commands of the model-based test. Each one asks the model what the API should answer,
 * sends the request, compares, and applies the answer to the model (the engine's choices, such
 * as which person it assigned, come from the real answer and are checked against the model's
 * options). `toString` is what a shrunk counterexample prints.
 */
import fc from "fast-check";
import { expect } from "vitest";
import { BusyAppears, BusyGone } from "./busy";
import {
  allowNow,
  convertedEvenly,
  customerLimitRefuses,
  evenly,
  movedUnevenly,
  placedEvenly,
  requestInteracts,
  type ServiceLimits,
} from "./limits";
import {
  blockedOf,
  DAY,
  type Expected,
  expectCreate,
  expectLinkChange,
  expectMove,
  expectSeries,
  expectVisit,
  type HoursName,
  iso,
  label,
  liveHold,
  MINUTE,
  type Model,
  type ProviderKey,
  type ResourceKey,
  type ResourceModel,
  type ServiceKey,
  type ServiceModel,
  seatRows,
  seatsFit,
  T0,
  unitsFit,
  type Zone,
} from "./model";
import { PageBook, PageHold } from "./public";
import { Relocate } from "./relocate";
import {
  advance,
  checkInvariants,
  expectAnswer,
  providerBody,
  resourceBody,
  type System,
  send,
  serviceBody,
} from "./system";
import { Join, JoinBooked, Leave } from "./waitlist";

type Cmd = fc.AsyncCommand<Model, System>;

/** Start times worth trying (UTC): working-hour edges of both zones, and around midnight. */
const times = [
  "00:00",
  "01:30",
  "03:30",
  "06:30",
  "09:00",
  "10:00",
  "11:30",
  "12:00",
  "12:30",
  "16:30",
  "18:00",
  "18:30",
  "20:30",
  "23:30",
];
const at = (day: number, time: number) =>
  T0 +
  day * DAY +
  Number((times[time] as string).slice(0, 2)) * 60 * MINUTE +
  Number((times[time] as string).slice(3)) * MINUTE;
/** The customers whose limits the commands meet: one address in two spellings, and another. */
const customers = ["ana@example.com", "Ana@Example.COM", "bo@example.com"] as const;
const idOf = (sys: System, key: ProviderKey | null) => (key ? sys.ids[key] : undefined);
/** The path under /api/v1 of a booking's manage link. */
const linkOf = (manageUrl: string) => manageUrl.slice(manageUrl.indexOf("/manage/"));

/** Everyone a new booking of the service claims as a team (none unless its providerMode is all). */
const teamOf = (service: ServiceModel): ProviderKey[] =>
  service.mode === "all" && service.providers.length > 0 ? [...service.providers] : [];

/** Books a time, after reading the slot calendar for it: what it lists as bookable must book, and only that. */
class Create implements Cmd {
  constructor(
    readonly service: ServiceKey,
    readonly day: number,
    readonly time: number,
    readonly person: ProviderKey | null,
    readonly who = 0,
  ) {}
  check = () => true;
  async run(m: Model, sys: System) {
    const start = at(this.day, this.time);
    const end = start + m.services[this.service].duration * MINUTE;
    const customer = customers[this.who % customers.length] as string;
    const expected = expectCreate(m, this.service, start, end, this.person, { email: customer });
    // The slot calendar knows no customer: what it shows is the booking's answer for anyone.
    const anyone = expectCreate(m, this.service, start, end, this.person);
    const even = evenly(m, this.service, start, end, this.person);
    const providerQuery = this.person ? `&providerId=${sys.ids[this.person]}` : "";
    const calendar = await send(
      sys,
      "GET",
      `/services/${sys.ids[this.service]}/availability?from=${iso(start)}&to=${iso(start + MINUTE)}${providerQuery}`,
    );
    const slot =
      calendar.status === 200
        ? (
            ((await calendar.json()) as { slots: unknown[] }).slots as {
              startTime: string;
              bookable: boolean;
              reason?: string;
            }[]
          ).find((s) => Date.parse(s.startTime) === start)
        : undefined;
    const res = await send(sys, "POST", "/bookings", {
      serviceId: sys.ids[this.service],
      customerName: "Model",
      customerEmail: customer,
      startTime: iso(start),
      endTime: iso(end),
      ...(this.person ? { providerId: sys.ids[this.person] } : {}),
    });
    const body = await expectAnswer(res, expected, this.toString());
    if (calendar.status === 200) {
      expect(slot?.bookable ?? false, "the slot calendar agrees with booking").toBe(anyone.status === 201);
      const limited = "reason" in anyone && anyone.reason === "limit_reached";
      expect(slot?.reason === "limit_reached", "the slot calendar names a limit as booking does").toBe(limited);
    }
    if (res.status === 201) {
      this.record(m, sys, body, expected, start, end, customer);
      if (even) placedEvenly(m, this.service, body.id, start);
    }
    await checkInvariants(m, sys);
  }
  private record(
    m: Model,
    sys: System,
    body: { id: string; providerId: string | null; manageUrl: string },
    expected: ReturnType<typeof expectCreate>,
    start: number,
    end: number,
    customer: string,
  ) {
    const person = (["P0", "P1"] as const).find((p) => sys.ids[p] === body.providerId) ?? null;
    if ("candidates" in expected && expected.candidates) expect(expected.candidates).toContain(person);
    const blocked = blockedOf(m.services[this.service], start, end);
    const resources = [...m.services[this.service].resources];
    m.bookings.push({
      id: body.id,
      service: this.service,
      provider: person,
      team: teamOf(m.services[this.service]),
      start,
      end,
      blocked,
      resources,
      status: "CONFIRMED",
      link: linkOf(body.manageUrl),
      email: customer,
    });
  }
  toString = () =>
    `create(${this.service}, ${label(at(this.day, this.time))}${this.person ? `, ${this.person}` : ""}, ${customers[this.who % customers.length]})`;
}

/** Places a hold for a time (the same rules as a booking). */
class Hold implements Cmd {
  constructor(
    readonly service: ServiceKey,
    readonly day: number,
    readonly time: number,
    readonly person: ProviderKey | null,
    readonly ttl: number,
  ) {}
  check = () => true;
  async run(m: Model, sys: System) {
    const start = at(this.day, this.time);
    const end = start + m.services[this.service].duration * MINUTE;
    const expected = expectCreate(m, this.service, start, end, this.person);
    const even = evenly(m, this.service, start, end, this.person);
    const res = await send(sys, "POST", "/holds", {
      serviceId: sys.ids[this.service],
      startTime: iso(start),
      endTime: iso(end),
      ttlSeconds: this.ttl,
      ...(this.person ? { providerId: sys.ids[this.person] } : {}),
    });
    const body = await expectAnswer(res, expected, this.toString());
    if (res.status === 201) {
      const person = (["P0", "P1"] as const).find((p) => sys.ids[p] === body.providerId) ?? null;
      if ("candidates" in expected && expected.candidates) expect(expected.candidates).toContain(person);
      const blocked = blockedOf(m.services[this.service], start, end);
      m.holds.push({
        id: body.id,
        service: this.service,
        provider: person,
        team: teamOf(m.services[this.service]),
        start,
        end,
        blocked,
        resources: [...m.services[this.service].resources],
        expiresAt: Date.parse(body.expiresAt),
        state: "HELD",
      });
      if (even) placedEvenly(m, this.service, body.id, start);
    }
    await checkInvariants(m, sys);
  }
  toString = () =>
    `hold(${this.service}, ${label(at(this.day, this.time))}${this.person ? `, ${this.person}` : ""}, ${this.ttl}s)`;
}

/** Books a hold (its time, seat and person). */
class Convert implements Cmd {
  constructor(
    readonly index: number,
    readonly who = 0,
  ) {}
  check = (m: Readonly<Model>) => m.holds.length > 0;
  async run(m: Model, sys: System) {
    const hold = m.holds[this.index % m.holds.length] as Model["holds"][number];
    const customer = customers[this.who % customers.length] as string;
    // The hold counted for its day and week; the customer is known only now.
    const expected: Expected = !m.services[hold.service].active
      ? { status: 422, code: "service_inactive" }
      : !liveHold(m, hold)
        ? { status: 409, code: "hold_expired" }
        : customerLimitRefuses(m, hold.service, customer)
          ? { status: 409, code: "slot_unavailable", reason: "limit_reached" }
          : { status: 201 };
    const res = await send(sys, "POST", "/bookings", {
      holdId: hold.id,
      customerName: "Model",
      customerEmail: customer,
    });
    const body = await expectAnswer(res, expected, this.toString());
    if (res.status === 201) {
      expect(body.providerId ?? null).toBe(idOf(sys, hold.provider) ?? null);
      hold.state = "CONSUMED";
      m.bookings.push({
        id: body.id,
        service: hold.service,
        provider: hold.provider,
        team: [...hold.team],
        start: hold.start,
        end: hold.end,
        blocked: hold.blocked,
        resources: [...hold.resources],
        status: "CONFIRMED",
        link: linkOf(body.manageUrl),
        email: customer,
      });
      convertedEvenly(m, hold.id, body.id);
    }
    await checkInvariants(m, sys);
  }
  toString = () => `book-hold(#${this.index}, ${customers[this.who % customers.length]})`;
}

/** Releases a hold (204 whatever its state). */
class Release implements Cmd {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.holds.length > 0;
  async run(m: Model, sys: System) {
    const hold = m.holds[this.index % m.holds.length] as Model["holds"][number];
    await expectAnswer(await send(sys, "DELETE", `/holds/${hold.id}`), { status: 204 }, this.toString());
    if (liveHold(m, hold)) hold.state = "RELEASED";
    await checkInvariants(m, sys, [hold.service]);
  }
  toString = () => `release-hold(#${this.index})`;
}

/** Cancels a booking, or marks it COMPLETED / NO_SHOW (only once it has started). */
class Status implements Cmd {
  constructor(
    readonly index: number,
    readonly status: "CANCELLED" | "COMPLETED" | "NO_SHOW",
  ) {}
  check = (m: Readonly<Model>) => m.bookings.length > 0;
  async run(m: Model, sys: System) {
    const booking = m.bookings[this.index % m.bookings.length] as Model["bookings"][number];
    const allowed = booking.status === "CONFIRMED" && (this.status === "CANCELLED" || m.now >= booking.start);
    const res =
      this.status === "CANCELLED"
        ? await send(sys, "POST", `/bookings/${booking.id}/cancel`, {})
        : await send(sys, "PATCH", `/bookings/${booking.id}`, { status: this.status });
    await expectAnswer(res, allowed ? { status: 200 } : { status: 409, code: "invalid_transition" }, this.toString());
    if (allowed) booking.status = this.status;
    await checkInvariants(m, sys, allowed ? [booking.service] : []);
  }
  toString = () => `${this.status.toLowerCase()}(#${this.index})`;
}

/** Applies a move the API made to the model, checking the person it chose against the model's. */
function moved(
  m: Model,
  sys: System,
  booking: Model["bookings"][number],
  expected: ReturnType<typeof expectMove>,
  providerId: string | null,
  start: number,
) {
  const service = m.services[booking.service];
  const end = start + service.duration * MINUTE;
  const person = (["P0", "P1"] as const).find((p) => sys.ids[p] === providerId) ?? null;
  if ("candidates" in expected && expected.candidates) expect(expected.candidates).toContain(person);
  else expect(person).toBeNull();
  const resources = [...service.resources];
  const blocked = blockedOf(service, start, end);
  Object.assign(booking, { start, end, blocked, provider: person, team: teamOf(service), resources });
  movedUnevenly(m, booking.id);
}

/** Moves a booking to another time (and maybe person). */
class Move implements Cmd {
  constructor(
    readonly index: number,
    readonly day: number,
    readonly time: number,
    readonly person: ProviderKey | null,
  ) {}
  check = (m: Readonly<Model>) => m.bookings.length > 0;
  async run(m: Model, sys: System) {
    const booking = m.bookings[this.index % m.bookings.length] as Model["bookings"][number];
    const start = at(this.day, this.time);
    const service = m.services[booking.service];
    const end = start + service.duration * MINUTE;
    const expected = expectMove(m, booking, start, this.person);
    const res = await send(sys, "POST", `/bookings/${booking.id}/reschedule`, {
      startTime: iso(start),
      endTime: iso(end),
      ...(this.person ? { providerId: sys.ids[this.person] } : {}),
    });
    const body = await expectAnswer(res, expected, this.toString());
    if (res.status === 200) moved(m, sys, booking, expected, body.providerId, start);
    await checkInvariants(m, sys, res.status === 200 ? [booking.service] : []);
  }
  toString = () => `move(#${this.index}, ${label(at(this.day, this.time))}${this.person ? `, ${this.person}` : ""})`;
}

/** The customer cancels by their booking's manage link, inside or outside the service's notice. */
class LinkCancel implements Cmd {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.bookings.length > 0;
  async run(m: Model, sys: System) {
    const booking = m.bookings[this.index % m.bookings.length] as Model["bookings"][number];
    const expected = expectLinkChange(m, booking);
    await expectAnswer(await send(sys, "POST", `${booking.link}/cancel`, {}, true), expected, this.toString());
    if (expected.status === 200) booking.status = "CANCELLED";
    await checkInvariants(m, sys, expected.status === 200 ? [booking.service] : []);
  }
  toString = () => `link-cancel(#${this.index})`;
}

/** The customer moves their booking by its manage link (the same person), inside or outside the notice. */
class LinkMove implements Cmd {
  constructor(
    readonly index: number,
    readonly day: number,
    readonly time: number,
  ) {}
  check = (m: Readonly<Model>) => m.bookings.length > 0;
  async run(m: Model, sys: System) {
    const booking = m.bookings[this.index % m.bookings.length] as Model["bookings"][number];
    const start = at(this.day, this.time);
    const end = start + m.services[booking.service].duration * MINUTE;
    const expected = expectLinkChange(m, booking, { start });
    const res = await send(
      sys,
      "POST",
      `${booking.link}/reschedule`,
      { startTime: iso(start), endTime: iso(end) },
      true,
    );
    await expectAnswer(res, expected, this.toString());
    if (res.status === 200) {
      const { providerId } = await send(sys, "GET", `/bookings/${booking.id}`).then(
        (r) => r.json() as Promise<{ providerId: string | null }>,
      );
      moved(m, sys, booking, expected, providerId, start);
    }
    await checkInvariants(m, sys, res.status === 200 ? [booking.service] : []);
  }
  toString = () => `link-move(#${this.index}, ${label(at(this.day, this.time))})`;
}

/**
 * Books a visit: one service, then the other where it ends, by the same person (or assigned);
 * booked whole or not at all, a refusal naming a segment that could not be staffed.
 */
class Visit implements Cmd {
  constructor(
    readonly first: ServiceKey,
    readonly day: number,
    readonly time: number,
    readonly person: ProviderKey | null,
    readonly who = 0,
  ) {}
  check = () => true;
  async run(m: Model, sys: System) {
    const start = at(this.day, this.time);
    const order: ServiceKey[] = this.first === "S0" ? ["S0", "S1"] : ["S1", "S0"];
    let next = start;
    const segments = order.map((service) => {
      const segment = { service, start: next, end: next + m.services[service].duration * MINUTE, person: this.person };
      next = segment.end;
      return segment;
    });
    const customer = customers[this.who % customers.length] as string;
    const expected = expectVisit(m, segments, customer);
    // Segments that may count against one person's limit together: either answer may come.
    const either = requestInteracts(m, segments, customer);
    const res = await send(sys, "POST", "/appointments", {
      customerName: "Model",
      customerEmail: customer,
      startTime: iso(start),
      segments: segments.map((g) => ({
        serviceId: sys.ids[g.service],
        ...(g.person ? { providerId: sys.ids[g.person] } : {}),
      })),
    });
    // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary JSON
    const body: any = await res.json();
    const what = `${this.toString()}: ${JSON.stringify(body)}`;
    if (either && expected.status !== 422) expect([201, 409], what).toContain(res.status);
    else {
      expect({ status: res.status, code: body.code }, what).toEqual({
        status: expected.status,
        code: "code" in expected ? expected.code : undefined,
      });
      if ("reason" in expected && expected.reason) expect(body.reason, what).toBe(expected.reason);
      if (expected.segments) expect(expected.segments, what).toContain(body.segment);
    }
    if (res.status === 201) {
      for (const [i, booking] of (
        body.bookings as { id: string; providerId: string | null; manageUrl: string }[]
      ).entries()) {
        const segment = segments[i] as (typeof segments)[number];
        const person = (["P0", "P1"] as const).find((p) => sys.ids[p] === booking.providerId) ?? null;
        const candidates =
          expected.each?.[i] && "candidates" in (expected.each[i] as object)
            ? (expected.each[i] as { candidates?: ProviderKey[] }).candidates
            : undefined;
        if (candidates && !either) expect(candidates, what).toContain(person);
        const service = m.services[segment.service];
        m.bookings.push({
          id: booking.id,
          service: segment.service,
          provider: person,
          team: teamOf(service),
          start: segment.start,
          end: segment.end,
          blocked: blockedOf(service, segment.start, segment.end),
          resources: [...service.resources],
          status: "CONFIRMED",
          link: linkOf(booking.manageUrl),
          appointment: body.id,
          email: customer,
        });
      }
    }
    await checkInvariants(m, sys);
  }
  toString = () =>
    `visit(${this.first} then ${this.first === "S0" ? "S1" : "S0"}, ${label(at(this.day, this.time))}${this.person ? `, ${this.person}` : ""}, ${customers[this.who % customers.length]})`;
}

/** Cancels a visit: every segment still CONFIRMED; a 409 when none is. */
class VisitCancel implements Cmd {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.bookings.some((b) => b.appointment);
  async run(m: Model, sys: System) {
    const visits = [...new Set(m.bookings.flatMap((b) => (b.appointment ? [b.appointment] : [])))];
    const visit = visits[this.index % visits.length] as string;
    const segments = m.bookings.filter((b) => b.appointment === visit);
    const open = segments.filter((b) => b.status === "CONFIRMED");
    const res = await send(sys, "POST", `/appointments/${visit}/cancel`, {});
    await expectAnswer(
      res,
      open.length > 0 ? { status: 200 } : { status: 409, code: "invalid_transition" },
      this.toString(),
    );
    for (const b of open) b.status = "CANCELLED";
    await checkInvariants(m, sys, [...new Set(open.map((b) => b.service))]);
  }
  toString = () => `cancel-visit(#${this.index})`;
}

/** Books a daily or weekly series of 2–3 occurrences, all or none (reject) or the free ones (skip). */
class Series implements Cmd {
  constructor(
    readonly service: ServiceKey,
    readonly day: number,
    readonly time: number,
    readonly person: ProviderKey | null,
    readonly rule: { weekly: boolean; count: number; skip: boolean },
    readonly who = 0,
  ) {}
  check = () => true;
  async run(m: Model, sys: System) {
    const first = at(this.day, this.time);
    const step = (this.rule.weekly ? 7 : 1) * DAY;
    const starts = Array.from({ length: this.rule.count }, (_, i) => first + i * step);
    const duration = m.services[this.service].duration * MINUTE;
    const customer = customers[this.who % customers.length] as string;
    const expected = expectSeries(m, this.service, starts, this.person, this.rule.skip, customer);
    // Occurrences that may count against one limit together: either answer, any of them booked.
    const parts = starts.map((start) => ({ service: this.service, start, person: this.person }));
    const either = requestInteracts(m, parts, customer) && expected.status !== 422;
    const res = await send(sys, "POST", "/series", {
      serviceId: sys.ids[this.service],
      customerName: "Model",
      customerEmail: customer,
      startTime: iso(first),
      endTime: iso(first + duration),
      recurrence: `FREQ=${this.rule.weekly ? "WEEKLY" : "DAILY"};COUNT=${this.rule.count}`,
      onConflict: this.rule.skip ? "skip" : "reject",
      ...(this.person ? { providerId: sys.ids[this.person] } : {}),
    });
    // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary JSON
    const body: any = await res.json();
    // A 409 lists its conflicts with the slot calendar's reasons; the code is what is compared.
    if (either) expect([201, 409], `${this.toString()}: ${JSON.stringify(body)}`).toContain(res.status);
    else
      expect({ status: res.status, code: body.code }, `${this.toString()}: ${JSON.stringify(body)}`).toEqual({
        status: expected.status,
        code: "code" in expected ? expected.code : undefined,
      });
    if ("reason" in expected && expected.status === 422) expect(body.reason).toBe(expected.reason);
    if (res.status === 201) {
      const bookedAt = (body.bookings as { startTime: string }[]).map((b) => Date.parse(b.startTime));
      const booked = either
        ? bookedAt.map((t) => starts.indexOf(t))
        : (expected.each ?? []).flatMap((e, i) => (e.status === 201 ? [i] : []));
      const what = `${this.toString()}: ${JSON.stringify(body)}`;
      expect(bookedAt, what).toEqual(booked.map((i) => starts[i]));
      for (const [n, booking] of (
        body.bookings as { id: string; providerId: string | null; manageUrl: string }[]
      ).entries()) {
        const i = booked[n] as number;
        const start = starts[i] as number;
        const person = (["P0", "P1"] as const).find((p) => sys.ids[p] === booking.providerId) ?? null;
        const allowed = expected.each?.[i];
        if (!either && allowed && "candidates" in allowed && allowed.candidates)
          expect(allowed.candidates, what).toContain(person);
        const service = m.services[this.service];
        m.bookings.push({
          id: booking.id,
          service: this.service,
          provider: person,
          team: teamOf(service),
          start,
          end: start + duration,
          blocked: blockedOf(service, start, start + duration),
          resources: [...service.resources],
          status: "CONFIRMED",
          link: linkOf(booking.manageUrl),
          email: customer,
        });
      }
    }
    await checkInvariants(m, sys);
  }
  toString = () =>
    `series(${this.service}, ${label(at(this.day, this.time))}${this.person ? `, ${this.person}` : ""}, ${this.rule.weekly ? "weekly" : "daily"}×${this.rule.count}${this.rule.skip ? ", skip" : ""}, ${customers[this.who % customers.length]})`;
}

type ServiceChange = Partial<
  Pick<
    ServiceModel,
    | "capacity"
    | "duration"
    | "bufferBefore"
    | "bufferAfter"
    | "hours"
    | "providers"
    | "mode"
    | "resources"
    | "active"
    | "cancelNotice"
    | "moveNotice"
    | keyof ServiceLimits
  >
>;

/** Changes one setting of a service; fewer seats are refused while upcoming bookings would not fit. */
class PatchService implements Cmd {
  constructor(
    readonly service: ServiceKey,
    readonly change: ServiceChange,
  ) {}
  check = () => true;
  async run(m: Model, sys: System) {
    const current = m.services[this.service];
    const next = { ...current, ...this.change };
    const fewer = next.capacity < current.capacity || (current.providers.length > 0 && next.providers.length === 0);
    // A resource newly needed is refused while the service has upcoming bookings or live holds.
    const needsMore = next.resources.some((r) => !current.resources.includes(r)) || next.mode !== current.mode;
    const upcoming = seatRows(m, this.service).some((r) => r.blocked.end > m.now);
    const fits =
      (!fewer || seatsFit(m, this.service, next.capacity, next.providers.length > 0)) && !(needsMore && upcoming);
    const body = Object.fromEntries(
      Object.entries(serviceBody(next, sys.ids)).filter(([field]) => field in fieldsOf(this.change)),
    );
    const res = await send(sys, "PATCH", `/services/${sys.ids[this.service]}`, body);
    await expectAnswer(res, fits ? { status: 200 } : { status: 409, code: "bookings_conflict" }, this.toString());
    if (fits) m.services[this.service] = next;
    // Bookings over a lowered limit stay: what is held now is allowed from now on.
    if (fits && ("limits" in this.change || "perCustomer" in this.change)) allowNow(m, this.service);
    // Its WAITING entries wait for their start at the new length, keeping their place in line.
    if (fits && this.change.duration !== undefined) {
      for (const entry of m.waitlist ?? []) {
        if (entry.service === this.service && entry.status === "WAITING" && entry.start > m.now)
          entry.end = entry.start + next.duration * MINUTE;
      }
    }
    await checkInvariants(m, sys, fits ? [this.service] : []);
  }
  toString = () => `patch(${this.service}, ${JSON.stringify(this.change)})`;
}

/** The API field names a model change touches. */
function fieldsOf(change: ServiceChange): Record<string, true> {
  const names: Record<keyof ServiceChange, string> = {
    capacity: "capacity",
    duration: "durationMinutes",
    bufferBefore: "bufferBeforeMinutes",
    bufferAfter: "bufferAfterMinutes",
    hours: "weeklySchedule",
    providers: "providerIds",
    resources: "resourceIds",
    mode: "providerMode",
    active: "active",
    cancelNotice: "cancellationNoticeMinutes",
    moveNotice: "rescheduleNoticeMinutes",
    limits: "limits",
    perCustomer: "maxActivePerCustomer",
    assignment: "assignment",
  };
  return Object.fromEntries(Object.keys(change).map((k) => [names[k as keyof ServiceChange], true]));
}

/** Changes a person's hours, zone, day off or active flag; their bookings stay. */
class PatchProvider implements Cmd {
  constructor(
    readonly person: ProviderKey,
    readonly change: Partial<Model["providers"][ProviderKey]>,
  ) {}
  check = () => true;
  async run(m: Model, sys: System) {
    const next = { ...m.providers[this.person], ...this.change };
    const res = await send(sys, "PATCH", `/providers/${sys.ids[this.person]}`, providerBody(next));
    await expectAnswer(res, { status: 200 }, this.toString());
    m.providers[this.person] = next;
    // A new zone regroups the person's bookings into other local days, which may then hold more
    // than the limit: like a lowered limit, they stay, and what is held now is allowed from now on.
    if ("perDay" in this.change || "zone" in this.change) allowNow(m, this.person);
    await checkInvariants(m, sys);
  }
  toString = () => `patch(${this.person}, ${JSON.stringify(this.change)})`;
}

/**
 * Changes the room's units, hours or active flag; fewer units are refused while upcoming bookings
 * would not fit, and new hours keep the bookings made under the old ones.
 */
class PatchResource implements Cmd {
  constructor(readonly change: Partial<ResourceModel>) {}
  check = () => true;
  async run(m: Model, sys: System) {
    const current = m.resources.R0;
    const next = { ...current, ...this.change };
    // Only a change to fewer units (or inactive) is checked against the upcoming bookings.
    const units = next.active ? next.quantity : 0;
    const fits = units >= (current.active ? current.quantity : 0) || unitsFit(m, "R0", units);
    const res = await send(sys, "PATCH", `/resources/${sys.ids.R0}`, resourceBody(this.change));
    await expectAnswer(res, fits ? { status: 200 } : { status: 409, code: "bookings_conflict" }, this.toString());
    if (fits) m.resources.R0 = next;
    await checkInvariants(m, sys);
  }
  toString = () => `patch(R0, ${JSON.stringify(this.change)})`;
}

/** Time passes (alarms run as they would). */
class Advance implements Cmd {
  constructor(readonly minutes: number) {}
  check = () => true;
  async run(m: Model, sys: System) {
    await advance(m, sys, this.minutes);
    await checkInvariants(m, sys, ["S0", "S1"]);
  }
  toString = () => `wait(${this.minutes} min)`;
}

const service = fc.constantFrom<ServiceKey>("S0", "S1");
const person = fc.constantFrom<ProviderKey>("P0", "P1");
const maybeProvider = fc.option(person, { nil: null, freq: 2 });
const day = fc.integer({ min: 0, max: 2 });
const time = fc.integer({ min: 0, max: times.length - 1 });
const index = fc.nat(20);
const hours = fc.constantFrom<HoursName>("day", "allDay", "evening", "split");
const zone = fc.constantFrom<Zone>("UTC", "Asia/Kolkata");
const people = fc.subarray<ProviderKey>(["P0", "P1"]);
const rooms = fc.subarray<ResourceKey>(["R0"]);
/** A customer's notice window, in minutes: none, 10 hours, a day. */
const notice = fc.constantFrom(0, 0, 600, 1440);
/** The room's own hours, or none (open whenever its service is). */
const roomHours = fc.option(hours, { nil: null, freq: 2 });
/** Which of the customers books. */
const who = fc.integer({ min: 0, max: customers.length - 1 });
/** A value most of the time, else none: limits must meet the few bookings of a sequence to matter. */
const often = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 3 });
const seldom = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 1 });
/** A service's limits: small, so a few bookings meet them. */
const serviceLimits = fc.record({
  limits: often(
    fc.record({ perDay: often(fc.integer({ min: 1, max: 2 })), perWeek: seldom(fc.integer({ min: 2, max: 4 })) }),
  ),
  perCustomer: seldom(fc.constant(1)),
  assignment: fc.constantFrom<"first" | "balanced">("first", "balanced"),
});
const providerLimit = often(fc.integer({ min: 1, max: 2 }));

/** Every command, weighted towards bookings and changes that meet them. */
export const commands = [
  // Creates weigh most: limits and balanced assignment need a few bookings in a day to matter.
  fc.tuple(service, day, time, maybeProvider, who).map(([s, d, t, p, c]) => new Create(s, d, t, p, c)),
  fc.tuple(service, day, time, maybeProvider, who).map(([s, d, t, p, c]) => new Create(s, d, t, p, c)),
  fc.tuple(service, day, time, maybeProvider, who).map(([s, d, t, p, c]) => new Create(s, d, t, p, c)),
  fc.tuple(service, day, time, maybeProvider, who).map(([s, d, t, p, c]) => new Create(s, d, t, p, c)),
  fc
    .tuple(service, day, time, maybeProvider, fc.constantFrom(60, 600))
    .map(([s, d, t, p, ttl]) => new Hold(s, d, t, p, ttl)),
  fc.tuple(index, who).map(([i, c]) => new Convert(i, c)),
  index.map((i) => new Release(i)),
  fc.tuple(service, day, time, maybeProvider).map(([s, d, t, p]) => new PageHold(s, at(d, t), p, T0)),
  fc.tuple(service, day, time, maybeProvider).map(([s, d, t, p]) => new PageHold(s, at(d, t), p, T0)),
  fc.tuple(index, fc.constantFrom(false, false, false, true)).map(([i, wrong]) => new PageBook(i, wrong)),
  fc.tuple(index, fc.constantFrom(false, false, false, true)).map(([i, wrong]) => new PageBook(i, wrong)),
  fc
    .tuple(
      index,
      fc.constantFrom("CANCELLED", "COMPLETED", "NO_SHOW") as fc.Arbitrary<"CANCELLED" | "COMPLETED" | "NO_SHOW">,
    )
    .map(([i, s]) => new Status(i, s)),
  fc.tuple(index, day, time, maybeProvider).map(([i, d, t, p]) => new Move(i, d, t, p)),
  fc
    .tuple(
      service,
      fc.oneof(
        fc.record({ capacity: fc.integer({ min: 1, max: 3 }) }),
        fc.record({ duration: fc.constantFrom(30, 60, 90) }),
        fc.record({ bufferBefore: fc.constantFrom(0, 15), bufferAfter: fc.constantFrom(0, 30) }),
        fc.record({ hours }),
        fc.record({ providers: people }),
        fc.record({ resources: rooms }),
        fc.record({ mode: fc.constantFrom<"one" | "all">("one", "all") }),
        fc.record({ active: fc.boolean() }),
        fc.record({ cancelNotice: notice, moveNotice: notice }),
        // Limits set, changed and lifted at random (twice: they must meet bookings to matter).
        serviceLimits.map(({ limits }) => ({ limits })),
        serviceLimits.map(({ limits, perCustomer }) => ({ limits, perCustomer })),
        serviceLimits.map(({ assignment }) => ({ assignment })),
      ),
    )
    .map(([s, change]) => new PatchService(s, change)),
  index.map((i) => new LinkCancel(i)),
  fc.tuple(index, day, time).map(([i, d, t]) => new LinkMove(i, d, t)),
  fc.tuple(service, day, time, maybeProvider, who).map(([s, d, t, p, c]) => new Visit(s, d, t, p, c)),
  index.map((i) => new VisitCancel(i)),
  fc.tuple(service, day, time, maybeProvider).map(([s, d, t, p]) => new Join(s, d, t, p, times)),
  fc.tuple(service, day, time, maybeProvider).map(([s, d, t, p]) => new Join(s, d, t, p, times)),
  index.map((i) => new JoinBooked(i)),
  index.map((i) => new JoinBooked(i)),
  index.map((i) => new Leave(i)),
  fc
    .tuple(
      service,
      day,
      time,
      maybeProvider,
      fc.record({ weekly: fc.boolean(), count: fc.integer({ min: 2, max: 3 }), skip: fc.boolean() }),
      who,
    )
    .map(([s, d, t, p, rule, c]) => new Series(s, d, t, p, rule, c)),
  fc
    .oneof(
      fc.record({ quantity: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ active: fc.boolean() }),
      fc.record({ hours: roomHours }),
    )
    .map((change) => new PatchResource(change)),
  fc
    .tuple(
      person,
      fc.oneof(
        fc.record({ hours, zone }),
        fc.record({ dayOff: fc.option(day, { nil: null }) }),
        fc.record({ active: fc.boolean() }),
        fc.record({ perDay: providerLimit }),
      ),
    )
    .map(([p, change]) => new PatchProvider(p, change)),
  fc.constantFrom(30, 120, 600, 1440).map((mins) => new Advance(mins)),
  fc.constant(null).map(() => new Relocate()),
  // Busy times where bookings are tried (twice: they must meet bookings and moves to matter).
  fc
    .tuple(person, day, time, fc.constantFrom(30, 90, 240))
    .map(([p, d, t, mins]) => new BusyAppears(p, at(d, t), mins)),
  fc
    .tuple(person, day, time, fc.constantFrom(30, 90, 240))
    .map(([p, d, t, mins]) => new BusyAppears(p, at(d, t), mins)),
  index.map((i) => new BusyGone(i)),
];

/** A service's generated settings without its limits (spread beside them). */
const without = <T extends { limited: unknown }>({ limited: _limited, ...rest }: T) => rest;

/** A first state: two services and two people in any of the settings commands can reach. */
export const initialModel: fc.Arbitrary<Model> = fc
  .record({
    s0: fc.record({
      capacity: fc.integer({ min: 1, max: 2 }),
      hours,
      providers: people,
      mode: fc.constantFrom<"one" | "all">("one", "one", "all"),
      resources: rooms,
      duration: fc.constantFrom(30, 60),
      cancelNotice: notice,
      moveNotice: notice,
      limited: serviceLimits,
    }),
    s1: fc.record({
      capacity: fc.integer({ min: 1, max: 2 }),
      hours,
      providers: people,
      mode: fc.constantFrom<"one" | "all">("one", "one", "all"),
      resources: rooms,
      duration: fc.constantFrom(30, 60),
      cancelNotice: notice,
      moveNotice: notice,
      limited: serviceLimits,
    }),
    p0: fc.record({ zone, hours, perDay: providerLimit }),
    p1: fc.record({ zone, hours, perDay: providerLimit }),
    r0: fc.record({ quantity: fc.integer({ min: 1, max: 2 }), hours: roomHours }),
  })
  .map(({ s0, s1, p0, p1, r0 }) => ({
    now: T0 - 12 * 60 * MINUTE,
    services: {
      S0: { ...without(s0), ...s0.limited, bufferBefore: 0, bufferAfter: 0, active: true },
      S1: { ...without(s1), ...s1.limited, bufferBefore: 0, bufferAfter: 15, active: true },
    },
    providers: { P0: { ...p0, dayOff: null, active: true }, P1: { ...p1, dayOff: null, active: true } },
    resources: { R0: { ...r0, active: true } },
    bookings: [],
    holds: [],
  }));

export {
  Advance,
  Convert,
  Create,
  Hold,
  LinkCancel,
  LinkMove,
  Move,
  PatchProvider,
  PatchResource,
  PatchService,
  Release,
  Series,
  Status,
  Visit,
  VisitCancel,
};
