/**
 * The booking page's commands of the model-based test: a visitor holds a time through the
 * public JSON (the same rules as any hold, at most 3 live per address and service, the service
 * offered online), and books a page hold with its token (or with a wrong one, which changes
 * nothing). The page's holds are the business's holds: the other commands book and release them too.
 */
import type fc from "fast-check";
import { expect } from "vitest";
import { convertedEvenly, evenly, placedEvenly, serviceLimitRefuses } from "./limits";
import {
  blockedOf,
  DAY,
  type Expected,
  expectCreate,
  iso,
  label,
  liveHold,
  MINUTE,
  type Model,
  type ProviderKey,
  type ServiceKey,
  type Span,
  seatRows,
  within,
  workingBlocks,
} from "./model";
import { checkInvariants, expectAnswer, type System, send } from "./system";

type Cmd = fc.AsyncCommand<Model, System>;

/** A call of the page's public JSON, without a key, from the sequence's one visitor. */
const viaPage = (sys: System, path: string, body: unknown) =>
  send(sys, "POST", `http://api.test/api/v1/public/${sys.slug}${path}`, body, sys.visitor);

/** Live page holds of the visitor on a service: the bound counts them. */
const livePageHolds = (m: Model, key: ServiceKey) =>
  m.holds.filter((h) => h.token !== undefined && h.service === key && liveHold(m, h)).length;

const overlapping = (spans: readonly Span[], span: Span) =>
  spans.filter((s) => s.start < span.end && s.end > span.start).length;

/**
 * Whether page holds would keep more than half (rounded down) of the day's free times once this
 * hold takes `blocked` (docs/public-api.md, "Bounds"). The day is the service's (UTC in the
 * model); a free time is a seat of a slot of that day not yet past, that bookings and API holds
 * leave; the service's capacity counts once per slot, whatever its people. The day's first page
 * hold always passes.
 */
function overDayShare(m: Model, key: ServiceKey, start: number, blocked: Span): boolean {
  const service = m.services[key];
  const dayStart = start - (start % DAY);
  const hours = workingBlocks(service.hours, "UTC");
  const duration = service.duration * MINUTE;
  const rows = seatRows(m, key).map((r) => r.blocked);
  const pages = m.holds
    .filter((h) => h.token !== undefined && h.service === key && liveHold(m, h))
    .map((h) => h.blocked);
  let free = 0;
  let kept = 0;
  let keptAfter = 0;
  for (let at = dayStart; at < dayStart + DAY; at += 30 * MINUTE) {
    if (at < m.now || !within(hours, at, at + duration)) continue;
    const seat = blockedOf(service, at, at + duration);
    const page = overlapping(pages, seat);
    const seats = Math.max(0, service.capacity - (overlapping(rows, seat) - page));
    free += seats;
    kept += Math.min(seats, page);
    keptAfter += Math.min(seats, page + overlapping([blocked], seat));
  }
  return kept > 0 && keptAfter > Math.floor(free / 2);
}

/**
 * What the page's hold of this time should get, and (`or`) another answer as right: the day's
 * share is decided once the service's calendar finds a seat, before people's and rooms' calendars
 * are asked, so a time they would refuse may be refused for the share instead.
 */
function expectPageHold(
  m: Model,
  key: ServiceKey,
  start: number,
  end: number,
  asked: ProviderKey | null,
): Expected & { or?: Expected } {
  const service = m.services[key];
  // Not offered (inactive), or a person the page does not list (not the service's, or inactive).
  if (!service.active) return { status: 422, code: "service_not_found" };
  if (asked && (!service.providers.includes(asked) || !m.providers[asked].active)) {
    return { status: 422, code: "validation_failed" };
  }
  // The bound is taken in D1 before the calendar is asked.
  if (livePageHolds(m, key) >= 3) return { status: 409, code: "hold_limit_reached" };
  const expected = expectCreate(m, key, start, end, asked);
  if (expected.status === 422) return expected;
  if (!overDayShare(m, key, start, blockedOf(service, start, end))) return expected;
  const share: Expected = { status: 409, code: "hold_limit_reached", reason: "day_share" };
  if (expected.status !== 409) return share;
  // The service's hours, its limits and a full time come first; a refusal of a person's or a
  // room's calendar comes after the share.
  const first = expected.reason === "outside_working_hours" || expected.reason === "fully_booked";
  if (first || (expected.reason === "limit_reached" && serviceLimitRefuses(m, key, start))) return expected;
  return { ...share, or: expected };
}

/** A visitor of the booking page holds a time. */
export class PageHold implements Cmd {
  constructor(
    readonly service: ServiceKey,
    readonly start: number,
    readonly person: ProviderKey | null,
    readonly t0: number,
  ) {}
  check = () => true;
  async run(m: Model, sys: System) {
    const end = this.start + m.services[this.service].duration * MINUTE;
    const expected = expectPageHold(m, this.service, this.start, end, this.person);
    const even = evenly(m, this.service, this.start, end, this.person);
    const res = await viaPage(sys, "/holds", {
      serviceId: sys.ids[this.service],
      startTime: iso(this.start),
      endTime: iso(end),
      ...(this.person ? { providerId: sys.ids[this.person] } : {}),
    });
    const { or, ...first } = expected;
    const shared = or ? ((await res.clone().json()) as { reason?: string }).reason === "day_share" : true;
    const body = await expectAnswer(res, shared ? first : (or as Expected), this.toString());
    if (res.status === 201) {
      expect(Date.parse(body.expiresAt) - m.now).toBe(600_000);
      const held = await send(sys, "GET", `/holds/${body.id}`);
      const { providerId } = (await held.json()) as { providerId: string | null };
      const person = (["P0", "P1"] as const).find((p) => sys.ids[p] === providerId) ?? null;
      if ("candidates" in expected && expected.candidates) expect(expected.candidates).toContain(person);
      const service = m.services[this.service];
      m.holds.push({
        id: body.id,
        service: this.service,
        provider: person,
        team: service.mode === "all" && service.providers.length > 0 ? [...service.providers] : [],
        start: this.start,
        end,
        blocked: blockedOf(service, this.start, end),
        resources: [...service.resources],
        expiresAt: Date.parse(body.expiresAt),
        state: "HELD",
        token: body.holdToken,
      });
      if (even) placedEvenly(m, this.service, body.id, this.start);
    }
    await checkInvariants(m, sys);
  }
  toString = () => `page-hold(${this.service}, ${label(this.start, this.t0)}${this.person ? `, ${this.person}` : ""})`;
}

/** The visitor books a page hold with its token, or sends a wrong one (nothing changes). */
export class PageBook implements Cmd {
  constructor(
    readonly index: number,
    readonly wrongToken: boolean,
  ) {}
  check = (m: Readonly<Model>) => m.holds.some((h) => h.token !== undefined);
  async run(m: Model, sys: System) {
    const pageHolds = m.holds.filter((h) => h.token !== undefined);
    const hold = pageHolds[this.index % pageHolds.length] as Model["holds"][number];
    const expected: Expected = this.wrongToken
      ? { status: 422, code: "validation_failed" }
      : !m.services[hold.service].active
        ? { status: 422, code: "service_inactive" }
        : liveHold(m, hold)
          ? { status: 201 }
          : { status: 409, code: "hold_expired" };
    const token = this.wrongToken ? `${(hold.token as string).slice(1)}A` : hold.token;
    const res = await viaPage(sys, "/bookings", {
      holdId: hold.id,
      holdToken: token,
      customerName: "Page visitor",
      customerEmail: `${crypto.randomUUID()}@example.com`,
    });
    const body = await expectAnswer(res, expected, this.toString());
    if (res.status === 201) {
      expect(body.startTime).toBe(new Date(hold.start).toISOString());
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
        link: (body.manageUrl as string).slice((body.manageUrl as string).indexOf("/manage/")),
      });
      convertedEvenly(m, hold.id, body.id);
    }
    await checkInvariants(m, sys);
  }
  toString = () => `page-book(#${this.index}${this.wrongToken ? ", wrong token" : ""})`;
}
