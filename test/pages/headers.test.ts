/** The pages' headers: a strict CSP, framing only where embedding is meant, capability pages kept private. */
import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { at } from "../support/bookings";
import { bookWithLink, clinic } from "../support/manage-links";
import { enablePage, getPage, html, pageBusiness, postForm } from "../support/public";
import { detailsFields, holdThroughPage } from "./fixtures";

/** The directives of a Content-Security-Policy, by name. */
const directives = (csp: string | null) =>
  Object.fromEntries(
    (csp ?? "")
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values.join(" ")]),
  );

/** Asserts the strict policy: own scripts and styles, one nonce'd style, nothing inline, nothing from elsewhere. */
function expectStrictPage(res: Response, page: string, framing: "*" | "'none'") {
  const csp = directives(res.headers.get("Content-Security-Policy"));
  const nonce = /<style nonce="([^"]+)">/.exec(page)?.[1];
  expect(nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
  expect(csp).toEqual({
    "default-src": "'none'",
    "script-src": "'self'",
    "style-src": `'self' 'nonce-${nonce}'`,
    "img-src": "'self' data:",
    "form-action": "'self'",
    "base-uri": "'none'",
    "frame-ancestors": framing,
  });
  expect(page).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
  expect(page).not.toMatch(/\sstyle=|\son[a-z]+=/);
  expect(page.match(/<style/g)).toHaveLength(1);
  // Nothing from another origin (the manage link is this one's, written out whole).
  expect(page).not.toMatch(/(src|href|action)="(https?:)?\/\/(?!api\.test\/)/);
  expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
  expect(res.headers.get("Cache-Control")).toBe("no-store");
}

/** Asserts what a capability page (its address the secret) sends: no referrer, no indexing. */
function expectCapability(res: Response, page: string) {
  expect(res.headers.get("Referrer-Policy")).toBe("no-referrer");
  expect(res.headers.get("X-Robots-Tag")).toBe("noindex, nofollow");
  expect(page).toContain('<meta name="robots" content="noindex, nofollow"/>');
}

describe("the booking flow", () => {
  it("is embeddable anywhere, under a strict policy with a fresh nonce each time; indexable where its address is public", async () => {
    const f = await pageBusiness();
    const res = await getPage(`/book/${f.slug}`);
    const page = await html(res);
    expectStrictPage(res, page, "*");
    expect(res.headers.get("X-Frame-Options")).toBeNull();
    expect(res.headers.get("Referrer-Policy")).toBe("same-origin");
    expect(res.headers.get("X-Robots-Tag")).toBeNull();
    const again = await getPage(`/book/${f.slug}`);
    expect(again.headers.get("Content-Security-Policy")).not.toBe(res.headers.get("Content-Security-Policy"));
  });

  it("the details page and the confirmation keep their address out of referrers and search engines", async () => {
    const f = await pageBusiness();
    const held = await holdThroughPage(f.slug, f.serviceId, at(3, "10:00"));
    const details = await getPage(held.path);
    const detailsPage = await html(details);
    expectStrictPage(details, detailsPage, "*");
    expectCapability(details, detailsPage);
    const booked = await postForm(`/book/${f.slug}/book`, detailsFields(held));
    expect(booked.status).toBe(303);
    const confirmation = await getPage(booked.headers.get("Location") as string);
    const confirmationPage = await html(confirmation);
    expectStrictPage(confirmation, confirmationPage, "*");
    expectCapability(confirmation, confirmationPage);
  });

  it("error pages are pages under the same policy, never JSON", async () => {
    const res = await getPage("/book/no-such-page");
    expectStrictPage(res, await html(res, 404), "*");
  });
});

describe("the manage page", () => {
  it("is never framed, and keeps its address private", async () => {
    const c = await clinic();
    const { path } = await bookWithLink(c.apiKey, c.serviceId, at(3, "10:00"));
    const res = await getPage(`/api/v1${path}`);
    const page = await html(res);
    expectStrictPage(res, page, "'none'");
    expectCapability(res, page);
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
    expect(res.headers.get("Vary")).toContain("Accept");
  });
});

describe("assets and the embed script", () => {
  it("the stylesheet and script are cached for a year under a hashed name; an unknown one is a 404 page", async () => {
    const f = await pageBusiness();
    const page = await html(await getPage(`/book/${f.slug}`));
    const css = /href="(\/book\/_assets\/booking\.[0-9a-z]+\.css)"/.exec(page)?.[1];
    const js = /src="(\/book\/_assets\/booking\.[0-9a-z]+\.js)"/.exec(page)?.[1];
    for (const [path, type] of [
      [css, "text/css; charset=utf-8"],
      [js, "text/javascript; charset=utf-8"],
    ]) {
      const res = await getPage(path as string);
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Type")).toBe(type);
      expect(res.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
      await res.body?.cancel();
    }
    await html(await getPage("/book/_assets/booking.nothing.css"), 404);
  });

  it("embed.js may be loaded by any site and frames the page with ?embed=1", async () => {
    const res = await getPage("/book/some-salon/embed.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("Cross-Origin-Resource-Policy")).toBe("cross-origin");
    const text = await res.text();
    expect(text).toContain('createElement("iframe")');
    expect(text).toContain('searchParams.set("embed", "1")');
    expect(text).toContain("booking.scheduled");
  });

  it("the API keeps its own policy: nothing framed, nothing run", async () => {
    const { apiKey } = await pageBusiness();
    const res = await api("GET", "/business", { key: apiKey });
    expect(directives(res.headers.get("Content-Security-Policy"))).toMatchObject({
      "default-src": "'none'",
      "frame-ancestors": "'none'",
    });
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
    await res.body?.cancel();
    const slug = await enablePage(apiKey);
    const json = await api("GET", `/public/${slug}/services`, { key: null });
    expect(directives(json.headers.get("Content-Security-Policy"))["frame-ancestors"]).toBe("'none'");
    await json.body?.cancel();
  });
});
