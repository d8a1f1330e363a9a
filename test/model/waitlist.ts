/**
 * The waitlist in the model-based test: joining and leaving, and after every command the
 * offers the API made, checked against the model — each new offer went to the first WAITING
 * entry of its slot while the model had a seat for it, each offer ended as its hold did, an
 * entry still WAITING when its slot began reads EXPIRED, and after a change that freed seats in
 * a service no WAITING entry of it still has a free seat.
 */
import type fc from "fast-check";
import { expect } from "vitest";
import { evenly, placedEvenly } from "./limits";
import {
  blockedOf,
  DAY,
  expectCreate,
  expectJoin,
  iso,
  label,
  liveHold,
  MINUTE,
  type Model,
  type ProviderKey,
  type ServiceKey,
  T0,
  type WaitModel,
} from "./model";
import { checkInvariants, expectAnswer, type System, send } from "./system";

type Cmd = fc.AsyncCommand<Model, System>;

/** Offers the API made since the last look, checked and applied to the model (see the module comment). */
export async function syncOffers(m: Model, sys: System, freed: readonly ServiceKey[]): Promise<void> {
  const waitlist = m.waitlist ?? [];
  if (waitlist.length === 0) return;
  for (const service of ["S0", "S1"] as const) {
    const res = await send(sys, "GET", `/waitlist?serviceId=${sys.ids[service]}&limit=100`);
    const listed = (
      (await res.json()) as { data: { id: string; status: WaitModel["status"]; holdId: string | null }[] }
    ).data;
    for (const api of listed) {
      const entry = waitlist.find((e) => e.id === api.id) as WaitModel;
      const what = `waitlist ${entry.id} (${entry.service} ${label(entry.start)}): model ${entry.status}, API ${api.status}`;
      // An entry whose slot began while it waited: EXPIRED without an offer, never before its start.
      if (entry.status === "WAITING" && entry.start <= m.now) expect(api.status, what).not.toBe("WAITING");
      if (entry.status === "WAITING" && api.status === "EXPIRED" && api.holdId === null) {
        expect(entry.start <= m.now, `${what}: expired before its slot began`).toBe(true);
        entry.status = "EXPIRED";
      } else if (entry.status === "WAITING" && api.status === "OFFERED")
        await offered(m, sys, entry, api.holdId as string, what);
      else if (entry.status === "OFFERED" && api.status !== "OFFERED") {
        const hold = m.holds.find((h) => h.id === entry.holdId);
        expect(hold && !liveHold(m, hold), what).toBe(true);
        expect(api.status, what).toBe(hold?.state === "CONSUMED" ? "BOOKED" : "EXPIRED");
        entry.status = api.status;
      }
      // An entry offered and ended since the last look: offered, then as its hold ended.
      else if (entry.status === "WAITING" && (api.status === "EXPIRED" || api.status === "BOOKED")) {
        await offered(m, sys, entry, api.holdId as string, what);
        entry.status = api.status;
      } else expect(api.status, what).toBe(entry.status);
    }
    // After a change that freed seats here, no WAITING entry is left with a seat it could be offered.
    if (!freed.includes(service)) continue;
    for (const entry of waitlist.filter((e) => e.service === service && e.status === "WAITING")) {
      const first = waitlist.find(
        (e) =>
          e.status === "WAITING" && e.service === service && e.start === entry.start && e.provider === entry.provider,
      );
      if (first !== entry || entry.start <= m.now) continue;
      const free = expectCreate(m, service, entry.start, entry.end, entry.provider);
      expect(free.status, `a free seat was not offered to ${entry.id} (${service} ${label(entry.start)})`).not.toBe(
        201,
      );
    }
  }
}

/** The API offered `entry` a hold: it was the first in its slot's line and the model had a seat for it. */
async function offered(m: Model, sys: System, entry: WaitModel, holdId: string, what: string) {
  const first = (m.waitlist ?? []).find(
    (e) =>
      e.status === "WAITING" && e.service === entry.service && e.start === entry.start && e.provider === entry.provider,
  );
  expect(first?.id, `${what}: offered out of turn`).toBe(entry.id);
  const expected = expectCreate(m, entry.service, entry.start, entry.end, entry.provider);
  expect(expected.status, `${what}: offered without a free seat`).toBe(201);
  const even = evenly(m, entry.service, entry.start, entry.end, entry.provider);
  const hold = (await (await send(sys, "GET", `/holds/${holdId}`)).json()) as {
    providerId: string | null;
    expiresAt: string;
  };
  const person = (["P0", "P1"] as const).find((p) => sys.ids[p] === hold.providerId) ?? null;
  if ("candidates" in expected && expected.candidates) expect(expected.candidates, what).toContain(person);
  const service = m.services[entry.service];
  m.holds.push({
    id: holdId,
    service: entry.service,
    provider: person,
    team: service.mode === "all" && service.providers.length > 0 ? [...service.providers] : [],
    start: entry.start,
    end: entry.end,
    blocked: blockedOf(service, entry.start, entry.end),
    resources: [...service.resources],
    expiresAt: Date.parse(hold.expiresAt),
    state: "HELD",
  });
  if (even) placedEvenly(m, entry.service, holdId, entry.start);
  entry.status = "OFFERED";
  entry.holdId = holdId;
}

/** Joins a slot's waitlist. */
export class Join implements Cmd {
  constructor(
    readonly service: ServiceKey,
    readonly day: number,
    readonly time: number,
    readonly person: ProviderKey | null,
    readonly times: readonly string[],
  ) {}
  check = () => true;
  async run(m: Model, sys: System) {
    const hhmm = this.times[this.time] as string;
    const start = T0 + this.day * DAY + (Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3))) * MINUTE;
    const end = start + m.services[this.service].duration * MINUTE;
    const expected = expectJoin(m, this.service, start, end, this.person);
    const res = await send(sys, "POST", "/waitlist", {
      serviceId: sys.ids[this.service],
      startTime: iso(start),
      endTime: iso(end),
      customerName: "Model",
      customerEmail: `${crypto.randomUUID()}@example.com`,
      ...(this.person ? { providerId: sys.ids[this.person] } : {}),
    });
    const body = await expectAnswer(res, expected, this.toString());
    if (res.status === 201) {
      m.waitlist ??= [];
      m.waitlist.push({
        id: body.id,
        service: this.service,
        provider: this.person,
        start,
        end,
        status: "WAITING",
        holdId: null,
      });
    }
    await checkInvariants(m, sys, res.status === 201 ? [this.service] : []);
  }
  toString = () =>
    `join(${this.service}, d${this.day} ${this.times[this.time]}${this.person ? `, ${this.person}` : ""})`;
}

/** Joins the waitlist of a booking's slot (its service, time and person): the slots worth waiting for. */
export class JoinBooked implements Cmd {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.bookings.length > 0;
  async run(m: Model, sys: System) {
    const booking = m.bookings[this.index % m.bookings.length] as Model["bookings"][number];
    const service = m.services[booking.service];
    const person =
      service.mode === "one" && service.providers.includes(booking.provider as ProviderKey) ? booking.provider : null;
    const start = booking.start;
    const end = start + service.duration * MINUTE;
    const expected = expectJoin(m, booking.service, start, end, person);
    const res = await send(sys, "POST", "/waitlist", {
      serviceId: sys.ids[booking.service],
      startTime: iso(start),
      endTime: iso(end),
      customerName: "Model",
      customerEmail: `${crypto.randomUUID()}@example.com`,
      ...(person ? { providerId: sys.ids[person] } : {}),
    });
    const body = await expectAnswer(res, expected, this.toString());
    if (res.status === 201) {
      m.waitlist ??= [];
      m.waitlist.push({
        id: body.id,
        service: booking.service,
        provider: person,
        start,
        end,
        status: "WAITING",
        holdId: null,
      });
    }
    await checkInvariants(m, sys, res.status === 201 ? [booking.service] : []);
  }
  toString = () => `join-booked-slot(#${this.index})`;
}

/** Leaves the waitlist: WAITING (its slot ahead) or OFFERED becomes CANCELLED (an offered hold is released). */
export class Leave implements Cmd {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => (m.waitlist ?? []).length > 0;
  async run(m: Model, sys: System) {
    const waitlist = m.waitlist ?? [];
    const entry = waitlist[this.index % waitlist.length] as WaitModel;
    await expectAnswer(await send(sys, "DELETE", `/waitlist/${entry.id}`), { status: 204 }, this.toString());
    if (entry.status === "OFFERED") {
      const hold = m.holds.find((h) => h.id === entry.holdId);
      if (hold && liveHold(m, hold)) hold.state = "RELEASED";
    }
    const freed = entry.status === "OFFERED" ? [entry.service] : [];
    // Once its slot has begun a WAITING entry has ended (EXPIRED): leaving it changes nothing.
    if (entry.status === "WAITING" && entry.start <= m.now) entry.status = "EXPIRED";
    if (entry.status === "WAITING" || entry.status === "OFFERED") entry.status = "CANCELLED";
    await checkInvariants(m, sys, freed);
  }
  toString = () => `leave-waitlist(#${this.index})`;
}
