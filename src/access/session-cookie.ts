/**
 * The session cookie: `__Host-session`, `Secure`, `HttpOnly`, `SameSite=Lax`, path `/` — except
 * over plain HTTP on a loopback host (what `npm run dev` serves), where browsers drop `Secure`
 * cookies: there it is `session` without `Secure`. A deployment is only ever reached over HTTPS
 * by its own host name, so it always gets the first.
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { ABSOLUTE_MS } from "./sessions";

const loopback = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Whether the request came over plain HTTP to this machine. */
const isLocal = (url: URL) => url.protocol === "http:" && loopback.has(url.hostname);

/** The cookie's name for this request. */
export const sessionCookieName = (c: Context) => (isLocal(new URL(c.req.url)) ? "session" : "__Host-session");

/** The session cookie's value the request carries, if any. */
export const sessionCookie = (c: Context): string | undefined => getCookie(c, sessionCookieName(c));

/** Sets the session cookie (replacing any cookie the browser held before: no fixation). */
export function setSessionCookie(c: Context, value: string): void {
  setCookie(c, sessionCookieName(c), value, {
    path: "/",
    httpOnly: true,
    sameSite: "Lax",
    secure: !isLocal(new URL(c.req.url)),
    maxAge: ABSOLUTE_MS / 1000,
  });
}

/** Clears the session cookie. */
export function clearSessionCookie(c: Context): void {
  const secure = !isLocal(new URL(c.req.url));
  deleteCookie(c, sessionCookieName(c), { path: "/", secure });
}
