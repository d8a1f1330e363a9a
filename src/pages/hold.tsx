/**
 * `POST /book/{slug}/hold`: a time chosen, a hold placed (the page's one path, src/booking-page/holds.ts);
 * `GET /book/{slug}/details`: the details form while the hold keeps the time.
 */

import { offeredService } from "../booking-page/availability";
import type { PageBusiness } from "../booking-page/business";
import { isLive, type PageHold, pageHoldOf, placePageHold } from "../booking-page/holds";
import type { PublicService } from "../booking-page/services";
import { ApiError } from "../lib/api-error";
import { clientAddress } from "../lib/booking-page-throttle";
import { sameOrigin } from "../middleware/security";
import { flowView, openFor } from "./flow";
import { type FormFields, readForm } from "./form";
import { dayKeyOf } from "./i18n/format";
import { flowPage, foreignForm, type PageContext, respond } from "./render";
import { type Flow, flowOf, hrefOf, paramsOf } from "./state";
import { DetailsPage } from "./steps/details";
import { ErrorPage } from "./steps/error";
import { providerOf, showTimes, stepOf } from "./times-data";
import type { View } from "./view";

const isoPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/;

/** Whether a form's `start` is an instant as the times' buttons send it. */
export const isStart = (start: string) => isoPattern.test(start) && !Number.isNaN(Date.parse(start));

/** The page of a form whose time is not one of the times listed. */
export const notATime = (c: PageContext, flow: Flow, view: View) =>
  respond(
    c,
    422,
    flowPage(),
    <ErrorPage view={view} title={view.m.error.bad} text={view.m.error.time} startHref={hrefOf(flow)} />,
  );

/** The flow a form carries in its hidden fields. */
export const flowOfForm = (slug: string, fields: FormFields) =>
  flowOf(slug, {
    service: fields.service,
    person: fields.person,
    tz: fields.tz,
    lang: fields.lang,
    embed: fields.embed,
  }).flow;

/** Back to the times of the day `startTime` falls on, saying why. */
export function backToTimes(
  c: PageContext,
  page: PageBusiness,
  flow: Flow,
  service: PublicService,
  view: View,
  startTime: string,
  refusal: { status: 409 | 422; notice: string },
) {
  return showTimes(
    c,
    page,
    { ...flow, service: service.id, day: dayKeyOf(startTime, view.tz) },
    service,
    view,
    refusal,
  );
}

/** What the times say of a time the calendar refused, by its `reason` (src/calendar/types.ts). */
const slotNotices: Record<string, (m: View["m"]) => string> = {
  // A day or week at the service's limit, or the person's day at theirs: another date may have room.
  limit_reached: (m) => m.times.full,
  // The hours changed since the page listed the time.
  outside_working_hours: (m) => m.times.refused,
  provider_unavailable: (m) => m.times.refused,
};

/** What the times say of a `slot_unavailable` with this `reason`: by default that it was just taken. */
export const slotNotice = (reason: unknown, m: View["m"]) => (slotNotices[String(reason)] ?? ((m) => m.times.taken))(m);

/** The notice of a refused hold or booking, or undefined for a refusal the times cannot answer. */
export function timesNotice(error: unknown, view: View): { status: 409 | 422; notice: string } | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const { m } = view;
  if (error.code === "slot_unavailable") return { status: 409, notice: slotNotice(error.extensions?.reason, m) };
  if (error.code === "hold_expired") return { status: 409, notice: m.times.expired };
  if (error.code === "hold_limit_reached") {
    // The page holds' share of the day (any visitors'), or this visitor's own bound of 3.
    return { status: 409, notice: error.extensions?.reason === "day_share" ? m.times.dayHeld : m.times.limit };
  }
  // A time off the rules (past, too soon, too far ahead, off the grid): the times say what is free.
  if (error.code === "validation_failed" && error.errors?.some((e) => /Time$/.test(e.path))) {
    return { status: 422, notice: m.times.refused };
  }
  return undefined;
}

/**
 * Holds the time `start` of the flow's service and person for this visitor: the hold, or the page
 * that says why not (a time that is not one, a person not the service's, a refusal of the times).
 */
export async function holdTime(
  c: PageContext,
  page: PageBusiness,
  flow: Flow,
  service: PublicService,
  view: View,
  start: string,
): Promise<PageHold | Response> {
  if (!isStart(start)) return notATime(c, flow, view);
  const { providerId } = providerOf(service, flow, view);
  if (flow.person !== undefined && flow.person !== "any" && !providerId) {
    return respond(
      c,
      422,
      flowPage(),
      <ErrorPage
        view={view}
        title={view.m.error.bad}
        text={view.m.error.person}
        startHref={hrefOf(flow, { person: undefined })}
      />,
    );
  }
  const startTime = new Date(start).toISOString();
  const endTime = new Date(Date.parse(start) + service.durationMinutes * 60_000).toISOString();
  try {
    return await placePageHold(c.env, c.var.db, page, clientAddress(c.req.raw), {
      serviceId: service.id,
      providerId,
      startTime,
      endTime,
    });
  } catch (error) {
    const refusal = timesNotice(error, view);
    if (!refusal) throw error;
    return backToTimes(c, page, flow, service, view, startTime, refusal);
  }
}

export async function placeHoldFromForm(c: PageContext) {
  if (!sameOrigin(c.req.raw)) return foreignForm(c);
  // The page first: a body it cannot read is answered in the business's look.
  const page = await openFor(c, c.req.param("slug") as string);
  const fields = await readForm(c);
  const flow = flowOfForm(page.slug, fields);
  const service = await offeredService(c.var.db, page, fields.service ?? "");
  const view = flowView(c, page, flow, service.timezone);
  const hold = await holdTime(c, page, flow, service, view, fields.start ?? "");
  if (hold instanceof Response) return hold;
  const query = new URLSearchParams([
    ["hold", hold.id],
    ["token", hold.holdToken],
    ...paramsOf({ ...flow, tz: view.tz }),
  ]);
  return c.redirect(`/book/${page.slug}/details?${query}`, 303);
}

/** The details page of a live hold, with the form's values and problems when it comes back. */
export async function showDetails(
  c: PageContext,
  page: PageBusiness,
  flow: Flow,
  found: { hold: Awaited<ReturnType<typeof pageHoldOf>>; token: string },
  form?: { values: FormFields; problems: Record<string, string> },
) {
  const { hold, token } = found;
  const service = await offeredService(c.var.db, page, hold.serviceId);
  const view = flowView(c, page, flow, service.timezone);
  if (!isLive(hold))
    return backToTimes(c, page, flow, service, view, hold.startTime, { status: 409, notice: view.m.times.expired });
  return respond(
    c,
    form ? 422 : 200,
    flowPage(true),
    <DetailsPage
      {...stepOf(service, flow, view, hold.providerId ?? flow.person)}
      hold={{ id: hold.id, token, startTime: hold.startTime, expiresAt: hold.expiresAt }}
      values={form?.values}
      problems={form?.problems}
    />,
  );
}

export async function detailsPage(c: PageContext) {
  const page = await openFor(c, c.req.param("slug") as string);
  const query = c.req.query();
  const { flow } = flowOf(page.slug, query);
  const token = query.token ?? "";
  const hold = await pageHoldOf(c.env, c.var.db, page, (query.hold ?? "").slice(0, 64), token);
  return showDetails(c, page, flow, { hold, token });
}
