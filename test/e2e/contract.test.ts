/** The contract checker itself, against a small fake document and fake responses (no server). */
import createClient from "openapi-fetch";
import { describe, expect, it } from "vitest";
import { ContractViolation, contractMiddleware, createContractChecker, type OpenApiDocument } from "./contract";

const problem = { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } };

const fakeDocument: OpenApiDocument = {
  openapi: "3.1.0",
  info: { title: "Fake", version: "1" },
  paths: {
    "/things/{id}": {
      get: {
        operationId: "getThing",
        responses: {
          200: {
            description: "A thing.",
            headers: { ETag: { required: true, schema: { type: "string" } } },
            content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
          },
          404: { description: "No thing.", content: problem },
        },
      },
      delete: {
        operationId: "deleteThing",
        responses: { 204: { description: "Gone." }, "4XX": { description: "No.", content: problem } },
      },
    },
    "/page": {
      get: {
        operationId: "page",
        responses: {
          200: { description: "HTML.", content: { "text/html": { schema: { type: "string", minLength: 5 } } } },
        },
      },
    },
    "/stamped": {
      get: {
        operationId: "stamped",
        responses: {
          200: {
            description: "Headers by reference.",
            headers: {
              "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" },
              "Retry-After": { required: false, schema: { type: "integer", minimum: 0 } },
            },
          },
        },
      },
    },
    "/things/special": {
      get: {
        operationId: "special",
        responses: { default: { description: "Anything JSON.", content: { "application/json": {} } } },
      },
    },
  },
  components: {
    headers: {
      "X-Request-Id": { required: true, schema: { type: "string", pattern: "^[A-Za-z0-9_=-]{1,128}$" } },
    },
    schemas: {
      Thing: {
        type: "object",
        properties: {
          id: { type: "string", example: "thg_1" },
          createdAt: { type: "string", format: "date-time" },
          size: { $ref: "#/components/schemas/Size" },
          note: { type: ["string", "null"] },
        },
        required: ["id", "createdAt", "size", "note"],
      },
      Size: { type: "string", enum: ["S", "M", "L"] },
      Problem: {
        type: "object",
        properties: { status: { type: "integer" }, code: { type: "string" } },
        required: ["status", "code"],
      },
    },
  },
};

const checker = createContractChecker(fakeDocument);
const json = { "Content-Type": "application/json; charset=UTF-8", ETag: '"v1"' };
const goodThing = { id: "thg_1", createdAt: "2026-12-01T10:00:00.000Z", size: "M", note: null };
const observed = (status: number, body: unknown, headers: Record<string, string> = json) => ({
  method: "GET",
  path: "/things/{id}",
  status,
  headers,
  body: typeof body === "string" ? body : JSON.stringify(body),
});

describe("contract checker", () => {
  it("accepts a documented response whose body matches the schema (refs resolved)", () => {
    expect(checker.violations(observed(200, goodThing))).toEqual([]);
  });

  it("rejects a status the operation does not document", () => {
    const found = checker.violations(observed(422, { status: 422, code: "validation_failed" }));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/response not described by the document/);
    expect(() => checker.assertConforms(observed(500, {}))).toThrow(ContractViolation);
  });

  it("rejects an operation or path the document does not have", () => {
    expect(checker.violations({ ...observed(200, goodThing), method: "PUT" })[0]).toMatch(
      /operation not in the document/,
    );
    expect(checker.violations({ ...observed(200, goodThing), path: "/other" })[0]).toMatch(
      /operation not in the document/,
    );
  });

  it("rejects a media type other than the documented one", () => {
    const asProblem = observed(200, goodThing, { ...json, "Content-Type": "application/problem+json" });
    expect(checker.violations(asProblem)[0]).toMatch(
      /content type application\/problem\+json is not the documented application\/json/,
    );
    const plainError = observed(404, { status: 404, code: "not_found" });
    expect(checker.violations(plainError)[0]).toMatch(/is not the documented application\/problem\+json/);
    expect(
      checker.violations(
        observed(404, { status: 404, code: "not_found" }, { "Content-Type": "application/problem+json" }),
      ),
    ).toEqual([]);
  });

  it("rejects a body that does not match: missing field, wrong enum, bad date-time, wrong type", () => {
    const { note: _note, ...withoutNote } = goodThing;
    expect(checker.violations(observed(200, withoutNote))[0]).toMatch(/must have required property 'note'/);
    expect(checker.violations(observed(200, { ...goodThing, size: "XL" }))[0]).toMatch(
      /\/size must be equal to one of the allowed values/,
    );
    expect(checker.violations(observed(200, { ...goodThing, createdAt: "yesterday" }))[0]).toMatch(
      /\/createdAt must match format "date-time"/,
    );
    expect(checker.violations(observed(200, { ...goodThing, note: 3 }))[0]).toMatch(/\/note must be string,null/);
  });

  it("rejects a body that is not JSON", () => {
    expect(checker.violations(observed(200, "<html>oops</html>"))[0]).toMatch(/body is not JSON/);
  });

  it("requires documented required headers", () => {
    expect(checker.violations(observed(200, goodThing, { "Content-Type": "application/json" }))[0]).toMatch(
      /required header ETag is missing/,
    );
  });

  it("rejects one of the API's own headers sent where the response does not declare it, in any case", () => {
    const problemHeaders = { "Content-Type": "application/problem+json", "Cache-Control": "no-store" };
    const notFound = (headers: Record<string, string>) =>
      checker.violations(observed(404, { status: 404, code: "not_found" }, { ...problemHeaders, ...headers }));
    expect(notFound({})).toEqual([]);
    expect(notFound({ "retry-after": "5" })).toEqual([
      expect.stringMatching(/header retry-after is sent but not declared for this response/),
    ]);
    expect(notFound({ RateLimit: '"reads";r=0;t=1' })[0]).toMatch(/header ratelimit is sent but not declared/);
    // A header declared only in components/headers counts as one of the API's own.
    expect(notFound({ "X-Request-Id": "r1" })[0]).toMatch(/header x-request-id is sent but not declared/);
  });

  it("checks declared header values against their schemas, through components/headers references", () => {
    const stamped = (headers: Record<string, string>) =>
      checker.violations({ method: "GET", path: "/stamped", status: 200, headers, body: "" });
    expect(stamped({ "X-Request-Id": "req-1" })).toEqual([]);
    expect(stamped({ "X-Request-Id": "req-1", "Retry-After": "3" })).toEqual([]);
    expect(stamped({})[0]).toMatch(/required header X-Request-Id is missing/);
    expect(stamped({ "X-Request-Id": "not valid!" })[0]).toMatch(/header X-Request-Id: "not valid!" does not match/);
    expect(stamped({ "X-Request-Id": "req-1", "Retry-After": "soon" })[0]).toMatch(/header Retry-After: "soon"/);
    expect(stamped({ "X-Request-Id": "req-1", "Retry-After": "-1" })[0]).toMatch(/must be >= 0/);
  });

  it("falls back to 4XX and default responses, and checks bodiless responses", () => {
    const del = { method: "DELETE", path: "/things/{id}", headers: {}, body: "" };
    expect(checker.violations({ ...del, status: 204 })).toEqual([]);
    expect(checker.violations({ ...del, status: 204, body: "{}" })[0]).toMatch(/describes no body/);
    expect(
      checker.violations({
        ...del,
        status: 409,
        headers: { "Content-Type": "application/problem+json" },
        body: '{"status":409,"code":"x"}',
      }),
    ).toEqual([]);
    expect(checker.violations({ ...del, status: 500 })[0]).toMatch(/response not described/);
    const teapot = observed(418, { any: "thing" }, { "Content-Type": "application/json" });
    expect(checker.violations({ ...teapot, path: "/things/special" })).toEqual([]);
  });

  it("checks a non-JSON media type and validates its text", () => {
    const page = { method: "GET", path: "/page", status: 200, headers: { "Content-Type": "text/html; charset=UTF-8" } };
    expect(checker.violations({ ...page, body: "<html></html>" })).toEqual([]);
    expect(checker.violations({ ...page, body: "<p>" })[0]).toMatch(/must NOT have fewer than 5 characters/);
    expect(checker.violations({ ...page, headers: json, body: "{}" })[0]).toMatch(/is not the documented text\/html/);
  });

  it("matches concrete paths to templates, literal segments first", () => {
    expect(checker.templateOf("/things/thg_1")).toBe("/things/{id}");
    expect(checker.templateOf("/things/special")).toBe("/things/special");
    expect(checker.templateOf("/things/thg_1?x=1")).toBe("/things/{id}");
    expect(checker.templateOf("/things/a/b")).toBeUndefined();
    expect(checker.violations({ ...observed(200, goodThing), path: "/things/thg_1" })).toEqual([]);
  });

  it("lists the document's operations", () => {
    expect(checker.operations().map((o) => `${o.method} ${o.path} ${o.operation.operationId}`)).toEqual([
      "GET /things/{id} getThing",
      "DELETE /things/{id} deleteThing",
      "GET /page page",
      "GET /stamped stamped",
      "GET /things/special special",
    ]);
  });
});

describe("contract middleware on an openapi-fetch client", () => {
  type FakePaths = {
    "/things/{id}": {
      get: {
        parameters: { path: { id: string } };
        responses: { 200: { content: { "application/json": { id: string } } } };
      };
    };
  };
  const clientAnswering = (status: number, body: unknown, headers: Record<string, string> = json) => {
    const seen: string[] = [];
    const client = createClient<FakePaths>({
      baseUrl: "http://fake.invalid",
      fetch: async () => new Response(JSON.stringify(body), { status, headers }),
    });
    client.use(contractMiddleware(checker, (l) => seen.push(l)));
    return { client, seen };
  };

  it("passes documented responses through, body still readable", async () => {
    const { client, seen } = clientAnswering(200, goodThing);
    const { data } = await client.GET("/things/{id}", { params: { path: { id: "thg_1" } } });
    expect(data).toEqual(goodThing);
    expect(seen).toEqual(["GET /things/{id} 200"]);
  });

  it("makes the call fail on an undocumented status", async () => {
    const { client, seen } = clientAnswering(
      422,
      { status: 422, code: "validation_failed" },
      {
        "Content-Type": "application/problem+json",
      },
    );
    await expect(client.GET("/things/{id}", { params: { path: { id: "thg_1" } } })).rejects.toThrow(
      /GET \/things\/\{id\} → 422: response not described by the document/,
    );
    expect(seen).toEqual([]);
  });

  it("makes the call fail on a body that breaks the schema", async () => {
    const { client } = clientAnswering(200, { ...goodThing, size: 3 });
    await expect(client.GET("/things/{id}", { params: { path: { id: "thg_1" } } })).rejects.toThrow(ContractViolation);
  });
});
