/**
 * The signed-in office's frame: the booking pages' stylesheet and headers, a bar naming the
 * member and their role, the nav and sign-out, in the member's language. Positions of the day's
 * blocks come in a nonce'd `<style>` (the policy allows no style attributes).
 */
import { raw } from "hono/html";
import type { Child } from "hono/jsx";
import { assetPaths } from "../../pages/assets";
import { contentSecurityPolicy, newNonce, setPageHeaders } from "../../pages/headers";
import { officeAssets } from "../assets";
import { setupWordsOf } from "../setup/words";
import type { DeskContext } from "./desk";

export type DeskStatus = 200 | 400 | 403 | 404 | 409 | 422;

/** What a page of the office adds to the frame. */
export type DeskPage = {
  title: string;
  /** Which nav entry the page belongs to. */
  section?: "day" | "new" | "customers" | "setup" | "passkeys";
  /** CSS rules placing the page's blocks, put in the nonce'd `<style>`. */
  positions?: string;
  /** A script of the page's own besides the office's (one of the assets' addresses). */
  script?: string;
  body: Child;
};

/** Answers a page of the signed-in office: never framed, never cached, no referrer. */
export function deskPage(c: DeskContext, status: DeskStatus, page: DeskPage) {
  const { m, member, locale } = c.var.desk;
  const nonce = newNonce();
  setPageHeaders(c, nonce, { framable: false, capability: true });
  // The live update reads this site's own addresses.
  c.header("Content-Security-Policy", `${contentSecurityPolicy(nonce, false)}; connect-src 'self'`);
  const current = (section: DeskPage["section"]) => (page.section === section ? "page" : undefined);
  return c.html(
    <>
      {raw("<!doctype html>")}
      <html lang={locale}>
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="robots" content="noindex, nofollow" />
          <title>{`${page.title} · ${m.office}`}</title>
          <link rel="icon" href="data:," />
          <link rel="stylesheet" href={assetPaths.css} />
          <link rel="stylesheet" href={officeAssets.css} />
          {page.positions && <style nonce={nonce}>{raw(page.positions)}</style>}
          <script src={officeAssets.js} defer />
          {page.script && <script src={page.script} defer />}
        </head>
        <body>
          <a class="skip" href="#main">
            {m.skip}
          </a>
          <div class="page desk">
            <header class="bar">
              <p class="who">
                <strong>{c.var.desk.businessName}</strong> · {m.signedInAs(member.name, m.roles[member.role] ?? "")}
              </p>
              <nav aria-label={m.nav.label}>
                <ul>
                  <li>
                    <a href="/office" aria-current={current("day")}>
                      {m.nav.day}
                    </a>
                  </li>
                  {/* Staff may do neither (the server refuses them too): the links are left off. */}
                  {member.role !== "staff" && (
                    <>
                      <li>
                        <a href="/office/bookings/new" aria-current={current("new")}>
                          {m.nav.newBooking}
                        </a>
                      </li>
                      <li>
                        <a href="/office/customers" aria-current={current("customers")}>
                          {m.nav.customers}
                        </a>
                      </li>
                    </>
                  )}
                  {member.role !== "frontdesk" && (
                    <li>
                      <a href="/office/setup" aria-current={current("setup")}>
                        {setupWordsOf(locale).nav[member.role === "owner" ? "setup" : "myHours"]}
                      </a>
                    </li>
                  )}
                  <li>
                    <a href="/office/passkeys" aria-current={current("passkeys")}>
                      {m.nav.passkeys}
                    </a>
                  </li>
                  <li>
                    <form method="post" action="/office/sign-out">
                      <button type="submit">{m.nav.signOut}</button>
                    </form>
                  </li>
                </ul>
              </nav>
            </header>
            <main id="main" class="sheet">
              {page.body}
            </main>
          </div>
        </body>
      </html>
    </>,
    status,
  );
}

/** A page that says what went wrong, in the frame: a 404 for what is not there or not theirs. */
export function deskProblem(c: DeskContext, status: DeskStatus, title: string, text: string) {
  return deskPage(c, status, {
    title,
    body: (
      <>
        <h1>{title}</h1>
        <p>{text}</p>
        <p>
          <a href="/office">{c.var.desk.m.day.today}</a>
        </p>
      </>
    ),
  });
}
