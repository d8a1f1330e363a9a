/** The month and day steps with their times read from the service's calendar (the page's one path). */

import { serviceTimes } from "../booking-page/availability";
import type { PageBusiness } from "../booking-page/business";
import type { PublicService } from "../booking-page/services";
import { ApiError } from "../lib/api-error";
import type { ServiceRead } from "../services/availability";
import { addDays, type DayKey, dayKeyOf, startOfDay } from "./i18n/format";
import { flowPage, type PageContext, respond } from "./render";
import type { Flow } from "./state";
import { DaysPage } from "./steps/days";
import { addMonths, daysOf } from "./steps/month";
import { TimesPage } from "./steps/times";
import type { View } from "./view";

const DAY = 86_400_000;

/** Who the flow books: anyone, or the named person (their id for the calendar, their name for the page). */
export function providerOf(service: PublicService, flow: Flow, view: View) {
  const withProvider = service.providerMode === "one" && service.providers.length > 1;
  const named = service.providers.find((p) => p.id === flow.person);
  return {
    withProvider,
    providerId: named?.id,
    providerName:
      named?.name ??
      (withProvider ? view.m.people.anyone : service.providers.length === 1 ? service.providers[0]?.name : undefined),
  };
}

/**
 * What every step after the service shows in its summary: the view, the flow, the service, and
 * who it books (`person`, the flow's unless a hold names its own) as the page names them.
 */
export function stepOf<F extends Flow>(service: PublicService, flow: F, view: View, person = flow.person) {
  const { withProvider, providerName } = providerOf(service, { ...flow, person }, view);
  return { view, flow, service, withProvider, providerName };
}

/** The slots in [from, to), or undefined when the range holds more than one answer may list. */
async function slotsIn(
  c: PageContext,
  page: PageBusiness,
  service: PublicService,
  span: { from: number; to: number; providerId?: string },
  read?: ServiceRead,
) {
  try {
    const range = {
      from: new Date(span.from).toISOString(),
      to: new Date(span.to).toISOString(),
      providerId: span.providerId,
    };
    return (await serviceTimes(c.env, c.var.db, page, service, range, read)).slots;
  } catch (error) {
    // A service with a very fine grid: its month is shown without marks, each day then says.
    if (error instanceof ApiError && error.code === "validation_failed") return undefined;
    throw error;
  }
}

/** The days of `month` that have a bookable time (every day from today, if the month holds too many slots). */
async function openDays(
  c: PageContext,
  page: PageBusiness,
  service: PublicService,
  month: string,
  view: View,
  providerId: string | undefined,
  read?: ServiceRead,
) {
  const now = Date.now();
  const first = startOfDay(`${month}-01`, view.tz);
  const end = startOfDay(`${addMonths(month, 1)}-01`, view.tz);
  const open = new Set<DayKey>();
  if (end <= now) return open;
  const slots = await slotsIn(c, page, service, { from: Math.max(first, now), to: end, providerId }, read);
  if (!slots) {
    const today = dayKeyOf(now, view.tz);
    for (const day of daysOf(month)) if (day >= today) open.add(day);
    return open;
  }
  for (const slot of slots) if (slot.bookable) open.add(dayKeyOf(slot.startTime, view.tz));
  return open;
}

/** The month step: `flow.month`, else this month (or the next, when this one has nothing left). */
export async function showDays(
  c: PageContext,
  page: PageBusiness,
  flow: Flow,
  service: PublicService,
  view: View,
  read?: ServiceRead,
) {
  const { providerId } = providerOf(service, flow, view);
  const today = dayKeyOf(Date.now(), view.tz);
  const lastMonth = dayKeyOf(Date.now() + service.maxAdvanceDays * DAY, view.tz).slice(0, 7);
  let month = flow.month ?? today.slice(0, 7);
  let open = await openDays(c, page, service, month, view, providerId, read);
  if (!flow.month && open.size === 0 && month < lastMonth) {
    month = addMonths(month, 1);
    open = await openDays(c, page, service, month, view, providerId, read);
  }
  return respond(
    c,
    200,
    flowPage(),
    <DaysPage {...stepOf(service, flow, view)} month={month} open={open} today={today} lastMonth={lastMonth} />,
  );
}

/** The day step: the day's free times, with a notice when the visitor is sent back here. */
export async function showTimes(
  c: PageContext,
  page: PageBusiness,
  flow: Flow & { day: DayKey },
  service: PublicService,
  view: View,
  refusal?: { status: 409 | 422; notice: string },
  read?: ServiceRead,
) {
  const { providerId } = providerOf(service, flow, view);
  const from = startOfDay(flow.day, view.tz);
  const to = startOfDay(addDays(flow.day, 1), view.tz);
  const slots = (await slotsIn(c, page, service, { from, to, providerId }, read)) ?? [];
  return respond(
    c,
    refusal?.status ?? 200,
    flowPage(),
    <TimesPage
      {...stepOf(service, flow, view)}
      slots={slots}
      today={dayKeyOf(Date.now(), view.tz)}
      notice={refusal?.notice}
    />,
  );
}
