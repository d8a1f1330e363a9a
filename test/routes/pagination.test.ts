/** Page and limit, the list envelope and the RFC 8288 Link header, shown on GET /customers. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, createAccount, json, validationError } from "../support/api";
import { links, seedCustomers } from "../support/lists";

async function page(key: string, query: string) {
  const res = await api("GET", `/customers${query}`, { key });
  expect(res.status).toBe(200);
  const body = await json(res);
  return { res, body, ids: body.data.map((c: { id: string }) => c.id) as string[] };
}

describe("happy", () => {
  it("defaults to page 1 with 20 items", async () => {
    const account = await createAccount();
    const ids = await seedCustomers(account.businessId, 25);
    const { body } = await page(account.apiKey, "");
    expect(body.data).toHaveLength(20);
    expect(body.data.map((c: { id: string }) => c.id)).toEqual(ids.slice(0, 20));
    expect(body.pagination).toMatchObject({ page: 1, limit: 20, total: 25, totalPages: 2, hasMore: true });
  });

  it("accepts limit=100 and limit=1", async () => {
    const account = await createAccount();
    const ids = await seedCustomers(account.businessId, 25);
    const all = await page(account.apiKey, "?limit=100");
    expect(all.ids).toEqual(ids);
    expect(all.body.pagination).toMatchObject({ page: 1, limit: 100, total: 25, totalPages: 1, hasMore: false });
    const one = await page(account.apiKey, "?limit=1&page=25");
    expect(one.ids).toEqual([ids[24]]);
    expect(one.body.pagination).toMatchObject({ page: 25, limit: 1, total: 25, totalPages: 25, hasMore: false });
  });

  it("walks every item exactly once, the last page partial", async () => {
    const account = await createAccount();
    const ids = await seedCustomers(account.businessId, 25);
    const p1 = await page(account.apiKey, "?limit=10&page=1");
    const p2 = await page(account.apiKey, "?limit=10&page=2");
    const p3 = await page(account.apiKey, "?limit=10&page=3");
    expect([...p1.ids, ...p2.ids, ...p3.ids]).toEqual(ids);
    expect(p2.body.pagination).toMatchObject({ page: 2, limit: 10, total: 25, totalPages: 3, hasMore: true });
    expect(p3.ids).toHaveLength(5);
    expect(p3.body.pagination).toMatchObject({ page: 3, limit: 10, total: 25, totalPages: 3, hasMore: false });
  });

  it("a page past the end is an empty 200 with the true total", async () => {
    const account = await createAccount();
    await seedCustomers(account.businessId, 25);
    const { body } = await page(account.apiKey, "?limit=10&page=7");
    expect(body).toMatchObject({
      data: [],
      pagination: { page: 7, limit: 10, total: 25, totalPages: 3, hasMore: false },
    });
  });

  it("an empty list is one empty page", async () => {
    const account = await createAccount();
    const { res, body } = await page(account.apiKey, "");
    expect(body).toMatchObject({
      data: [],
      pagination: { page: 1, limit: 20, total: 0, totalPages: 1, hasMore: false },
    });
    const l = links(res);
    expect(Object.keys(l).sort()).toEqual(["first", "last"]);
  });

  it("Link has first, prev, next and last with the right pages, keeping other parameters", async () => {
    const account = await createAccount();
    await seedCustomers(account.businessId, 25, "Match Me");
    await seedCustomers(account.businessId, 5, "Other");
    const { res, body } = await page(account.apiKey, "?search=match&limit=10&page=2");
    expect(body.pagination).toMatchObject({ page: 2, limit: 10, total: 25, totalPages: 3, hasMore: true });
    const l = links(res);
    expect(Object.keys(l).sort()).toEqual(["first", "last", "next", "prev"]);
    for (const [rel, expected] of [
      ["first", "1"],
      ["prev", "1"],
      ["next", "3"],
      ["last", "3"],
    ] as const) {
      const url = l[rel] as URL;
      expect(url.pathname, rel).toBe("/api/v1/customers");
      expect(url.searchParams.get("page"), rel).toBe(expected);
      expect(url.searchParams.get("limit"), rel).toBe("10");
      expect(url.searchParams.get("search"), rel).toBe("match");
    }
    // Following `next` gives the next page of the same search.
    const next = await api("GET", (l.next as URL).href, { key: account.apiKey });
    const nextBody = await json(next);
    expect(nextBody.pagination).toMatchObject({ page: 3, total: 25, hasMore: false });
    expect(nextBody.data.every((c: { name: string }) => c.name.startsWith("Match Me"))).toBe(true);
  });

  it("Link leaves out prev on the first page and next on the last", async () => {
    const account = await createAccount();
    await seedCustomers(account.businessId, 25);
    const first = links((await page(account.apiKey, "?limit=10")).res);
    expect(Object.keys(first).sort()).toEqual(["first", "last", "next"]);
    expect(first.next?.searchParams.get("page")).toBe("2");
    const last = links((await page(account.apiKey, "?limit=10&page=3")).res);
    expect(Object.keys(last).sort()).toEqual(["first", "last", "prev"]);
    expect(last.prev?.searchParams.get("page")).toBe("2");
  });

  it("past the end, prev points at the last real page", async () => {
    const account = await createAccount();
    await seedCustomers(account.businessId, 25);
    const l = links((await page(account.apiKey, "?limit=10&page=9")).res);
    expect(Object.keys(l).sort()).toEqual(["first", "last", "prev"]);
    expect(l.prev?.searchParams.get("page")).toBe("3");
    expect(l.last?.searchParams.get("page")).toBe("3");
  });

  it("the same envelope and Link header come with services and bookings", async () => {
    const account = await createAccount();
    for (const path of ["/services?limit=5", "/bookings?limit=5"]) {
      const res = await api("GET", path, { key: account.apiKey });
      expect(res.status).toBe(200);
      // The bookings list adds its cursors (test/lists/cursors.test.ts).
      expect(await json(res)).toMatchObject({
        data: [],
        pagination: { page: 1, limit: 5, total: 0, totalPages: 1, hasMore: false },
      });
      expect(links(res).first?.searchParams.get("limit")).toBe("5");
    }
  });
});

describe("errors", () => {
  it.each([
    ["limit=101", "limit"],
    ["limit=0", "limit"],
    ["limit=-5", "limit"],
    ["limit=", "limit"],
    ["limit=ten", "limit"],
    ["page=0", "page"],
    ["page=-1", "page"],
    ["page=1.5", "page"],
    ["page=abc", "page"],
    ["page=1&page=2", "page"],
  ])("?%s is 422 naming the parameter", async (query, path) => {
    const account = await createAccount();
    await seedCustomers(account.businessId, 3);
    await validationError(await api("GET", `/customers?${query}`, { key: account.apiKey }), path);
  });

  it("an unknown query parameter is 422 and named", async () => {
    const account = await createAccount();
    const res = await api("GET", "/customers?pageSize=5", { key: account.apiKey });
    const entry = await validationError(res, "pageSize");
    expect(entry.message).toContain("pageSize");
  });

  it.each(["/services", "/bookings"])("%s validates page and limit the same way", async (path) => {
    const account = await createAccount();
    await validationError(await api("GET", `${path}?limit=101`, { key: account.apiKey }), "limit");
    await validationError(await api("GET", `${path}?page=0`, { key: account.apiKey }), "page");
    await validationError(await api("GET", `${path}?sort=name`, { key: account.apiKey }), "sort");
  });
});

describe("security", () => {
  it("totals and pages count only the caller's own rows", async () => {
    const mine = await createAccount("Mine");
    const theirs = await createAccount("Theirs");
    const ids = await seedCustomers(mine.businessId, 3);
    await seedCustomers(theirs.businessId, 30, "Theirs");
    const { body } = await page(mine.apiKey, "?limit=2&page=2");
    expect(body.pagination).toMatchObject({ page: 2, limit: 2, total: 3, totalPages: 2, hasMore: false });
    expect(body.data.map((c: { id: string }) => c.id)).toEqual([ids[2]]);
  });
});

describe("deep pages: a page skips at most 10,000 items", () => {
  const lists = (webhookId: string) => [
    "/bookings",
    "/services",
    "/customers",
    "/webhooks",
    `/webhooks/${webhookId}/deliveries`,
  ];

  it("every list serves page 101 at limit 100 and page 501 at limit 20, and refuses one page deeper", async () => {
    const { apiKey } = await createAccount();
    const hook = await api("POST", "/webhooks", {
      key: apiKey,
      body: { url: "https://hooks.example/deep", events: ["booking.created"] },
    });
    const webhookId = (await json(hook)).id;
    for (const path of lists(webhookId)) {
      for (const [deepest, limit] of [
        [101, 100],
        [501, 20],
        [10_001, 1],
      ] as const) {
        const ok = await api("GET", `${path}?page=${deepest}&limit=${limit}`, { key: apiKey });
        expect(ok.status, `${path} page ${deepest}`).toBe(200);
        expect((await json(ok)).data).toEqual([]);

        const res = await api("GET", `${path}?page=${deepest + 1}&limit=${limit}`, { key: apiKey });
        const entry = await validationError(res, "page");
        expect(entry.message, path).toContain(`at most ${deepest}`);
      }
    }
  });

  it("the detail explains the bound; on bookings it points to from/to", async () => {
    const { apiKey } = await createAccount();
    const res = await api("GET", "/bookings?page=102&limit=100", { key: apiKey });
    const body = await json(res);
    expect(body.detail).toContain("at most 10000 items");
    expect(body.detail).toContain("from and to");
  });

  it("Link next and last stop at the deepest page while total stays true", async () => {
    const account = await createAccount();
    // 10,003 customers in one statement: at limit 1 the deepest page is 10,001.
    await env.DB_0.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10003)
       INSERT INTO customers (id, business_id, name, email, email_normalized, name_normalized, created_at, updated_at)
       SELECT printf('cus_deep%06d', i), ?1, 'Deep ' || i, 'deep' || i || '@example.com', 'deep' || i || '@example.com',
              'deep ' || i, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM n`,
    )
      .bind(account.businessId)
      .run();
    const first = await page(account.apiKey, "?limit=1");
    expect(first.body.pagination).toMatchObject({ total: 10_003, totalPages: 10_003, hasMore: true });
    expect(links(first.res).last?.searchParams.get("page")).toBe("10001");

    const deepest = await page(account.apiKey, "?limit=1&page=10001");
    expect(deepest.ids).toHaveLength(1);
    expect(links(deepest.res).next).toBeUndefined();
    expect(links(deepest.res).last?.searchParams.get("page")).toBe("10001");
  });
});
