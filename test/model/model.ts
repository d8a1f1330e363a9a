/**
 * A small reference model of the booking engine for the model-based test: seats and people over
 * time, written from the documented rules (docs/api-behaviour.md) without the engine's code.
 * Services keep their hours in UTC; people work in UTC or Asia/Kolkata (a fixed offset), every
 * day the same, with at most one day off; one room (R0) of one or more units, open whenever its
 * services are, may be needed by either service. Booking limits and balanced assignment are
 * limits.ts's. Every function here is pure.
 */

import {
  type Allowance,
  balancedOf,
  customerLimitRefuses,
  limitViolations,
  providerLimitRefuses,
  type ServiceLimits,
  serviceLimitRefuses,
  sharesWeek,
} from "./limits";

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** A Monday far from the real clock, so the runtime's own alarms never fire during a run. */
export const T0 = Date.UTC(2031, 0, 6);
/** An instant as the API writes it (no zero milliseconds). */
export const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
/** An instant in a counterexample: its day after `t0` and its UTC time, e.g. `d3 09:30`. */
export const label = (ms: number, t0 = T0) =>
  `d${Math.floor((ms - t0) / DAY)} ${new Date(ms).toISOString().slice(11, 16)}`;
/** The offset of each time zone people may work in (neither changes offset). */
export const zones = { UTC: 0, "Asia/Kolkata": 330 } as const;
export type Zone = keyof typeof zones;

/** Working hours, the same every day, as local "HH:MM" intervals. */
export const hoursCatalog = {
  day: [["09:00", "17:00"]],
  allDay: [["00:00", "24:00"]],
  evening: [
    ["00:00", "02:00"],
    ["18:00", "24:00"],
  ],
  split: [
    ["09:00", "12:00"],
    ["12:00", "17:00"],
  ],
} as const satisfies Record<string, readonly (readonly [string, string])[]>;
export type HoursName = keyof typeof hoursCatalog;

export type ServiceKey = "S0" | "S1";
export type ProviderKey = "P0" | "P1";
export type ResourceKey = "R0";
export type Span = { start: number; end: number };
export type Status = "CONFIRMED" | "CANCELLED" | "COMPLETED" | "NO_SHOW";

export type ServiceModel = ServiceLimits & {
  capacity: number;
  duration: number;
  bufferBefore: number;
  bufferAfter: number;
  hours: HoursName;
  providers: ProviderKey[];
  /** `one` provider performs each booking, or `all` of them together (a team). */
  mode: "one" | "all";
  /** The resources each booking takes a unit of. */
  resources: ResourceKey[];
  active: boolean;
  /** Minutes before a booking's start after which its customer's link cannot cancel / move it. */
  cancelNotice: number;
  moveNotice: number;
};
/** A room: identical units, and its own hours (UTC) or none (open whenever its service is). */
export type ResourceModel = { quantity: number; active: boolean; hours: HoursName | null };
export type ProviderModel = {
  zone: Zone;
  hours: HoursName;
  dayOff: number | null;
  active: boolean;
  /** Their bookings of every service per local day (absent: no limit). */
  perDay?: number;
};
export type BookingModel = {
  id: string;
  service: ServiceKey;
  provider: ProviderKey | null;
  /** Everyone a team's booking claims (empty unless made as a team). */
  team: ProviderKey[];
  start: number;
  end: number;
  blocked: Span;
  /** The resources it holds a unit of (its service's when it was made or last moved). */
  resources: ResourceKey[];
  status: Status;
  /** Its customer's manage link (the path under /api/v1). */
  link: string;
  /** The visit it is a segment of: its segments may overlap each other by their buffers. */
  appointment?: string;
  /** Its customer's e-mail, as sent (a limit per customer compares it lower-cased). */
  email?: string;
};
export type HoldModel = {
  id: string;
  service: ServiceKey;
  provider: ProviderKey | null;
  team: ProviderKey[];
  start: number;
  end: number;
  blocked: Span;
  resources: ResourceKey[];
  expiresAt: number;
  state: "HELD" | "CONSUMED" | "RELEASED";
  /** A booking page's hold: the token that books it (test/model/public.ts). */
  token?: string;
};
/** A waitlist entry: the slot it waits for, and what became of it. */
export type WaitModel = {
  id: string;
  service: ServiceKey;
  provider: ProviderKey | null;
  start: number;
  end: number;
  status: "WAITING" | "OFFERED" | "BOOKED" | "EXPIRED" | "CANCELLED";
  holdId: string | null;
};
export type Model = {
  now: number;
  services: Record<ServiceKey, ServiceModel>;
  providers: Record<ProviderKey, ProviderModel>;
  resources: Record<ResourceKey, ResourceModel>;
  /** The people in the order their calendars are claimed (by their real ids); P0, P1 if unset. */
  order?: ProviderKey[];
  bookings: BookingModel[];
  holds: HoldModel[];
  /** Waitlist entries by id (ids sort in the order they joined). */
  waitlist?: WaitModel[];
  /** Busy spans of the people's own calendars (test/model/busy.ts). */
  busy?: BusyModel[];
  /** Steps checked so far, and the step each booking's or hold's time was placed at (`id@start`). */
  seq?: number;
  placed?: Record<string, number>;
  /** What each limit allowed when limits last changed (limits.ts `allowNow`), by service or person. */
  allowance?: Record<string, Allowance>;
  /** Per service and week, the rows balanced assignment placed while everyone was free (limits.ts). */
  evenPlaced?: Record<string, { ids: string[]; people: string }>;
};

/** A busy span of a person's own calendar, and the step it became known at. */
export type BusyModel = { id: string; person: ProviderKey; start: number; end: number; seq: number };

/** What a request should get: success, or a problem with its code and (for 409 slot_unavailable) reason. */
export type Expected =
  | { status: 200 | 201 | 204; candidates?: ProviderKey[] }
  | { status: 404 | 409 | 422; code: string; reason?: string };

const ok201 = (candidates?: ProviderKey[]): Expected => ({ status: 201, candidates });
const refused = (status: 404 | 409 | 422, code: string, reason?: string): Expected => ({ status, code, reason });

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;

/** The working time of some hours in a zone, as merged blocks of absolute time around the run's days. */
export function workingBlocks(hours: HoursName, zone: Zone, dayOff: number | null = null): Span[] {
  const offset = zones[zone] * MINUTE;
  const spans: Span[] = [];
  // Far enough for a weekly series of three from the run's last day.
  for (let day = -3; day <= 20; day++) {
    if (day === dayOff) continue;
    for (const [from, to] of hoursCatalog[hours]) {
      const midnight = T0 + day * DAY - offset;
      spans.push({ start: midnight + minutes(from) * MINUTE, end: midnight + minutes(to) * MINUTE });
    }
  }
  spans.sort((a, b) => a.start - b.start);
  const merged: Span[] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/** Whether `[start, end)` lies in one stretch of working time. */
export const within = (blocks: Span[], start: number, end: number) =>
  blocks.some((b) => b.start <= start && end <= b.end);

export const blockedOf = (service: ServiceModel, start: number, end: number): Span => ({
  start: start - service.bufferBefore * MINUTE,
  end: end + service.bufferAfter * MINUTE,
});

const active = (b: BookingModel) => b.status === "CONFIRMED";
export const liveHold = (m: Model, h: HoldModel) => h.state === "HELD" && m.now < h.expiresAt;

/** Rows holding a seat in a service's calendar: active bookings and live holds. */
export function seatRows(m: Model, service: ServiceKey, exceptId = "") {
  return [
    ...m.bookings.filter((b) => b.service === service && active(b) && b.id !== exceptId),
    ...m.holds.filter((h) => h.service === service && liveHold(m, h)),
  ];
}

/** Claims on a person's time across services: their active bookings and live holds. */
export function claimsOf(m: Model, provider: ProviderKey, exceptId = "") {
  return [
    ...m.bookings.filter(
      (b) => (b.provider === provider || b.team.includes(provider)) && active(b) && b.id !== exceptId,
    ),
    ...m.holds.filter((h) => (h.provider === provider || h.team.includes(provider)) && liveHold(m, h)),
  ];
}

/** Units of a resource held: active bookings and live holds that took one. */
export function unitClaimsOf(m: Model, resource: ResourceKey, exceptId = "") {
  return [
    ...m.bookings.filter((b) => b.resources.includes(resource) && active(b) && b.id !== exceptId),
    ...m.holds.filter((h) => h.resources.includes(resource) && liveHold(m, h)),
  ];
}

/** The session a row belongs to in a resource's calendar: its seats share one unit. */
const sessionOf = (row: { service: ServiceKey; start: number; provider: ProviderKey | null; team: ProviderKey[] }) =>
  `${row.service}@${row.start}#${(row.provider ? [row.provider] : [...row.team].sort()).join(",")}`;

/**
 * Why a resource refuses a unit, or null: inactive, or the distinct sessions overlapping the
 * blocked span already fill its units (unless one of them is this booking's own session).
 */
function resourceRefuses(
  m: Model,
  key: ResourceKey,
  row: {
    service: ServiceKey;
    start: number;
    end: number;
    provider: ProviderKey | null;
    team: ProviderKey[];
    blocked: Span;
  },
  exceptId = "",
): string | null {
  const resource = m.resources[key];
  if (!resource.active) return "resource_unavailable";
  if (resource.hours !== null && !within(workingBlocks(resource.hours, "UTC"), row.start, row.end)) {
    return "resource_unavailable";
  }
  const sessions = new Set(
    unitClaimsOf(m, key, exceptId)
      .filter((c) => overlaps(c.blocked, row.blocked))
      .map(sessionOf),
  );
  return sessions.has(sessionOf(row)) || sessions.size < resource.quantity ? null : "resource_unavailable";
}

/** The first refusal among a service's resources for a booking by `provider`, or null. */
const roomRefuses = (
  m: Model,
  service: ServiceKey,
  row: { start: number; end: number; provider: ProviderKey | null; team?: ProviderKey[]; blocked: Span },
  exceptId = "",
) =>
  m.services[service].resources
    .map((r) => resourceRefuses(m, r, { team: [], ...row, service }, exceptId))
    .find((reason) => reason !== null) ?? null;

/**
 * Whether a resource may have `units` units: its upcoming sessions never overlap more at once.
 * With `visitsShare`, a visit's segments count as one (they may overlap each other by their buffers).
 */
export function unitsFit(m: Model, resource: ResourceKey, units: number, visitsShare = false): boolean {
  const claims = unitClaimsOf(m, resource).filter((r) => r.blocked.end > m.now);
  // Claims that count as one unit: the same session, and (with visitsShare) the segments of one visit.
  const parent = new Map<string, string>();
  const root = (k: string): string => {
    const p = parent.get(k) ?? k;
    return p === k ? k : root(p);
  };
  for (const c of claims) {
    const visit = visitsShare && "appointment" in c ? c.appointment : undefined;
    if (visit) parent.set(root(sessionOf(c)), root(`visit:${visit}`));
  }
  // The most distinct groups holding the resource at one instant.
  const edges = claims.flatMap((c) => {
    const group = root(sessionOf(c));
    return [
      { at: c.blocked.start, group, delta: 1 },
      { at: c.blocked.end, group, delta: -1 },
    ];
  });
  edges.sort((a, b) => a.at - b.at || a.delta - b.delta);
  const active = new Map<string, number>();
  let most = 0;
  for (const { group, delta } of edges) {
    const n = (active.get(group) ?? 0) + delta;
    if (n === 0) active.delete(group);
    else active.set(group, n);
    most = Math.max(most, active.size);
  }
  return most <= units;
}

/** Rules 2–4 of a booking (duration, time, working hours); null when they pass. */
function timingAndHours(m: Model, service: ServiceModel, start: number, end: number): Expected | null {
  if (end - start !== service.duration * MINUTE) return refused(422, "validation_failed", "wrong_duration");
  if (start < m.now) return refused(422, "validation_failed", "in_the_past");
  if (start % (30 * MINUTE) !== 0 || !within(workingBlocks(service.hours, "UTC"), start, end)) {
    return refused(409, "slot_unavailable", "outside_working_hours");
  }
  return null;
}

/** Why a person's calendar refuses the time, or null. */
function providerRefuses(
  m: Model,
  key: ProviderKey,
  serviceKey: ServiceKey,
  start: number,
  end: number,
  blocked: Span,
  exceptId = "",
): string | null {
  const person = m.providers[key];
  if (!person.active || !within(workingBlocks(person.hours, person.zone, person.dayOff), start, end)) {
    return "provider_unavailable";
  }
  const overlapping = claimsOf(m, key, exceptId).filter((c) => overlaps(c.blocked, blocked));
  if (overlapping.some((c) => c.service !== serviceKey || c.start !== start)) return "provider_busy";
  if (overlapping.length >= m.services[serviceKey].capacity) return "provider_busy";
  // Their own calendar's busy times, after their claims (as the person's calendar decides).
  if (busyOver(m, key, blocked)) return "provider_busy";
  // Their daily limit, last.
  if (providerLimitRefuses(m, key, start, exceptId)) return "limit_reached";
  return null;
}

/** Whether a busy span of the person's own calendar overlaps `blocked` (a claim's blocked time). */
const busyOver = (m: Model, person: ProviderKey, blocked: Span) =>
  (m.busy ?? []).some((b) => b.person === person && overlaps(b, blocked));

/**
 * Counts a step and finds bookings placed over busy spans known before them: nothing is booked
 * over a busy time known before the booking took its time. A booking's time is placed at the step
 * it first showed with that start (a move places it anew); one made from a hold keeps the step its
 * hold was placed at (a hold keeps its time).
 */
function busyViolations(m: Model): string[] {
  m.seq = (m.seq ?? 0) + 1;
  m.placed = m.placed ?? {};
  const placed = m.placed;
  for (const hold of m.holds) placed[`${hold.id}@${hold.start}`] ??= m.seq;
  const wrong: string[] = [];
  for (const booking of m.bookings) {
    const key = `${booking.id}@${booking.start}@${booking.provider ?? booking.team.join(",")}`;
    if (placed[key] === undefined) {
      const hold = m.holds.find(
        (h) =>
          h.state === "CONSUMED" &&
          h.start === booking.start &&
          h.service === booking.service &&
          h.provider === booking.provider,
      );
      placed[key] = hold ? (placed[`${hold.id}@${hold.start}`] ?? m.seq) : m.seq;
    }
    if (booking.status !== "CONFIRMED") continue;
    const people = booking.provider ? [booking.provider] : booking.team;
    for (const busy of m.busy ?? []) {
      if (busy.seq < (placed[key] as number) && people.includes(busy.person) && overlaps(busy, booking.blocked)) {
        wrong.push(`${booking.id} is booked over ${busy.person}'s busy time known before it`);
      }
    }
  }
  return wrong;
}

/** Seats taken in a person's session of a service: their rows and every row without a person. */
const seatsTaken = (m: Model, service: ServiceKey, key: ProviderKey, blocked: Span, exceptId = "") =>
  seatRows(m, service, exceptId).filter(
    (r) => (r.provider === key || r.provider === null) && overlaps(r.blocked, blocked),
  ).length;

/**
 * A team's booking: one seat of the service's one session, then every provider's time in the
 * order their calendars are claimed, then the resources; the first refusal is the answer.
 */
function expectTeam(m: Model, key: ServiceKey, start: number, end: number, exceptId = ""): Expected {
  const service = m.services[key];
  const blocked = blockedOf(service, start, end);
  const taken = seatRows(m, key, exceptId).filter((r) => overlaps(r.blocked, blocked)).length;
  if (taken >= service.capacity) return refused(409, "slot_unavailable", "fully_booked");
  const team = (m.order ?? ["P0", "P1"]).filter((p) => service.providers.includes(p));
  const reason =
    team.map((p) => providerRefuses(m, p, key, start, end, blocked, exceptId)).find((r) => r !== null) ??
    roomRefuses(m, key, { start, end, provider: null, team, blocked }, exceptId);
  return reason ? refused(409, "slot_unavailable", reason) : ok201();
}

/**
 * What `POST /bookings` (with the customer's `email`) or `POST /holds` (without) for this time
 * should get. `balance`: a balanced service's candidates narrowed to the fewest that week (off
 * where the request's own earlier segments change the counts).
 */
export function expectCreate(
  m: Model,
  key: ServiceKey,
  start: number,
  end: number,
  asked: ProviderKey | null,
  { email, balance = true }: { email?: string; balance?: boolean } = {},
): Expected {
  const service = m.services[key];
  if (!service.active) return refused(422, "service_inactive");
  if (asked && !service.providers.includes(asked)) return refused(422, "validation_failed");
  const rules = timingAndHours(m, service, start, end);
  if (rules) return rules;
  // The service's limits come before its seats and people.
  if (serviceLimitRefuses(m, key, start, { email })) return refused(409, "slot_unavailable", "limit_reached");
  const blocked = blockedOf(service, start, end);
  if (service.mode === "all" && service.providers.length > 0) return expectTeam(m, key, start, end);
  if (service.providers.length === 0) {
    const taken = seatRows(m, key).filter((r) => overlaps(r.blocked, blocked)).length;
    if (taken >= service.capacity) return refused(409, "slot_unavailable", "fully_booked");
    const room = roomRefuses(m, key, { start, end, provider: null, blocked });
    return room ? refused(409, "slot_unavailable", room) : ok201();
  }
  if (asked) {
    if (seatsTaken(m, key, asked, blocked) >= service.capacity) return refused(409, "slot_unavailable", "fully_booked");
    const reason =
      providerRefuses(m, asked, key, start, end, blocked) ??
      roomRefuses(m, key, { start, end, provider: asked, blocked });
    return reason ? refused(409, "slot_unavailable", reason) : ok201([asked]);
  }
  const free = service.providers.filter(
    (p) =>
      m.providers[p].active &&
      seatsTaken(m, key, p, blocked) < service.capacity &&
      providerRefuses(m, p, key, start, end, blocked) === null &&
      roomRefuses(m, key, { start, end, provider: p, blocked }) === null,
  );
  if (free.length > 0) return ok201(balance ? balancedOf(m, key, start, free) : free);
  const atLimit = (p: ProviderKey) =>
    seatsTaken(m, key, p, blocked) < service.capacity &&
    providerRefuses(m, p, key, start, end, blocked) === "limit_reached";
  const active = service.providers.filter((p) => m.providers[p].active);
  const reason = active.length > 0 && active.every(atLimit) ? "limit_reached" : "no_provider_available";
  return refused(409, "slot_unavailable", reason);
}

/**
 * What `POST /bookings/{id}/reschedule` to `start` should get; with `reassignIfLeft` (a manage
 * link's move), a booking whose person left the service goes to anyone free instead of a 422.
 */
export function expectMove(
  m: Model,
  booking: BookingModel,
  start: number,
  asked: ProviderKey | null,
  reassignIfLeft = false,
): Expected {
  const service = m.services[booking.service];
  const end = start + service.duration * MINUTE;
  if (!service.active) return refused(422, "service_inactive");
  if (asked && !service.providers.includes(asked)) return refused(422, "validation_failed");
  if (!active(booking)) return refused(409, "invalid_transition");
  const rules = timingAndHours(m, service, start, end);
  if (rules) return rules;
  const blocked = blockedOf(service, start, end);
  const team = service.mode === "all" && service.providers.length > 0;
  // A booking whose person left the service is a 422 before anything is counted.
  const left =
    !team &&
    service.providers.length > 0 &&
    !asked &&
    booking.provider &&
    !service.providers.includes(booking.provider);
  if (left && !reassignIfLeft) return refused(422, "validation_failed", "provider_left_service");
  // The booking's own row is not counted again; the customer's count changes only for a booking
  // that has started (upcoming again once moved).
  const again = booking.start <= m.now && booking.email !== undefined;
  if (
    serviceLimitRefuses(m, booking.service, start, { exceptId: booking.id }) ||
    (again && customerLimitRefuses(m, booking.service, booking.email as string, 0, booking.id))
  ) {
    return refused(409, "slot_unavailable", "limit_reached");
  }
  if (team) {
    const answer = expectTeam(m, booking.service, start, end, booking.id);
    return answer.status === 201 ? { status: 200 } : answer;
  }
  if (service.providers.length === 0) {
    const taken = seatRows(m, booking.service, booking.id).filter((r) => overlaps(r.blocked, blocked)).length;
    if (taken >= service.capacity) return refused(409, "slot_unavailable", "fully_booked");
    const room = roomRefuses(m, booking.service, { start, end, provider: null, blocked }, booking.id);
    return room ? refused(409, "slot_unavailable", room) : { status: 200 };
  }
  let candidates: ProviderKey[];
  if (asked) candidates = [asked];
  else if (booking.provider && service.providers.includes(booking.provider)) candidates = [booking.provider];
  else if (booking.provider && !reassignIfLeft) return refused(422, "validation_failed", "provider_left_service");
  else candidates = service.providers.filter((p) => m.providers[p].active);
  const free = candidates.filter(
    (p) =>
      seatsTaken(m, booking.service, p, blocked, booking.id) < service.capacity &&
      providerRefuses(m, p, booking.service, start, end, blocked, booking.id) === null &&
      roomRefuses(m, booking.service, { start, end, provider: p, blocked }, booking.id) === null,
  );
  if (free.length > 0) {
    const assigned = candidates.length > 1 ? balancedOf(m, booking.service, start, free, booking.id) : free;
    return { status: 200, candidates: assigned };
  }
  if (candidates.length !== 1) {
    const atLimit = (p: ProviderKey) =>
      seatsTaken(m, booking.service, p, blocked, booking.id) < service.capacity &&
      providerRefuses(m, p, booking.service, start, end, blocked, booking.id) === "limit_reached";
    const reason = candidates.length > 0 && candidates.every(atLimit) ? "limit_reached" : "no_provider_available";
    return refused(409, "slot_unavailable", reason);
  }
  const only = candidates[0] as ProviderKey;
  if (seatsTaken(m, booking.service, only, blocked, booking.id) >= service.capacity) {
    return refused(409, "slot_unavailable", "fully_booked");
  }
  return refused(
    409,
    "slot_unavailable",
    providerRefuses(m, only, booking.service, start, end, blocked, booking.id) ??
      roomRefuses(m, booking.service, { start, end, provider: only, blocked }, booking.id) ??
      "",
  );
}

/** How long after its end a booking's manage link still opens. */
const LINK_DAYS = 7;

/**
 * What a customer's link to cancel (`move` absent) or move a booking should get: a 404 once the
 * link has ended (cancelled, or 7 days past the end), else the rules of the API's own call, with
 * the service's notice window (from the booking's current start; for a move, the longer of its
 * two notices) checked after the status.
 */
export function expectLinkChange(m: Model, booking: BookingModel, move?: { start: number }): Expected {
  const service = m.services[booking.service];
  if (booking.status === "CANCELLED" || m.now > booking.end + LINK_DAYS * DAY) return refused(404, "not_found");
  if (move && !service.active) return refused(422, "service_inactive");
  if (!active(booking)) return refused(409, "invalid_transition");
  // A move frees the time as a cancel does: the cancellation notice binds it too.
  const notice = move ? Math.max(service.moveNotice, service.cancelNotice) : service.cancelNotice;
  if (m.now > booking.start - notice * MINUTE) return refused(409, "policy_window");
  if (!move) return { status: 200 };
  // A customer cannot name another person: once theirs left the service, the move goes to anyone free.
  return expectMove(m, booking, move.start, null, true);
}

/** Whether two rows are segments of one visit. */
const sameVisit = (a: { appointment?: string } | object, b: { appointment?: string } | object) =>
  "appointment" in a && a.appointment !== undefined && "appointment" in b && a.appointment === b.appointment;

/** One segment of a visit as the model sees it. */
export type SegmentModel = { service: ServiceKey; start: number; end: number; person: ProviderKey | null };

/**
 * What `POST /appointments` should get, and on a 409 which segments may be the one named. Each
 * segment is judged as `POST /bookings` would judge it against what exists (the visit's own
 * segments do not block each other): the first input problem in segment order is a 422; the
 * first segment's rules and every segment's hours come next; then every segment must have a way
 * to be staffed (201, with each segment's candidates), else a 409 naming one that has none.
 */
export function expectVisit(
  m: Model,
  segments: SegmentModel[],
  email?: string,
): Expected & { segments?: number[]; each?: Expected[] } {
  const each = segments.map((s) => expectCreate(m, s.service, s.start, s.end, s.person, { email }));
  const input = each.find((e) => e.status === 422 && (e.code === "service_inactive" || !("reason" in e) || !e.reason));
  if (input) return input;
  const timing = each.find((e) => e.status === 422);
  if (timing) return timing;
  const hours = each.findIndex((e) => e.status === 409 && "reason" in e && e.reason === "outside_working_hours");
  if (hours >= 0) return { ...refused(409, "slot_unavailable", "outside_working_hours"), segments: [hours] };
  const failing = each.flatMap((e, i) => (e.status === 409 ? [i] : []));
  if (failing.length > 0) return { status: 409, code: "slot_unavailable", segments: failing };
  return { status: 201, each };
}

/**
 * What `POST /series` should get for occurrences of one service at `starts`: the first
 * occurrence's input and timing problems first (422), then each occurrence judged as
 * `POST /bookings` would judge it (the series' own occurrences never overlap). `reject`: 201
 * when every occurrence can be booked, else a 409; `skip`: 201 booking the free ones (at least
 * one), else a 409. `each` says which occurrences are booked and by whom they may be.
 */
export function expectSeries(
  m: Model,
  key: ServiceKey,
  starts: number[],
  asked: ProviderKey | null,
  skip: boolean,
  email?: string,
): Expected & { each?: Expected[] } {
  const duration = m.services[key].duration * MINUTE;
  // Balanced occurrences of one week count the ones before them: any free person may get each.
  const balance = !sharesWeek(
    m,
    starts.map((start) => ({ service: key, start, person: asked })),
  );
  const each = starts.map((start) => expectCreate(m, key, start, start + duration, asked, { email, balance }));
  const [first] = each as [Expected];
  if (first.status === 422) return first;
  const free = each.filter((e) => e.status === 201).length;
  if (free === 0 || (!skip && free < each.length)) return refused(409, "slot_unavailable");
  return { status: 201, each };
}

/**
 * What `POST /waitlist` should get: a slot a booking would get is a 409 `slot_available`; the
 * booking's 422s and `outside_working_hours` stand; any other refusal means the slot is full: 201.
 */
export function expectJoin(m: Model, key: ServiceKey, start: number, end: number, asked: ProviderKey | null): Expected {
  const booking = expectCreate(m, key, start, end, asked);
  if (booking.status === 201) return refused(409, "slot_available");
  if (booking.status === 422) return booking;
  if ("reason" in booking && booking.reason === "outside_working_hours") return booking;
  return { status: 201 };
}

/** The most rows overlapping at any instant. */
function peak(spans: Span[]): number {
  const events = spans.flatMap((s) => [
    [s.start, 1],
    [s.end, -1],
  ]);
  events.sort((a, b) => (a[0] as number) - (b[0] as number) || (a[1] as number) - (b[1] as number));
  let now = 0;
  let most = 0;
  for (const [, delta] of events) {
    now += delta as number;
    most = Math.max(most, now);
  }
  return most;
}

/**
 * Whether a service may drop to `capacity` seats (per person when `perProvider`): every upcoming
 * row still fits. Rows without a person count in every person's session.
 */
export function seatsFit(m: Model, key: ServiceKey, capacity: number, perProvider: boolean): boolean {
  const rows = seatRows(m, key).filter((r) => r.blocked.end > m.now);
  if (!perProvider) return peak(rows.map((r) => r.blocked)) <= capacity;
  const nobody = rows.filter((r) => r.provider === null);
  const people = [...new Set(rows.flatMap((r) => (r.provider ? [r.provider] : [])))];
  const groups = people.length > 0 ? people.map((p) => [...rows.filter((r) => r.provider === p), ...nobody]) : [nobody];
  return groups.every((g) => peak(g.map((r) => r.blocked)) <= capacity);
}

/**
 * The invariants of a state: no upcoming service seat and no person over capacity, and every
 * person's overlapping claims form one group session. Answers what is wrong, or an empty list.
 */
export function violations(m: Model): string[] {
  const wrong: string[] = [];
  for (const key of ["S0", "S1"] as const) {
    const service = m.services[key];
    const perProvider = service.providers.length > 0;
    if (!seatsFit(m, key, service.capacity, perProvider))
      wrong.push(`${key} holds more than ${service.capacity} seats`);
  }
  for (const person of ["P0", "P1"] as const) {
    const claims = claimsOf(m, person).filter((c) => c.blocked.end > m.now);
    for (const a of claims) {
      const together = claims.filter((b) => overlaps(a.blocked, b.blocked) && !(a.id !== b.id && sameVisit(a, b)));
      if (together.some((b) => b.service !== a.service || b.start !== a.start)) {
        wrong.push(`${person} has overlapping sessions (${a.id})`);
      } else if (together.length > m.services[a.service].capacity) {
        wrong.push(`${person}'s session of ${a.service} at ${new Date(a.start).toISOString()} is over capacity`);
      }
    }
  }
  for (const [resource, { quantity, active: open }] of Object.entries(m.resources) as [ResourceKey, ResourceModel][]) {
    if (!unitsFit(m, resource, open ? quantity : 0, true))
      wrong.push(`${resource} holds more than ${open ? quantity : 0} units`);
  }
  wrong.push(...busyViolations(m));
  wrong.push(...limitViolations(m));
  return [...new Set(wrong)];
}
