/**
 * Keyset pagination of GET /bookings and GET /customers: `after`/`before` cursors beside
 * page/limit, their Link relations, stability under inserts, and 422s for cursors not issued.
 */
import { describe, expect, it } from "vitest";
import {
  api,
  createAccount,
  createCustomer,
  createService,
  insertBooking,
  json,
  validationError,
} from "../support/api";
import { createProvider } from "../support/fixtures";
import { links, listPage, seedBookings, seedCustomers, walkAfter } from "../support/lists";

async function bookingsAccount() {
  const account = await createAccount();
  const service = await createService(account.apiKey);
  const customer = await createCustomer(account.apiKey);
  return { ...account, base: { serviceId: service.id, customerId: customer.id } };
}

describe("cursors", () => {
  it("after walks every booking once, in list order, with ties on the start time broken by id", async () => {
    const a = await bookingsAccount();
    const ids = await seedBookings(a.businessId, a.base, 23);
    expect(await walkAfter(a.apiKey, "/bookings", 5)).toEqual(ids);
    expect(await walkAfter(a.apiKey, `/bookings?status=CONFIRMED&serviceId=${a.base.serviceId}`, 4)).toEqual(ids);
  });

  it("before walks back to the first page; Link carries first, prev and next as cursors", async () => {
    const a = await bookingsAccount();
    const ids = await seedBookings(a.businessId, a.base, 12);
    const first = await listPage(a.apiKey, "/bookings?limit=5");
    expect(first.body.pagination).toMatchObject({ page: 1, total: 12, hasMore: true, prevCursor: null });
    const second = await listPage(a.apiKey, `/bookings?limit=5&after=${first.body.pagination.nextCursor}`);
    expect(second.ids).toEqual(ids.slice(5, 10));
    expect(second.body.pagination).toMatchObject({ page: null, total: 12, totalPages: 3, hasMore: true });
    const l = links(second.res);
    expect(Object.keys(l).sort()).toEqual(["first", "next", "prev"]);
    expect(l.first?.searchParams.get("page")).toBe("1");
    expect(l.next?.searchParams.get("after")).toBe(second.body.pagination.nextCursor);
    const back = await listPage(a.apiKey, `${l.prev?.pathname.replace("/api/v1", "")}${l.prev?.search}`);
    expect(back.ids).toEqual(ids.slice(0, 5));
    expect(back.body.pagination.prevCursor).toBeNull();
    expect(Object.keys(links(back.res)).sort()).toEqual(["first", "next"]);
    const last = await listPage(a.apiKey, `/bookings?limit=5&after=${second.body.pagination.nextCursor}`);
    expect(last.ids).toEqual(ids.slice(10));
    expect(last.body.pagination).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it("a cursor page does not shift when newer rows arrive; page numbers do", async () => {
    const a = await createAccount();
    const ids = await seedCustomers(a.businessId, 10);
    const first = await listPage(a.apiKey, "/customers?limit=4");
    const cursor = first.body.pagination.nextCursor;
    await seedCustomers(a.businessId, 3, "Later");
    // Newer customers are listed first: the second page by number now starts elsewhere.
    const byCursor = await listPage(a.apiKey, `/customers?limit=4&after=${cursor}`);
    expect(byCursor.ids).toEqual(ids.slice(4, 8));
    expect(byCursor.body.pagination.total).toBe(13);
    expect((await listPage(a.apiKey, "/customers?limit=4&page=2")).ids).not.toEqual(ids.slice(4, 8));
    expect(await walkAfter(a.apiKey, "/customers?search=customer", 3)).toEqual(ids);
  });

  it("a page by number carries the cursors that continue from it", async () => {
    const a = await createAccount();
    const ids = await seedCustomers(a.businessId, 9);
    const p2 = await listPage(a.apiKey, "/customers?limit=3&page=2");
    expect(p2.body.pagination).toMatchObject({ page: 2, hasMore: true });
    expect((await listPage(a.apiKey, `/customers?limit=3&after=${p2.body.pagination.nextCursor}`)).ids).toEqual(
      ids.slice(6, 9),
    );
    expect((await listPage(a.apiKey, `/customers?limit=3&before=${p2.body.pagination.prevCursor}`)).ids).toEqual(
      ids.slice(0, 3),
    );
  });

  it("the provider's bookings list takes the same cursors", async () => {
    const a = await bookingsAccount();
    const provider = await createProvider(a.apiKey);
    const t0 = Date.parse("2026-12-01T09:00:00Z");
    for (let i = 0; i < 5; i++) {
      await insertBooking(a.businessId, {
        ...a.base,
        providerId: provider.id,
        startTime: new Date(t0 + i * 3_600_000).toISOString(),
      });
    }
    expect(await walkAfter(a.apiKey, `/providers/${provider.id}/bookings`, 2)).toHaveLength(5);
  });
});

describe("errors", () => {
  const tampered = [
    ["not base64url", "%%%"],
    ["base64 of no JSON", btoa("hello").replaceAll("=", "")],
    ["a key of the wrong shape", btoa(JSON.stringify(["2026-12-01T09:00:00.000Z"])).replaceAll("=", "")],
    ["a key whose start is no instant", btoa(JSON.stringify(["yesterday", "bkg_1"])).replaceAll("=", "")],
    ["a number instead of strings", btoa(JSON.stringify([1, 2])).replaceAll("=", "")],
    ["too long", "A".repeat(300)],
  ];
  it.each(tampered)("a cursor that is %s is a 422 on after, never a 500", async (_, cursor) => {
    const a = await createAccount();
    for (const path of ["/bookings", "/customers"]) {
      for (const name of ["after", "before"]) {
        const res = await api("GET", `${path}?${name}=${encodeURIComponent(cursor as string)}`, { key: a.apiKey });
        await validationError(res, name);
      }
    }
  });

  it("after with before, or with a page other than 1, is a 422", async () => {
    const a = await createAccount();
    await seedCustomers(a.businessId, 3);
    const cursor = (await listPage(a.apiKey, "/customers?limit=1")).body.pagination.nextCursor;
    await validationError(await api("GET", `/customers?after=${cursor}&before=${cursor}`, { key: a.apiKey }), "before");
    await validationError(await api("GET", `/customers?after=${cursor}&page=2`, { key: a.apiKey }), "page");
  });

  it("the OpenAPI document describes after and before, after with an example cursor", async () => {
    const doc = await json(await api("GET", "/openapi.json"));
    for (const path of ["/bookings", "/customers", "/providers/{id}/bookings"]) {
      const params = doc.paths[path].get.parameters as { name: string; description?: string; example?: string }[];
      for (const name of ["after", "before"]) {
        const param = params.find((p) => p.name === name);
        expect(param?.description, `${path} ${name}`).toBeTruthy();
        const example = param?.example ?? (param as { schema?: { example?: string } })?.schema?.example;
        // `before` shows no example: the document's examples are sent together, and both is a 422.
        if (name === "after") expect(example, path).toBeTruthy();
      }
    }
    const pagination = doc.components.schemas.CursorPagination;
    expect(pagination.properties.nextCursor).toBeTruthy();
    expect(pagination.properties.page.type).toEqual(["integer", "null"]);
  });
});

describe("security", () => {
  it("another business's cursor reads only the caller's rows", async () => {
    const mine = await createAccount("Mine");
    const theirs = await createAccount("Theirs");
    const myIds = await seedCustomers(mine.businessId, 4, "Mine");
    await seedCustomers(theirs.businessId, 4, "Theirs");
    const theirCursor = (await listPage(theirs.apiKey, "/customers?limit=1")).body.pagination.nextCursor;
    const seen = await listPage(mine.apiKey, `/customers?limit=10&after=${theirCursor}`);
    expect(seen.ids.every((id) => myIds.includes(id))).toBe(true);
  });
});
