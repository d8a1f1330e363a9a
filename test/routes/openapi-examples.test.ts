/**
 * The served document's examples are requests the API accepts as written: every operation is sent
 * with its parameter, header and body examples (path ids replaced by resources created here, in a
 * fresh business per operation), must succeed, and its answer must conform to the document —
 * status, media type, body and declared headers (test/e2e/contract.ts, the e2e suite's checker).
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { services } from "../../src/db/schema";
import { examplesAhead } from "../../src/lib/openapi/examples";
import { type ContractChecker, createContractChecker, type OpenApiDocument } from "../e2e/contract";
import { api, createAccount, createCustomer, createService, db, json } from "../support/api";
import { at, bookingBody } from "../support/bookings";
import { eventually } from "../support/eventually";

type Schema = { $ref?: string; example?: unknown; type?: unknown; properties?: Record<string, Schema> } & Record<
  string,
  unknown
>;
type Parameter = { name: string; in: string; example?: unknown; schema?: Schema };
type Operation = {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema; example?: unknown }> };
  security?: Record<string, string[]>[];
};

let document: OpenApiDocument;
let checker: ContractChecker;

beforeAll(async () => {
  const res = await api("GET", "/openapi.json");
  expect(res.status).toBe(200);
  document = await json(res);
  checker = createContractChecker(document);
});

/** Webhook receivers are stood in for: POSTs to hooks.example answer 204. */
afterEach(() => vi.restoreAllMocks());
function acceptWebhooks() {
  const original = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith("https://hooks.example/")) return original(input, init);
    return new Response(null, { status: 204 });
  });
}

function resolve(schema: Schema): Schema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace("#/components/schemas/", "");
  const target = (document.components as { schemas: Record<string, Schema> }).schemas[name];
  if (!target) throw new Error(`unresolvable ${schema.$ref}`);
  return resolve(target);
}

/** A schema's example, also one given beside a reference (`allOf: [{ $ref }, { example }]`). */
function exampleIn(schema: Schema): unknown {
  const resolved = resolve(schema);
  if (resolved.example !== undefined) return resolved.example;
  const parts = (resolved.allOf as Schema[] | undefined) ?? [];
  return parts.map(exampleIn).find((example) => example !== undefined);
}

/** An object built from its properties' examples (nested objects likewise); required ones must have one. */
function composedExample(schema: Schema, where: string): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const resolved = resolve(property);
    const value =
      exampleIn(resolved) ?? (resolved.properties ? composedExample(resolved, `${where}.${name}`) : undefined);
    if (value !== undefined) body[name] = value;
  }
  const missing = ((schema.required as string[] | undefined) ?? []).filter((name) => !(name in body));
  if (missing.length > 0) throw new Error(`${where}: required ${missing.join(", ")} without an example`);
  return body;
}

/** Every example body of an operation: the schema's own example, and the one its properties' examples make. */
function exampleBodies(op: Operation): unknown[] {
  const media = op.requestBody?.content["application/json"];
  if (!media) return [undefined];
  const schema = resolve(media.schema);
  const bodies: unknown[] = [];
  if (media.example !== undefined) bodies.push(media.example);
  if (schema.example !== undefined) bodies.push(schema.example);
  if (schema.properties) bodies.push(composedExample(schema, op.operationId));
  if (bodies.length === 0) throw new Error(`${op.operationId}: the request body has no example`);
  return bodies;
}

const exampleOf = (p: Parameter) => p.example ?? (p.schema ? exampleIn(p.schema) : undefined);

/** Resources of a fresh business that path ids are replaced with. */
type Fixtures = { key: string; ids: Record<string, () => Promise<string>> };

/** The first delivery logged for a webhook (the queue writes it after the booking's answer). */
const deliveryOf = (key: string, webhookId: string): Promise<string> =>
  eventually(async () => {
    const list = await json(await api("GET", `/webhooks/${webhookId}/deliveries`, { key }));
    return list.data[0]?.id as string | undefined;
  }, "a delivery of the webhook");

async function fixtures(): Promise<Fixtures> {
  const { apiKey: key } = await createAccount("Examples");
  let webhookId: string | undefined;
  let lastProvider: string | undefined;
  const webhook = async () => {
    const body = { url: "https://hooks.example/ok", events: ["booking.created"] };
    webhookId ??= (await json(await api("POST", "/webhooks", { key, body }))).id as string;
    return webhookId;
  };
  const booking = async () => {
    const service = await createService(key);
    const res = await api("POST", "/bookings", { key, body: bookingBody(service.id, at(3, "11:00")) });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await json(res)).id as string;
  };
  return {
    key,
    ids: {
      services: async () => (await createService(key)).id,
      customers: async () => (await createCustomer(key)).id,
      bookings: booking,
      providers: async () => {
        const body = { name: "Sam", timezone: "UTC", weeklySchedule: { mon: [{ start: "09:00", end: "17:00" }] } };
        lastProvider = (await json(await api("POST", "/providers", { key, body }))).id as string;
        return lastProvider;
      },
      // A calendar of the provider the path's `{id}` just made (its server resolves nowhere: `failing`).
      calendarId: async () => {
        const body = { url: "https://calendar.example.invalid/dav/cal/" };
        const res = await api("POST", `/providers/${lastProvider}/calendars`, { key, body });
        expect(res.status, await res.clone().text()).toBe(201);
        return (await json(res)).id as string;
      },
      resources: async () => {
        const body = { name: "Room", timezone: "UTC" };
        return (await json(await api("POST", "/resources", { key, body }))).id as string;
      },
      holds: async () => {
        const service = await createService(key);
        const { serviceId, startTime, endTime } = bookingBody(service.id, at(3, "12:00"));
        const res = await api("POST", "/holds", { key, body: { serviceId, startTime, endTime } });
        expect(res.status, await res.clone().text()).toBe(201);
        return (await json(res)).id as string;
      },
      webhooks: webhook,
      // A front-desk member (removing one leaves the business as it was).
      members: async () => {
        const body = { email: `m${crypto.randomUUID().slice(0, 8)}@example.com`, name: "Example", role: "frontdesk" };
        return (await json(await api("POST", "/members", { key, body }))).id as string;
      },
      // Another key of the business (revoking it leaves the fixtures' key live).
      "api-keys": async () => {
        const body = { name: "Revoked by the example", scopes: ["bookings:read"] };
        return (await json(await api("POST", "/api-keys", { key, body }))).id as string;
      },
      appointments: async () => {
        const service = await createService(key);
        const body = { ...bookingBody(service.id, at(3, "13:00")), segments: [{ serviceId: service.id }] };
        const { serviceId: _s, endTime: _e, ...visit } = body;
        const res = await api("POST", "/appointments", { key, body: visit });
        expect(res.status, await res.clone().text()).toBe(201);
        return (await json(res)).id as string;
      },
      series: async () => {
        const service = await createService(key);
        const { serviceId, customerName, customerEmail, startTime, endTime } = bookingBody(service.id, at(20, "14:00"));
        const body = { serviceId, customerName, customerEmail, startTime, endTime, recurrence: "FREQ=DAILY;COUNT=2" };
        const res = await api("POST", "/series", { key, body });
        expect(res.status, await res.clone().text()).toBe(201);
        return (await json(res)).id as string;
      },
      waitlist: async () => {
        const service = await createService(key);
        const body = bookingBody(service.id, at(21, "14:00"));
        expect((await api("POST", "/bookings", { key, body })).status).toBe(201);
        const { serviceId, startTime, endTime, customerName, customerEmail } = body;
        const res = await api("POST", "/waitlist", {
          key,
          body: { serviceId, startTime, endTime, customerName, customerEmail },
        });
        expect(res.status, await res.clone().text()).toBe(201);
        return (await json(res)).id as string;
      },
      // A person's live feed: its address's token.
      token: async () => {
        const body = { name: "Kim", timezone: "UTC", weeklySchedule: { mon: [{ start: "09:00", end: "17:00" }] } };
        const provider = (await json(await api("POST", "/providers", { key, body }))).id as string;
        const { url } = await json(await api("POST", `/providers/${provider}/feed`, { key }));
        return /\/feeds\/(.+)\.ics$/.exec(url)?.[1] ?? "";
      },
      // A booking's manage link: its token.
      manageToken: async () => {
        const id = await booking();
        const { manageUrl } = await json(await api("GET", `/bookings/${id}`, { key }));
        return /\/manage\/([^/]+)$/.exec(manageUrl)?.[1] ?? "";
      },
      // A booking page: this business's, turned on at a fresh slug.
      slug: async () => {
        const slug = `ex-${crypto.randomUUID().slice(0, 8)}`;
        const res = await api("PATCH", "/business", { key, body: { slug, bookingPage: { enabled: true } } });
        expect(res.status, await res.clone().text()).toBe(200);
        return slug;
      },
      // A service the page offers.
      online: async () => (await createService(key, { bookableOnline: true })).id,
      deliveryId: async () => {
        const id = await webhook();
        await booking();
        return deliveryOf(key, id);
      },
    },
  };
}

/**
 * Makes the service id that request examples name a service of this business (Mon–Sun
 * 09:00–17:00 UTC, 30 min), asking the question the example answers name.
 */
async function provideExampleService(key: string, exampleId: string) {
  const service = await createService(key, {
    questions: [{ key: "allergies", label: "Any allergies we should know about?", type: "text" }],
    bookableOnline: true,
  });
  const [taken] = await db().select().from(services).where(eq(services.id, exampleId));
  if (!taken) {
    await db().update(services).set({ id: exampleId }).where(eq(services.id, service.id));
    return;
  }
  // An earlier operation's business has it: it moves to this business (its calendar object is
  // named by business and service, so this business starts with an empty calendar).
  const [mine] = await db().select().from(services).where(eq(services.id, service.id));
  await db()
    .update(services)
    .set({ businessId: (mine as typeof taken).businessId })
    .where(eq(services.id, exampleId));
}

/** The concrete path: `{code}`-like parameters take their example, resource ids a created resource. */
async function concretePath(path: string, op: Operation, fx: Fixtures): Promise<string> {
  let concrete = path;
  for (const param of op.parameters?.filter((p) => p.in === "path") ?? []) {
    const token = path.startsWith("/manage/") ? "manageToken" : "token";
    // A booking page's `{id}` is a service it offers.
    const owner = path.startsWith("/public/") ? "online" : (path.split("/")[1] ?? "");
    const resource = param.name === "id" ? owner : param.name === "token" ? token : param.name;
    const create = fx.ids[resource];
    const value = create ? await create() : exampleOf(param);
    if (value === undefined) throw new Error(`${op.operationId}: no example or fixture for {${param.name}}`);
    concrete = concrete.replace(`{${param.name}}`, encodeURIComponent(String(value)));
  }
  return concrete;
}

/** A page booking's example body with a hold the page really placed (a token books once). */
async function withPageHold(key: string, bookingsPath: string, example: unknown) {
  const service = await createService(key, {
    questions: [{ key: "allergies", label: "Any allergies we should know about?", type: "text" }],
    bookableOnline: true,
  });
  const { serviceId, startTime, endTime } = bookingBody(service.id, at(3, "15:00"));
  const res = await api("POST", bookingsPath.replace(/\/bookings$/, "/holds"), {
    body: { serviceId, startTime, endTime },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const { id, holdToken } = await json(res);
  return { ...(example as object), holdId: id, holdToken };
}

const operations = () =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>)
      .filter(([method]) => ["get", "post", "patch", "put", "delete"].includes(method))
      .map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );

describe("happy", () => {
  it("every operation, sent with the document's own examples, succeeds and answers as documented", async () => {
    acceptWebhooks();
    const sent: string[] = [];
    const failures: string[] = [];
    for (const { method, path, op } of operations()) {
      const fx = await fixtures();
      const query = new URLSearchParams();
      const headers: Record<string, string> = {};
      for (const param of op.parameters ?? []) {
        const example = exampleOf(param);
        if (example === undefined) continue;
        if (param.in === "query") query.set(param.name, String(example));
        if (param.in === "header") headers[param.name] = String(example);
      }
      // A request names the service at its top, or in each segment of a visit.
      const bodySchema = resolve(op.requestBody?.content["application/json"]?.schema ?? {});
      const segments = bodySchema.properties?.segments as Schema | undefined;
      const serviceExample =
        bodySchema.properties?.serviceId?.example ??
        (segments?.example as { serviceId?: string }[] | undefined)?.[0]?.serviceId;
      const queryService = op.parameters?.find((p) => p.in === "query" && p.name === "serviceId");
      const exampleService = serviceExample ?? (queryService ? exampleOf(queryService) : undefined);
      if (typeof exampleService === "string") await provideExampleService(fx.key, exampleService);
      // A waitlist is joined for a full slot: the example's slot is booked first.
      if (op.operationId === "joinWaitlist") {
        const { startTime, endTime } = (
          op.requestBody?.content["application/json"]?.schema
            ? composedExample(resolve(op.requestBody.content["application/json"].schema), "joinWaitlist")
            : {}
        ) as { startTime: string; endTime: string };
        const full = await api("POST", "/bookings", {
          key: fx.key,
          body: { ...bookingBody(String(exampleService), startTime), endTime },
        });
        expect(full.status, await full.clone().text()).toBe(201);
      }
      const concrete = await concretePath(path, op, fx);
      const url = query.size > 0 ? `${concrete}?${query}` : concrete;
      const key = op.security?.some((s) => "bearerAuth" in s) ? fx.key : undefined;
      for (const example of exampleBodies(op)) {
        const body = op.operationId === "createPublicBooking" ? await withPageHold(fx.key, concrete, example) : example;
        const res = await api(method, url, { key, body, headers });
        const text = await res.clone().text();
        sent.push(`${method} ${url} ${res.status}`);
        if (res.status < 200 || res.status > 299) {
          failures.push(`${method} ${url} ${JSON.stringify(body)} → ${res.status} ${text.slice(0, 300)}`);
          continue;
        }
        const found = checker.violations({
          method,
          path: concrete,
          status: res.status,
          headers: res.headers,
          body: text,
        });
        failures.push(...found);
      }
    }
    expect(failures).toEqual([]);
    // The time examples were really sent.
    expect(sent.filter((line) => /^GET \/(bookings|services\/\w+\/availability)\?from=/.test(line))).toHaveLength(2);
    expect(sent.length).toBeGreaterThanOrEqual(operations().length);
  });
});

describe("example instants", () => {
  const doc = {
    a: { example: "2026-12-01T10:00:00Z" },
    b: { example: "2026-12-08T00:00:00.000Z", description: "2026-12-01T10:00:00Z stays as text" },
    c: { example: "not a time" },
  };

  it("stay as written while the earliest is at least two days ahead", () => {
    expect(examplesAhead(doc, Date.parse("2026-11-29T09:00:00Z"))).toBe(doc);
  });

  it("move forward by whole weeks, all alike, once the earliest is closer than two days", () => {
    const moved = examplesAhead(doc, Date.parse("2027-03-10T12:00:00Z"));
    // 2027-03-16 is the first Tuesday two days past 2027-03-10 12:00.
    expect(moved.a.example).toBe("2027-03-16T10:00:00Z");
    expect(moved.b.example).toBe("2027-03-23T00:00:00.000Z");
    expect(moved.b.description).toBe(doc.b.description);
    expect(moved.c.example).toBe("not a time");
  });

  it("in the served document lie ahead of now, with from before to", async () => {
    const list = (document.paths["/bookings"] as { get: Operation }).get.parameters ?? [];
    const from = Date.parse(String(exampleOf(list.find((p) => p.name === "from") as Parameter)));
    const to = Date.parse(String(exampleOf(list.find((p) => p.name === "to") as Parameter)));
    expect(from).toBeGreaterThan(Date.now());
    expect(to).toBeGreaterThan(from);
  });
});
