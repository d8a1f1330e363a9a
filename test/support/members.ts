/** Signing members in through the office's real pages, for the tests of sessions and roles (not a test file). */
import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import { eventually } from "./eventually";
import { sentTo } from "./messages";

/** A request to the Worker at the tests' origin, as a browser on this site would send it. */
export function office(
  method: string,
  path: string,
  options: { form?: Record<string, string>; cookie?: string; headers?: Record<string, string> } = {},
) {
  const headers = new Headers(options.headers);
  if (options.cookie) headers.set("Cookie", `__Host-session=${options.cookie}`);
  if (method !== "GET" && !headers.has("Origin")) headers.set("Origin", "http://api.test");
  let body: string | undefined;
  if (options.form) {
    headers.set("Content-Type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(options.form).toString();
  }
  return exports.default.fetch(new Request(`http://api.test${path}`, { method, headers, body, redirect: "manual" }));
}

/** The API with a session cookie instead of a key. */
export const asMember = (
  method: string,
  path: string,
  cookie: string,
  body?: unknown,
  headers: Record<string, string> = {},
) =>
  exports.default.fetch(
    new Request(`http://api.test/api/v1${path}`, {
      method,
      headers: {
        Cookie: `__Host-session=${cookie}`,
        ...(body ? { "Content-Type": "application/json" } : {}),
        ...headers,
      },
      body: body ? JSON.stringify(body) : undefined,
    }),
  );

/** Asks for a sign-in link to `email` and answers the token of the e-mail this request brings. */
export async function linkFor(email: string): Promise<string> {
  const before = sentTo(email).length;
  const res = await office("POST", "/office/sign-in", { form: { email } });
  expect(res.status).toBe(200);
  const mail = await eventually(async () => sentTo(email)[before], `sign-in e-mail ${before + 1} to ${email}`);
  const token = /token=([^\s]+)/.exec(String(mail.message.text))?.[1];
  expect(token).toBeDefined();
  return token as string;
}

/** The session cookie's value a Set-Cookie header carries. */
export const cookieOf = (res: Response) => /__Host-session=([^;]*)/.exec(res.headers.get("Set-Cookie") ?? "")?.[1];

/** Signs `email` in through the link and its button; answers the session cookie's value. */
export async function signIn(email: string): Promise<string> {
  const token = await linkFor(email);
  const res = await office("POST", "/office/sign-in/link", { form: { token } });
  expect(res.status).toBe(303);
  const cookie = cookieOf(res);
  expect(cookie).toBeTruthy();
  return cookie as string;
}
