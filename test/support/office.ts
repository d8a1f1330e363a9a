/** A business with people, bookings and signed-in members, for the office's page tests (not a test file). */
import { expect } from "vitest";
import { memberOf } from "./access";
import { api, json } from "./api";
import { at, book, bookingBody } from "./bookings";
import { salon } from "./fixtures";
import { office, signIn } from "./members";

const unique = (role: string) => `${role}.${crypto.randomUUID().slice(0, 8)}@example.com`;

/** A signed-in member of the salon in `role` (staff are Stylist 0). */
export async function deskMember(s: Awaited<ReturnType<typeof salon>>, role: "owner" | "frontdesk" | "staff") {
  const email = unique(role);
  const name = { owner: "Olivia Owner", frontdesk: "Frank Desk", staff: "Sam Staff" }[role];
  const member = await memberOf(s.apiKey, {
    role,
    email,
    name,
    ...(role === "staff" ? { providerId: s.providerIds[0] } : {}),
  });
  return { id: member.id, cookie: await signIn(email) };
}

/**
 * A salon of two people (UTC, 09:00–17:00) with one booking each on the day after tomorrow
 * (10:00 with Stylist 0 for Mine Customer, 11:00 with Stylist 1 for Their Customer), and an owner
 * member already active.
 */
export async function deskSalon() {
  const s = await salon(2);
  await memberOf(s.apiKey, { role: "owner" }, true);
  const mine = await book(
    s.apiKey,
    bookingBody(s.cut, at(2, "10:00"), { providerId: s.providerIds[0], customerName: "Mine Customer" }),
  );
  const theirs = await book(
    s.apiKey,
    bookingBody(s.colour, at(2, "11:00"), { providerId: s.providerIds[1], customerName: "Their Customer" }),
  );
  return { ...s, mine: mine as { id: string }, theirs: theirs as { id: string } };
}

/** An office page's status and text. */
export async function page(path: string, cookie: string, headers: Record<string, string> = {}) {
  const res = await office("GET", path, { cookie, headers });
  return { status: res.status, html: await res.text(), res };
}

/** The booking as the API answers it to the business's key. */
export async function bookingOf(key: string, id: string) {
  const res = await api("GET", `/bookings/${id}`, { key });
  expect(res.status).toBe(200);
  return json(res);
}
