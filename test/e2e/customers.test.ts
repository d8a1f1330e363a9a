/** Customers: list and search, create, get. */
import { describe, expect, it } from "vitest";
import { api, type Customer, expectProblem, origin, pageOf, parseLinks, raw, unique } from "./support";

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
