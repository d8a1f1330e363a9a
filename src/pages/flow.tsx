/** `GET /book/{slug}`: the booking flow's steps, chosen by what the address carries. */

import { type PageBusiness, pageFor } from "../booking-page/business";
import { onlineServices } from "../booking-page/services";
import { pageService } from "../booking-page/snapshot";
import { clientAddress } from "../lib/booking-page-throttle";
import { pickLocale } from "./i18n";
import { flowPage, nonceOf, type PageContext, respond } from "./render";
import { type Flow, type FlowProblem, flowOf, hrefOf } from "./state";
import { ErrorPage } from "./steps/error";
import { ProvidersPage } from "./steps/providers";
import { ServicesPage } from "./steps/services";
import { ZonePage } from "./steps/zone";
import { showDays, showTimes } from "./times-data";
import { type View, viewOf } from "./view";

/** The page a request names, charged to its address and its business (404 and 429 as pages). */
export async function openFor(c: PageContext, slug: string): Promise<PageBusiness> {
  const page = await pageFor(c.env, c.var.db, slug, clientAddress(c.req.raw));
  c.set("page", page);
  return page;
}

/** The view of a flow's page: its language, and times in its zone (else `zone`). */
export function flowView(c: PageContext, page: PageBusiness, flow: Flow, zone: string): View {
  const locale = pickLocale(flow.lang, c.req.header("Accept-Language"), page.locale);
  return viewOf({
    locale,
    nonce: nonceOf(c),
    embed: flow.embed,
    tz: flow.tz ?? zone,
    tzAuto: flow.tz === undefined,
    title: page.title,
    accentColor: page.accentColor,
    langHref: (lang) => hrefOf(flow, { lang }),
  });
}

/** What a wrong parameter asks the visitor to do. */
const fixOf = (view: View, problem: FlowProblem) => view.m.error[problem];

export async function bookingFlow(c: PageContext) {
  const slug = c.req.param("slug") as string;
  const query = c.req.query();
  // A step with a service reads the page and the service in one D1 round trip.
  const asked = flowOf(slug, query).flow.service;
  const found = asked ? await pageService(c.env, c.var.db, slug, clientAddress(c.req.raw), asked) : undefined;
  if (found) c.set("page", found.page);
  const page = found?.page ?? (await openFor(c, slug));
  const { flow, problems } = flowOf(page.slug, query);
  if (problems.length > 0) {
    const view = flowView(c, page, flow, page.timezone);
    const items = problems.map((problem) => fixOf(view, problem));
    return respond(
      c,
      422,
      flowPage(),
      <ErrorPage view={view} title={view.m.error.bad} text={items.join(" ")} startHref={hrefOf(flow)} />,
    );
  }
  if (!found) {
    const view = flowView(c, page, flow, page.timezone);
    const services = await onlineServices(c.var.db, page.id);
    return respond(c, 200, flowPage(), <ServicesPage view={view} flow={flow} services={services} />);
  }
  const { service, read } = found;
  const view = flowView(c, page, flow, service.timezone);
  const several = service.providerMode === "one" && service.providers.length > 1;
  const noSuchProvider =
    flow.person !== undefined && flow.person !== "any" && !service.providers.some((p) => p.id === flow.person);
  if (several && (flow.person === undefined || noSuchProvider)) {
    const problem = noSuchProvider ? view.m.error.person : undefined;
    return respond(
      c,
      noSuchProvider ? 422 : 200,
      flowPage(),
      <ProvidersPage view={view} flow={{ ...flow, person: undefined }} service={service} problem={problem} />,
    );
  }
  if (noSuchProvider) {
    const start = hrefOf(flow, { person: undefined });
    return respond(
      c,
      422,
      flowPage(),
      <ErrorPage view={view} title={view.m.error.bad} text={view.m.error.person} startHref={start} />,
    );
  }
  if (flow.day === undefined) return showDays(c, page, flow, service, view, read);
  return showTimes(c, page, { ...flow, day: flow.day }, service, view, undefined, read);
}

/** `GET /book/{slug}/zone`: every zone, to see the step the address names in another. */
export async function zonePage(c: PageContext) {
  const page = await openFor(c, c.req.param("slug") as string);
  const { flow } = flowOf(page.slug, c.req.query());
  const view = flowView(c, page, flow, page.timezone);
  return respond(c, 200, flowPage(), <ZonePage view={view} flow={flow} />);
}
