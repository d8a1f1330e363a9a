/** Rows put straight into D1 for the list tests, and reading a list's pages. */
import { expect } from "vitest";
import { customers } from "../../src/db/schema";
import { newId } from "../../src/lib/ids";
import { api, db, insertBooking, json, origin } from "./api";

/** Stores `n` customers named `<prefix> i`, oldest first; returns their ids newest first (list order). */
export async function seedCustomers(businessId: string, n: number, prefix = "Customer"): Promise<string[]> {
  const t0 = Date.now() - 600_000;
  const rows = Array.from({ length: n }, (_, i) => {
    const name = `${prefix} ${i + 1}`;
    const email = `${prefix.toLowerCase().replaceAll(" ", "-")}-${i + 1}@example.com`;
    const at = new Date(t0 + i * 1000).toISOString();
    return {
      id: newId("customer", t0 + i * 1000),
      businessId,
      name,
      email,
      emailNormalized: email,
      nameNormalized: name.toLowerCase(),
      phone: null,
      createdAt: at,
      updatedAt: at,
    };
  });
  // Ten rows of nine values a statement: D1 binds at most 100 values to one.
  for (let i = 0; i < rows.length; i += 10)
    await db()
      .insert(customers)
      .values(rows.slice(i, i + 10));
  return rows.map((r) => r.id).reverse();
}

/** Stores `n` bookings, two to each start time (so the id breaks ties); returns their ids in list order. */
export async function seedBookings(businessId: string, base: { serviceId: string; customerId: string }, n: number) {
  const t0 = Date.parse("2026-12-01T09:00:00Z");
  const rows = [];
  for (let i = 0; i < n; i++) {
    const startTime = new Date(t0 + Math.floor(i / 2) * 3_600_000).toISOString();
    rows.push(await insertBooking(businessId, { ...base, startTime }));
  }
  return rows
    .sort((a, b) => (a.startTime === b.startTime ? (a.id < b.id ? 1 : -1) : a.startTime < b.startTime ? 1 : -1))
    .map((r) => r.id);
}

/** `rel → URL` of a Link header. */
export function links(res: Response): Record<string, URL> {
  const header = res.headers.get("Link") ?? "";
  return Object.fromEntries(
    [...header.matchAll(/<([^>]+)>;\s*rel="([a-z]+)"/g)].map(([, target, rel]) => [rel, new URL(target ?? "", origin)]),
  );
}

/** One page of a list: the response, its body and the ids it lists. */
export async function listPage(key: string, path: string) {
  const res = await api("GET", path, { key });
  expect(res.status).toBe(200);
  const body = await json(res);
  return { res, body, ids: body.data.map((item: { id: string }) => item.id) as string[] };
}

/** Every id of a list, following `after` cursors from its first page. */
export async function walkAfter(key: string, path: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  const sep = path.includes("?") ? "&" : "?";
  let next: string | null = null;
  for (let guard = 0; guard < 1000; guard++) {
    const query = next ? `${sep}limit=${limit}&after=${next}` : `${sep}limit=${limit}`;
    const { body, ids: page } = await listPage(key, `${path}${query}`);
    ids.push(...page);
    next = body.pagination.nextCursor;
    if (!next) return ids;
  }
  throw new Error("the walk did not end");
}
