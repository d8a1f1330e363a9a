/** The served OpenAPI 3.1.0 document: valid, complete, and true to the app's routes and auth. */
import { Validator } from "@seriousme/openapi-schema-validator";
import schema31 from "@seriousme/openapi-schema-validator/schemas/v3.1/schema.json";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { api, createAccount, json, serviceBody } from "../support/api";

type Operation = {
  operationId?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, unknown> }>;
};
type Document = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes?: Record<string, Record<string, unknown>> };
  security?: Record<string, string[]>[];
};

const methods = ["get", "put", "post", "delete", "patch", "options", "head", "trace"];
const apiBase = "/api/v1";

async function fetchDocument(): Promise<Document> {
  const res = await api("GET", "/openapi.json");
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
  return json(res);
}

/**
 * The package's Validator reads its JSON Schemas with node:fs, which cannot see node_modules
 * inside workerd; the same 3.1 schema is bundled by import here and compiled as the package does.
 */
function openApi31Validator(): Validator {
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  ajv.addFormat("media-range", true);
  const validator = new Validator();
  (validator as unknown as { ajvValidators: Record<string, unknown> }).ajvValidators["3.1"] = ajv.compile(schema31);
  return validator;
}

function operations(doc: Document): { method: string; path: string; op: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => methods.includes(method))
      .map(([method, op]) => ({ method, path, op })),
  );
}

const requiresAuth = (doc: Document, op: Operation) =>
  (op.security ?? doc.security ?? []).some((requirement) => "bearerAuth" in requirement);

/** `METHOD /path` of every route of the Hono app, as the document would spell it. */
function appRoutes(): string[] {
  const routes = app.routes
    .filter((r) => r.method !== "ALL" && r.method !== "HEAD")
    .filter((r) => r.path.startsWith(`${apiBase}/`));
  const paths = routes
    // `:id{.+\.ics}` (a parameter with a file extension, routed by hand) is `{id}.ics` in the document.
    .map((r) => r.path.slice(apiBase.length).replace(/:(\w+)\{\.\+\\\.(\w+)\}/g, "{$1}.$2"))
    .map((path, i) => `${routes[i]?.method.toLowerCase()} ${path.replace(/:(\w+)/g, "{$1}")}`);
  return [...new Set(paths)].sort();
}

describe("happy", () => {
  it("is a valid OpenAPI 3.1.0 document", async () => {
    const doc = await fetchDocument();
    expect(doc.openapi).toBe("3.1.0");
    const validator = openApi31Validator();
    const result = await validator.validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("the validator does catch a broken document", async () => {
    const doc = await fetchDocument();
    const validator = openApi31Validator();
    const { info: _info, ...withoutInfo } = doc as unknown as Record<string, unknown>;
    expect((await validator.validate(withoutInfo)).valid).toBe(false);
    const badRef = {
      ...doc,
      paths: { "/x": { get: { responses: { 200: { $ref: "#/components/responses/Nope" } } } } },
    };
    expect((await validator.validate(badRef)).valid).toBe(false);
  });

  it("declares the bearerAuth security scheme", async () => {
    const doc = await fetchDocument();
    expect(doc.components.securitySchemes?.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("documents every route of the app", async () => {
    const doc = await fetchDocument();
    const documented = new Set(operations(doc).map(({ method, path }) => `${method} ${path}`));
    // The document does not describe itself.
    const undocumented = appRoutes().filter((route) => !documented.has(route) && route !== "get /openapi.json");
    expect(undocumented).toEqual([]);
    expect(appRoutes()).toContain("get /services");
  });

  it("documents no route the app does not serve", async () => {
    const doc = await fetchDocument();
    const served = new Set(appRoutes());
    const phantom = operations(doc)
      .map(({ method, path }) => `${method} ${path}`)
      .filter((route) => !served.has(route));
    expect(phantom).toEqual([]);
  });

  it("gives every operation a unique operationId", async () => {
    const doc = await fetchDocument();
    const ids = operations(doc).map(({ op, method, path }) => op.operationId ?? `<missing on ${method} ${path}>`);
    expect(ids.filter((id) => id.startsWith("<missing"))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("declares 401, 422 and 500 problem responses on every authenticated operation", async () => {
    const doc = await fetchDocument();
    const authenticated = operations(doc).filter(({ op }) => requiresAuth(doc, op));
    expect(authenticated.length).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const { method, path, op } of authenticated) {
      for (const status of ["401", "422", "500"]) {
        if (!op.responses[status]?.content?.["application/problem+json"]) missing.push(`${method} ${path} ${status}`);
      }
    }
    expect(missing).toEqual([]);
  });
  it("documents every providers route under the Providers tag, with examples that are valid as written", async () => {
    const doc = await json(await api("GET", "/openapi.json"));
    expect(doc.tags.map((t: { name: string }) => t.name)).toContain("Providers");
    const operations = [
      ["/providers", "get"],
      ["/providers", "post"],
      ["/providers/{id}", "get"],
      ["/providers/{id}", "patch"],
      ["/providers/{id}/bookings", "get"],
    ];
    for (const [path, method] of operations) {
      expect(doc.paths[path as string]?.[method as string]?.tags, `${method} ${path}`).toEqual(["Providers"]);
    }
    const { apiKey } = await createAccount();
    const created = await api("POST", "/providers", {
      key: apiKey,
      body: doc.components.schemas.CreateProvider.example,
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = await json(created);
    const patched = await api("PATCH", `/providers/${id}`, {
      key: apiKey,
      body: doc.components.schemas.UpdateProvider.example,
    });
    expect(patched.status).toBe(200);
    const providerIds = [id];
    const dateOverrides = doc.components.schemas.Service.properties.dateOverrides.example;
    const service = await api("POST", "/services", { key: apiKey, body: serviceBody({ dateOverrides, providerIds }) });
    expect(service.status, await service.clone().text()).toBe(201);
  });
});

describe("security", () => {
  it("every operation marked with bearerAuth answers 401 without a key, and the others do not", async () => {
    const doc = await fetchDocument();
    const mismatches: string[] = [];
    for (const { method, path, op } of operations(doc)) {
      const concrete = path.replace("{code}", "not_found").replace(/\{\w+\}/g, "x_unknown");
      const res = await api(method.toUpperCase(), concrete);
      await res.body?.cancel();
      const locked = res.status === 401;
      if (locked !== requiresAuth(doc, op)) mismatches.push(`${method} ${path}: ${res.status}`);
    }
    expect(mismatches).toEqual([]);
  });
});
