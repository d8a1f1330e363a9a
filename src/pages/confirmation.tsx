/** `GET /book/{slug}/booked/{token}` and its `booking.ics`: the booking made, opened by its manage token. */

import { noPage, type PageBusiness } from "../booking-page/business";
import { managedView } from "../bookings/by-link";
import { openLink } from "../manage-links/records";
import { flowView, openFor } from "./flow";
import { bookingIcs } from "./invite";
import { flowPage, type PageContext, respond } from "./render";
import { flowOf } from "./state";
import { BookedPage } from "./steps/booked";

/** The page's booking this token opens, or a 404 (another business's booking is none of this page's). */
async function bookingOf(c: PageContext, page: PageBusiness, token: string) {
  const link = await openLink(c.env, c.var.db, token.slice(0, 200));
  if (!link || link.businessId !== page.id) throw noPage();
  return link;
}

export async function bookedPage(c: PageContext) {
  const page = await openFor(c, c.req.param("slug") as string);
  const token = c.req.param("token") as string;
  const link = await bookingOf(c, page, token);
  const { flow } = flowOf(page.slug, c.req.query());
  const view = flowView(c, page, flow, link.service.timezone);
  const booking = managedView(link);
  const icsHref = `/book/${page.slug}/booked/${token}/booking.ics`;
  return respond(c, 200, flowPage(true), <BookedPage view={view} booking={booking} icsHref={icsHref} />);
}

export async function bookedIcs(c: PageContext) {
  const page = await openFor(c, c.req.param("slug") as string);
  const link = await bookingOf(c, page, c.req.param("token") as string);
  c.header("Content-Disposition", 'attachment; filename="booking.ics"');
  c.header("Cache-Control", "no-store");
  c.header("Referrer-Policy", "no-referrer");
  c.header("X-Robots-Tag", "noindex, nofollow");
  c.header("X-Content-Type-Options", "nosniff");
  return c.body(bookingIcs(managedView(link), page.name), 200, { "Content-Type": "text/calendar; charset=utf-8" });
}
