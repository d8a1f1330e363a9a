/** The booking flow's forms in tests: a hold placed through the page, and its details page. Not a test file. */
import { expect } from "vitest";
import { postForm } from "../support/public";

/** Posts the times form for `start` and answers the details page's path (303 to it). */
export async function holdThroughPage(
  slug: string,
  serviceId: string,
  start: string,
  extra: Record<string, string> = {},
  address?: string,
) {
  const res = await postForm(`/book/${slug}/hold`, { service: serviceId, start, tz: "UTC", ...extra }, {}, address);
  expect(res.status, await res.clone().text()).toBe(303);
  const location = res.headers.get("Location") ?? "";
  expect(location).toMatch(new RegExp(`^/book/${slug}/details\\?hold=hld_[0-9a-z]{26}&token=[A-Za-z0-9_-]{43}&`));
  const query = new URL(location, "http://x").searchParams;
  return { path: location, hold: query.get("hold") as string, token: query.get("token") as string };
}

/** The details form's fields for a hold, a person's valid details unless `extra` changes them. */
export const detailsFields = (held: { hold: string; token: string }, extra: Record<string, string> = {}) => ({
  hold: held.hold,
  token: held.token,
  tz: "UTC",
  name: "Ada Lovelace",
  email: `${crypto.randomUUID()}@example.com`,
  phone: "",
  notes: "",
  website: "",
  ...extra,
});
