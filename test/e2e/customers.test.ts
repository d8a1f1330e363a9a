/** Customers: list and search, create, get. */
import { describe, expect, it } from "vitest";
import {
  api,
  type Booking,
  bookingBody,
  type Customer,
  createBooking,
  createOpenService,
  expectProblem,
  origin,
  pageOf,
  parseLinks,
  raw,
  unique,
  utcAt,
} from "./support";

describe("GET /customers", () => {
  it("lists the seeded customers with pagination and Link", async () => {
    const { data, response } = await api.GET("/customers", { params: { query: { limit: 100 } } });
    expect(response.status).toBe(200);
    const emails = data?.data.map((c) => c.email) ?? [];
    expect(emails).toEqual(expect.arrayContaining(["ada@example.com", "grace@example.com", "alan@example.com"]));
    expect(data?.pagination.total).toBeGreaterThanOrEqual(data?.data.length ?? 0);
    const links = parseLinks(response.headers.get("link"));
    expect(pageOf(links.first)).toEqual({ page: 1, limit: 100 });
    expect(pageOf(links.last)).toEqual({ page: data?.pagination.totalPages, limit: 100 });
  });

  it("pages: page 2 of limit 1 has prev and next links", async () => {
    const { data, response } = await api.GET("/customers", { params: { query: { page: 2, limit: 1 } } });
    expect(response.status).toBe(200);
    expect(data?.data).toHaveLength(1);
    expect(data?.pagination).toMatchObject({ page: 2, limit: 1, hasMore: true });
    const links = parseLinks(response.headers.get("link"));
    expect(pageOf(links.prev)).toEqual({ page: 1, limit: 1 });
    expect(pageOf(links.next)).toEqual({ page: 3, limit: 1 });
    expect(pageOf(links.last).page).toBe(data?.pagination.totalPages);
  });

  it("answers a page past the end with an empty page", async () => {
    const { data, response } = await api.GET("/customers", { params: { query: { page: 101, limit: 100 } } });
    expect(response.status).toBe(200);
    expect(data?.data).toEqual([]);
    expect(data?.pagination.hasMore).toBe(false);
  });

  it("searches name and e-mail case-insensitively, keeping the search in the links", async () => {
    const { data, response } = await api.GET("/customers", { params: { query: { search: "LOVELACE" } } });
    expect(response.status).toBe(200);
    expect(data?.data.map((c) => c.email)).toEqual(["ada@example.com"]);
    const byEmail = await api.GET("/customers", { params: { query: { search: "GRACE@EXAMPLE" } } });
    expect(byEmail.data?.data.map((c) => c.name)).toEqual(["Grace Hopper"]);
    expect(new URL(parseLinks(response.headers.get("link")).first ?? "", origin).searchParams.get("search")).toBe(
      "LOVELACE",
    );
  });

  it("walks a search's matches by cursor, newest first, each once", async () => {
    const tag = unique("cursorwalk");
    const made: string[] = [];
    for (const n of [1, 2, 3]) {
      const { data } = await api.POST("/customers", {
        body: { name: `${tag} ${n}`, email: `${tag}-${n}@example.com` },
      });
      made.push(data?.id ?? "");
    }
    const seen: string[] = [];
    let after: string | undefined;
    do {
      const { data, response } = await api.GET("/customers", { params: { query: { search: tag, limit: 1, after } } });
      expect(response.status).toBe(200);
      expect(data?.pagination.total).toBe(3);
      seen.push(...(data?.data.map((c) => c.id) ?? []));
      after = data?.pagination.nextCursor ?? undefined;
    } while (after);
    expect(seen).toEqual([...made].reverse());
  });

  it("treats % and _ literally", async () => {
    const percent = await api.GET("/customers", { params: { query: { search: "%" } } });
    expect(percent.data?.data).toEqual([]);
    const underscore = await api.GET("/customers", { params: { query: { search: "a_a" } } });
    expect(underscore.data?.data).toEqual([]);
  });

  it("answers 422 for limit 0", async () => {
    const { error, response } = await api.GET("/customers", { params: { query: { limit: 0 } } });
    const problem = expectProblem(response, error, 422, "validation_failed", "/api/v1/customers");
    expect(problem.errors?.map((e) => e.path)).toContain("limit");
  });

  it("answers 422 for a non-numeric page", async () => {
    const response = await raw("GET", "/customers", { query: "page=two" });
    expectProblem(response, await response.json(), 422, "validation_failed");
  });
});

describe("POST /customers", () => {
  it("creates a customer: 201, Location, and it can be read back", async () => {
    const email = `${unique("marie")}@Example.com`;
    const { data, response } = await api.POST("/customers", {
      body: { name: "Marie Curie", email, phone: "+33 1 23 45 67 89" },
    });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ name: "Marie Curie", email, phone: "+33 1 23 45 67 89" });
    expect(data?.id).toMatch(/^cus_/);
    expect(response.headers.get("location")).toBe(`/api/v1/customers/${data?.id}`);
    const located = await raw("GET", "/customers/{id}", { params: { id: data?.id ?? "" } });
    expect(located.url).toBe(new URL(response.headers.get("location") ?? "", origin).href);
    expect(await located.json()).toEqual(data);
  });

  it("answers 409 for an e-mail that exists, compared case-insensitively", async () => {
    const { error, response } = await api.POST("/customers", { body: { name: "Ada Again", email: "ADA@example.com" } });
    expectProblem(response, error, 409, "customer_exists", "/api/v1/customers");
  });

  it("answers 422 for an invalid e-mail and phone", async () => {
    const { error, response } = await api.POST("/customers", {
      body: { name: "Nobody", email: "not-an-email", phone: "call me" },
    });
    const problem = expectProblem(response, error, 422, "validation_failed");
    expect(problem.errors?.map((e) => e.path).sort()).toEqual(["email", "phone"]);
  });
});

describe("GET /customers/{id}", () => {
  it("returns a seeded customer", async () => {
    const list = await api.GET("/customers", { params: { query: { search: "alan@example.com" } } });
    const alan = list.data?.data[0] as Customer;
    const { data, response } = await api.GET("/customers/{id}", { params: { path: { id: alan.id } } });
    expect(response.status).toBe(200);
    expect(data).toEqual(alan);
    expect(data).toMatchObject({ name: "Alan Turing", phone: null });
  });

  it("answers 404 for an unknown id", async () => {
    const { error, response } = await api.GET("/customers/{id}", {
      params: { path: { id: "cus_00000000000000000000000000" } },
    });
    expectProblem(response, error, 404, "not_found", "/api/v1/customers/cus_00000000000000000000000000");
  });

  it("answers 422 for an id longer than 64 characters", async () => {
    const { error, response } = await api.GET("/customers/{id}", { params: { path: { id: "c".repeat(65) } } });
    expectProblem(response, error, 422, "validation_failed");
  });
});

describe("PATCH /customers/{id}", () => {
  it("changes the details; the customer's bookings show them; a stale If-Match is 412", async () => {
    const service = await createOpenService();
    const booking = await createBooking(bookingBody(service, utcAt(3, 9)));
    const read = await api.GET("/customers/{id}", { params: { path: { id: booking.customerId } } });
    const etag = read.response.headers.get("etag") ?? "";
    const email = `${unique("renamed")}@Example.com`;
    const { data, response } = await api.PATCH("/customers/{id}", {
      params: { path: { id: booking.customerId }, header: { "if-match": etag } },
      body: { name: "Edsger W. Dijkstra", email, phone: "+31 20 555 0100" },
    });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ id: booking.customerId, name: "Edsger W. Dijkstra", email, phone: "+31 20 555 0100" });
    expect(response.headers.get("etag")).not.toBe(etag);
    const after = await api.GET("/bookings/{id}", { params: { path: { id: booking.id } } });
    expect(after.data).toMatchObject({ customerName: "Edsger W. Dijkstra", customerEmail: email });
    const stale = await api.PATCH("/customers/{id}", {
      params: { path: { id: booking.customerId }, header: { "if-match": etag } },
      body: { phone: null },
    });
    expectProblem(stale.response, stale.error, 412, "precondition_failed");
  });

  it("answers 409 customer_exists for another customer's e-mail in any case", async () => {
    const created = await api.POST("/customers", {
      body: { name: "Barbara Liskov", email: `${unique("barbara")}@example.com` },
    });
    const { error, response } = await api.PATCH("/customers/{id}", {
      params: { path: { id: created.data?.id ?? "" } },
      body: { email: "ADA@Example.com" },
    });
    expectProblem(response, error, 409, "customer_exists", `/api/v1/customers/${created.data?.id}`);
  });

  it("answers 422 for an empty body and for an unknown field, 404 for an unknown id", async () => {
    const created = await api.POST("/customers", {
      body: { name: "Frances Allen", email: `${unique("frances")}@example.com` },
    });
    const id = created.data?.id ?? "";
    const empty = await api.PATCH("/customers/{id}", { params: { path: { id } }, body: {} });
    expectProblem(empty.response, empty.error, 422, "validation_failed");
    const unknown = await raw("PATCH", "/customers/{id}", {
      params: { id },
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Fran", vip: true }),
    });
    const problem = expectProblem(unknown, await unknown.json(), 422, "validation_failed");
    expect(problem.errors?.map((e) => e.path)).toEqual(["vip"]);
    const missing = await api.PATCH("/customers/{id}", {
      params: { path: { id: "cus_00000000000000000000000000" } },
      body: { name: "Nobody" },
    });
    expectProblem(missing.response, missing.error, 404, "not_found");
  });
});

describe("DELETE /customers/{id}", () => {
  it("erases the person: 204, gone from reads and search, bookings kept with placeholders, replay scrubbed", async () => {
    const service = await createOpenService();
    const email = `${unique("erase")}@example.com`;
    const body = bookingBody(service, utcAt(3, 11), {
      customerName: "Hedy Lamarr",
      customerEmail: email,
      customerPhone: "+1 555 0111",
      notes: "Prefers the quiet room",
    });
    const key = unique("erase-key");
    const first = await api.POST("/bookings", { body, params: { header: { "idempotency-key": key } } });
    expect(first.response.status).toBe(201);
    const booking = first.data as Booking;

    const { response } = await api.DELETE("/customers/{id}", { params: { path: { id: booking.customerId } } });
    expect(response.status).toBe(204);

    const gone = await api.GET("/customers/{id}", { params: { path: { id: booking.customerId } } });
    expectProblem(gone.response, gone.error, 404, "not_found");
    const search = await api.GET("/customers", { params: { query: { search: email } } });
    expect(search.data?.data).toEqual([]);
    const kept = await api.GET("/bookings/{id}", { params: { path: { id: booking.id } } });
    expect(kept.data).toMatchObject({
      id: booking.id,
      startTime: booking.startTime,
      status: booking.status,
      customerName: "Erased customer",
      customerEmail: `erased-${booking.customerId}@invalid`,
      customerPhone: null,
      notes: null,
    });
    const replay = await api.POST("/bookings", { body, params: { header: { "idempotency-key": key } } });
    expect(replay.response.headers.get("idempotent-replayed")).toBe("true");
    expect(JSON.stringify(replay.data)).not.toMatch(/Hedy|Lamarr|quiet room|0111/);
    expect(replay.data?.customerEmail).not.toBe(email);

    const again = await api.DELETE("/customers/{id}", { params: { path: { id: booking.customerId } } });
    expect(again.response.status).toBe(204);
  });

  it("answers 404 for an unknown id", async () => {
    const { error, response } = await api.DELETE("/customers/{id}", {
      params: { path: { id: "cus_00000000000000000000000000" } },
    });
    expectProblem(response, error, 404, "not_found", "/api/v1/customers/cus_00000000000000000000000000");
  });
});
