/** How the pages answer: a page with its headers, and every error as a page that says what to do. */
import type { Context } from "hono";
import type { JSX } from "hono/jsx/jsx-runtime";
import type { PageBusiness } from "../booking-page/business";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/api-error";
import { UnreadableForm } from "./form";
import { newNonce, type PageKind, setPageHeaders } from "./headers";
import { pickLocale } from "./i18n";
import { ErrorPage } from "./steps/error";
import { type View, viewOf } from "./view";

/** The pages' Hono environment: the API's, plus the page (business) once a request found it. */
export type PageEnv = AppEnv & { Variables: AppEnv["Variables"] & { page?: PageBusiness; nonce?: string } };

export type PageContext = Context<PageEnv>;

/** The nonce of this response's `<style>`, made once per request. */
export function nonceOf(c: PageContext): string {
  let nonce = c.get("nonce");
  if (!nonce) {
    nonce = newNonce();
    c.set("nonce", nonce);
  }
  return nonce;
}

type Status = 200 | 400 | 403 | 404 | 409 | 415 | 422 | 429 | 500 | 503;

/** Answers a page with its status and headers. */
export function respond(c: PageContext, status: Status, kind: PageKind, page: JSX.Element) {
  setPageHeaders(c, nonceOf(c), kind);
  return c.html(page, status);
}

/** The booking flow's kind of page: embeddable, and a capability page where the address is a secret. */
export const flowPage = (capability = false): PageKind => ({ framable: true, capability });

/**
 * A view for a page that may know little: the language from `?lang=` or `Accept-Language`, the
 * business's brand if the request found it, times in `tz` (else the business's zone, else UTC).
 */
export function fallbackView(c: PageContext, tz?: string): View {
  const page = c.get("page");
  const url = new URL(c.req.url);
  const locale = pickLocale(
    url.searchParams.get("lang") ?? undefined,
    c.req.header("Accept-Language"),
    page?.locale ?? "en",
  );
  return viewOf({
    locale,
    nonce: nonceOf(c),
    embed: url.searchParams.get("embed") === "1",
    tz: tz ?? page?.timezone ?? "UTC",
    tzAuto: false,
    title: page?.title ?? (locale === "de" ? "Termin buchen" : "Book an appointment"),
    accentColor: page?.accentColor ?? null,
    langHref: (to) => {
      const next = new URL(page ? `/book/${page.slug}` : url.pathname, url);
      next.searchParams.set("lang", to);
      return `${next.pathname}${next.search}`;
    },
  });
}

/** A page's own look for its error pages: its view, and where "Start again" leads. */
export type Look = { view: View; startHref?: string };

/**
 * A page for a request refused as a whole (never a stack trace, never JSON). `look`: the page's
 * own (the manage link's), else the booking page's found by the request, else the default.
 */
export function errorPage(c: PageContext, error: unknown, kind: PageKind = flowPage(true), look?: Look) {
  const view = look?.view ?? fallbackView(c);
  const { m } = view;
  const page = c.get("page");
  const start = look ? look.startHref : page ? `/book/${page.slug}` : undefined;
  if (error instanceof UnreadableForm) {
    const text = error.status === 415 ? m.error.notForm : m.error.unreadable;
    return respond(c, error.status, kind, <ErrorPage view={view} title={m.error.bad} text={text} startHref={start} />);
  }
  if (!(error instanceof ApiError)) {
    console.error(JSON.stringify({ msg: "page error", error: String(error), stack: (error as Error)?.stack }));
    return respond(
      c,
      500,
      kind,
      <ErrorPage view={view} title={m.error.busy} text={m.error.busyText} startHref={start} />,
    );
  }
  for (const [name, value] of Object.entries(error.headers ?? {})) if (name === "Retry-After") c.header(name, value);
  switch (error.status) {
    case 404:
      return respond(
        c,
        404,
        kind,
        <ErrorPage view={view} title={m.error.notFound} text={m.error.notFoundText} startHref={start} />,
      );
    case 429:
      return respond(c, 429, kind, <ErrorPage view={view} title={m.error.limited} text={m.error.limitedText} />);
    case 503:
      return respond(
        c,
        503,
        kind,
        <ErrorPage view={view} title={m.error.busy} text={m.error.busyText} startHref={start} />,
      );
    case 500:
      return respond(
        c,
        500,
        kind,
        <ErrorPage view={view} title={m.error.busy} text={m.error.busyText} startHref={start} />,
      );
    default: {
      const status = ([400, 403, 409, 422] as const).find((s) => s === error.status) ?? 400;
      return respond(
        c,
        status,
        kind,
        <ErrorPage view={view} title={m.error.bad} text={error.message} startHref={start} />,
      );
    }
  }
}

/** The refusal of a form posted from anywhere but this origin's own page. */
export function foreignForm(c: PageContext, kind: PageKind = flowPage(true)) {
  const view = fallbackView(c);
  return respond(c, 403, kind, <ErrorPage view={view} title={view.m.error.bad} text={view.m.error.forbidden} />);
}
