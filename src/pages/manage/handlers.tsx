/**
 * The manage link for browsers: `GET /api/v1/manage/{token}` answers this page when the request
 * prefers HTML (else the JSON route runs, as before), and the page's forms post to the link's
 * own `/cancel` and `/reschedule` (a form's body selects these; JSON goes on to the API). The same
 * domain calls as the JSON routes (src/bookings/by-link.ts), bound by the same policy windows.
 */
import type { Context, Next } from "hono";
import { cancelByLink, linkAvailability, managedView, rescheduleByLink } from "../../bookings/by-link";
import { loadBusiness } from "../../business/records";
import { isValidTimeZone } from "../../calendar/rules";
import { ApiError } from "../../lib/api-error";
import { clientAddress } from "../../lib/booking-page-throttle";
import { linkFor, type OpenLink } from "../../manage-links/records";
import { sameOrigin } from "../../middleware/security";
import { readForm, UnreadableForm } from "../form";
import { slotNotice } from "../hold";
import { pickLocale } from "../i18n";
import { addDays, type DayKey, dayKeyOf, startOfDay } from "../i18n/format";
import { errorPage, foreignForm, type Look, nonceOf, type PageContext, respond } from "../render";
import { isDay } from "../state";
import { addMonths, daysOf } from "../steps/month";
import { ZoneChoice } from "../steps/zone";
import { type View, viewOf } from "../view";
import { frameOf, manageKind, monthOf, type Said, type Shown } from "./frame";
import { isForm, prefersHtml } from "./negotiate";
import { CancelledPage, ManagePage } from "./page";

/** `?choose=zone`: every zone, as the booking page lists them; the form comes back to the link. */
async function showZones(c: PageContext, link: OpenLink, shown: Shown) {
  const day = shown.day && isDay(shown.day) ? shown.day : undefined;
  const month = monthOf(shown.month);
  const { path, href, view } = await frameOf(c, link, shown, { choose: "zone", day, month });
  const keep = Object.entries({ lang: view.locale, day, month }).filter((p): p is [string, string] => !!p[1]);
  const notice = shown.tz !== undefined && view.tz !== shown.tz ? view.m.error.zone : undefined;
  return respond(
    c,
    200,
    manageKind,
    <ZoneChoice view={view} action={path} keep={keep} back={href({ day, month })} capability notice={notice} />,
  );
}

/** The booking's page, with the dates and times it could move to. */
async function showManage(
  c: PageContext,
  link: OpenLink,
  shown: Shown,
  status: 200 | 409 | 422 = 200,
  reason?: { value: string; problem?: "reasonTooLong" },
) {
  const { business, tz, path, href, view } = await frameOf(c, link, shown);
  const booking = managedView(link);
  const now = Date.now();
  const today = dayKeyOf(now, tz);
  const movable = booking.reschedulableUntil !== null && now < Date.parse(booking.reschedulableUntil);
  const asked = monthOf(shown.month);
  // Opened without a day or month: the booked day's, whose times a move "a bit later" is one of.
  const booked = dayKeyOf(booking.startTime, tz);
  const day = shown.day && isDay(shown.day) ? shown.day : !asked && movable && booked >= today ? booked : undefined;
  const month = asked ?? (day ?? today).slice(0, 7);
  const open = new Set<DayKey>();
  let slots: Awaited<ReturnType<typeof linkAvailability>>["slots"] | undefined;
  if (movable) {
    const first = Math.max(now, startOfDay(`${month}-01`, tz));
    const end = startOfDay(`${addMonths(month, 1)}-01`, tz);
    if (first < end) {
      try {
        const range = { from: new Date(first).toISOString(), to: new Date(end).toISOString() };
        for (const slot of (await linkAvailability(c.env, c.var.db, link, range)).slots)
          if (slot.bookable) open.add(dayKeyOf(slot.startTime, tz));
      } catch (error) {
        if (!(error instanceof ApiError && error.code === "validation_failed")) throw error;
        for (const d of daysOf(month)) if (d >= today) open.add(d);
      }
    }
    if (day) {
      const range = {
        from: new Date(startOfDay(day, tz)).toISOString(),
        to: new Date(startOfDay(addDays(day, 1), tz)).toISOString(),
      };
      slots = (await linkAvailability(c.env, c.var.db, link, range)).slots;
    }
  }
  const said =
    shown.notice ??
    (shown.tz !== undefined && tz !== shown.tz
      ? { tone: "bad" as const, text: (v: View) => v.m.error.zone }
      : undefined);
  const notice = said && { tone: said.tone, text: said.text(view) };
  return respond(
    c,
    status,
    manageKind,
    <ManagePage
      view={view}
      booking={booking}
      path={path}
      href={href}
      contactEmail={business.contactEmail}
      zoneHref={href({ choose: "zone", day: shown.day && isDay(shown.day) ? shown.day : undefined, month: asked })}
      times={c.req.method === "GET"}
      month={month}
      open={open}
      today={today}
      day={day}
      slots={slots}
      notice={notice}
      reason={reason && { value: reason.value, problem: reason.problem && view.m.manage[reason.problem] }}
    />,
  );
}

const opened = (c: PageContext) => linkFor(c.env, c.var.db, c.req.param("token") as string, clientAddress(c.req.raw));

/** `GET /manage/{token}` from a browser: the page; anyone else goes on to the JSON. */
export async function manageGet(c: Context, next: Next) {
  c.header("Vary", "Accept");
  if (!prefersHtml(c.req.header("Accept"))) return next();
  const page = c as unknown as PageContext;
  try {
    const link = await opened(page);
    const q = c.req.query();
    if (q.choose === "zone") return await showZones(page, link, q);
    return await showManage(page, link, {
      tz: q.tz,
      lang: q.lang,
      day: q.day,
      month: q.month,
      notice: q.moved === "1" ? { tone: "ok", text: (v) => v.m.manage.moved } : undefined,
    });
  } catch (error) {
    return errorPage(page, error, manageKind);
  }
}

/** The form's start as an instant, or undefined. */
const startOf = (value: string | undefined) =>
  value && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/.test(value) && !Number.isNaN(Date.parse(value))
    ? Date.parse(value)
    : undefined;

/** A form posted to `…/cancel` or `…/reschedule`: handled here; JSON goes on to the API. */
export function manageForm(action: "cancel" | "reschedule") {
  return async (c: Context, next: Next) => {
    if (!isForm(c.req.header("Content-Type"))) return next();
    const page = c as unknown as PageContext;
    if (!sameOrigin(c.req.raw)) return foreignForm(page, manageKind);
    let link: OpenLink | undefined;
    try {
      link = await opened(page);
      const fields = await readForm(c);
      const shown = { tz: fields.tz, lang: fields.lang };
      if (action === "cancel") return await cancelForm(page, link, shown, (fields.reason ?? "").trim());
      const start = startOf(fields.start);
      if (start === undefined)
        return await showManage(page, link, { ...shown, notice: { tone: "bad", text: (v) => v.m.manage.noTime } }, 422);
      const end = start + link.service.durationMinutes * 60_000;
      try {
        await rescheduleByLink(c.env, c.var.db, link, {
          startTime: new Date(start).toISOString(),
          endTime: new Date(end).toISOString(),
        });
      } catch (error) {
        const day = dayKeyOf(start, fields.tz && isValidTimeZone(fields.tz) ? fields.tz : link.service.timezone);
        const refusal = refusalOf(error);
        if (!refusal) throw error;
        return await showManage(page, link, { ...shown, day, notice: refusal.notice }, refusal.status);
      }
      const query = new URLSearchParams(
        Object.entries({ moved: "1", ...shown }).filter((p): p is [string, string] => p[1] !== undefined),
      );
      return c.redirect(`${new URL(c.req.url).pathname.replace(/\/reschedule$/, "")}?${query}`, 303);
    } catch (error) {
      // The link was opened before the body was read: a body it cannot read is answered in the
      // business's look, and "Start again" leads back to the link's page.
      const look = link && error instanceof UnreadableForm ? await lookOf(page, link) : undefined;
      return errorPage(page, error, manageKind, look);
    }
  };
}

/** The link page's look (the business's title and colour, its language) for an error page. */
async function lookOf(c: PageContext, link: OpenLink): Promise<Look> {
  const { view, href } = await frameOf(c, link, { lang: c.req.query("lang") });
  return { view, startHref: href({}) };
}

/**
 * What the page says of a change the calendar refused, or undefined for a refusal it cannot
 * explain: a refused time says why as the booking page's times do (a full day, changed hours, taken).
 */
function refusalOf(error: unknown): { status: 409 | 422; notice: Said } | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.code === "slot_unavailable") {
    const reason = error.extensions?.reason;
    return { status: 409, notice: { tone: "bad", text: (v) => slotNotice(reason, v.m) } };
  }
  if (error.code === "validation_failed")
    return { status: 422, notice: { tone: "bad", text: (v) => v.m.times.refused } };
  if (error.code === "policy_window") {
    const until = String(error.extensions?.until ?? "");
    return { status: 409, notice: { tone: "bad", text: (v) => v.m.manage.until(v.f.dateTime(until)) } };
  }
  return undefined;
}

async function cancelForm(c: PageContext, link: OpenLink, shown: Shown, reason: string) {
  if (reason.length > 500) return showManage(c, link, shown, 422, { value: reason, problem: "reasonTooLong" });
  try {
    const cancelled = await cancelByLink(c.env, link, reason || undefined);
    const business = await loadBusiness(c.var.db, link.businessId);
    const tz = shown.tz && isValidTimeZone(shown.tz) ? shown.tz : link.service.timezone;
    const locale = pickLocale(shown.lang, c.req.header("Accept-Language"), business.locale);
    const bookHref =
      business.slug && business.bookingPage.enabled ? `/book/${business.slug}?lang=${locale}` : undefined;
    const view = viewOf({
      locale,
      nonce: nonceOf(c),
      embed: false,
      tz,
      tzAuto: false,
      title: business.bookingPage.title ?? business.name,
      accentColor: business.bookingPage.accentColor ?? null,
      langHref: (lang) => (bookHref ? bookHref.replace(/lang=\w+$/, `lang=${lang}`) : "#main"),
    });
    return respond(c, 200, manageKind, <CancelledPage view={view} booking={cancelled} bookHref={bookHref} />);
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    return showManage(c, link, { ...shown, notice: refusal.notice }, refusal.status);
  }
}
