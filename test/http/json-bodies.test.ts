/**
 * What a request body must be: JSON text in UTF-8 labelled `application/json` (a `charset`, if
 * any, utf-8). Bytes that are not UTF-8 are a 400 `malformed_json`, never stored with U+FFFD in
 * their place; another media type or charset is a 415. Either way nothing is stored. One leading
 * byte order mark is ignored (RFC 8259 §8.1). The rule holds on every operation that takes a
 * body, the operator routes under /internal included.
 */
import { describe, expect, it } from "vitest";
import { api, createAccount, createCustomer, createService, json, problem, totalOf } from "../support/api";
import { at, availability, bookingBody } from "../support/bookings";

const utf8 = (text: string) => new TextEncoder().encode(text);

/** The bytes of several parts, back to back. */
function bytesOf(...parts: (string | number[])[]): Uint8Array {
  const chunks = parts.map((part) => (typeof part === "string" ? utf8(part) : new Uint8Array(part)));
  const out = new Uint8Array(chunks.reduce((n, chunk) => n + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** A POST /customers body whose name holds `inName` (raw bytes) between "Ren" and "e". */
function customerBytes(inName: number[], email = `${crypto.randomUUID()}@example.com`) {
  return { email, bytes: bytesOf('{"name":"Ren', inName, `e","email":"${email}"}`) };
}

const send = (key: string, method: string, path: string, rawBody: BodyInit, contentType?: string) =>
  api(method, path, { key, rawBody, headers: contentType === undefined ? {} : { "Content-Type": contentType } });

/** No customer was stored: neither the whole list nor a search for the e-mail finds one. */
async function expectNoCustomer(key: string, email: string) {
  expect(await totalOf(key, `/customers?search=${encodeURIComponent(email)}`)).toBe(0);
  expect(await totalOf(key, "/customers")).toBe(0);
}

describe("bodies that are not UTF-8", () => {
  it("a Latin-1 é (byte 0xE9) is a 400 malformed_json, and no customer is stored", async () => {
    const { apiKey } = await createAccount();
    const { email, bytes } = customerBytes([0xe9]);
    const body = await problem(
      await send(apiKey, "POST", "/customers", bytes, "application/json"),
      400,
      "malformed_json",
    );
    expect(body.detail).toBe("The request body is not valid UTF-8.");
    await expectNoCustomer(apiKey, email);
  });

  it.each([
    ["a lone continuation byte", [0x80]],
    ["an overlong encoding of /", [0xc0, 0xaf]],
    ["an encoded UTF-16 surrogate", [0xed, 0xa0, 0x80]],
    ["a sequence cut short", [0xe2, 0x82]],
    ["a byte never in UTF-8", [0xff]],
    ["a code point past U+10FFFF", [0xf4, 0x90, 0x80, 0x80]],
  ])("%s is a 400 malformed_json, and nothing is stored", async (_, inName) => {
    const { apiKey } = await createAccount();
    const { email, bytes } = customerBytes(inName);
    await problem(
      await send(apiKey, "POST", "/customers", bytes, "application/json; charset=utf-8"),
      400,
      "malformed_json",
    );
    await expectNoCustomer(apiKey, email);
  });

  it("on POST /bookings: a 400, no booking, and the slot stays free", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const startTime = at(2, "10:00");
    const text = JSON.stringify(bookingBody(service.id, startTime, { customerName: "Ren\u00e9e" }));
    // The é as Latin-1: one byte 0xE9 where UTF-8 has 0xC3 0xA9.
    const [head = "", tail = ""] = text.split("\u00e9");
    const res = await send(apiKey, "POST", "/bookings", bytesOf(head, [0xe9], tail), "application/json");
    await problem(res, 400, "malformed_json");
    expect(await totalOf(apiKey, "/bookings")).toBe(0);
    const slot = (await availability(apiKey, service.id, startTime, `${startTime.slice(0, 11)}10:30:00Z`)).slots[0];
    expect(slot).toMatchObject({ booked: 0, remaining: 1 });
  });

  it("on PATCH /customers/{id}: a 400, and the customer is unchanged", async () => {
    const { apiKey } = await createAccount();
    const customer = await createCustomer(apiKey, { name: "Renée" });
    const res = await send(
      apiKey,
      "PATCH",
      `/customers/${customer.id}`,
      bytesOf('{"name":"Ren', [0xe9], 'e B"}'),
      "application/json",
    );
    await problem(res, 400, "malformed_json");
    expect((await json(await api("GET", `/customers/${customer.id}`, { key: apiKey }))).name).toBe("Renée");
  });
});

describe("UTF-8 bodies", () => {
  it("text in any script is stored and read back exactly", async () => {
    const { apiKey } = await createAccount();
    const name = "Renée Müller-Łukasiewicz 山田 😀";
    const email = `${crypto.randomUUID()}@example.com`;
    const res = await send(apiKey, "POST", "/customers", utf8(JSON.stringify({ name, email })), "application/json");
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = await json(res);
    expect((await json(await api("GET", `/customers/${id}`, { key: apiKey }))).name).toBe(name);
  });

  it("one leading byte order mark is ignored: 201, and the name does not start with U+FEFF", async () => {
    const { apiKey } = await createAccount();
    const email = `${crypto.randomUUID()}@example.com`;
    const bytes = bytesOf([0xef, 0xbb, 0xbf], JSON.stringify({ name: "Bom", email }));
    const res = await send(apiKey, "POST", "/customers", bytes, "application/json");
    expect(res.status, await res.clone().text()).toBe(201);
    expect((await json(res)).name).toBe("Bom");
  });

  it("a second byte order mark is not whitespace: 400 malformed_json, nothing stored", async () => {
    const { apiKey } = await createAccount();
    const email = `${crypto.randomUUID()}@example.com`;
    const bytes = bytesOf([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], JSON.stringify({ name: "Bom", email }));
    await problem(await send(apiKey, "POST", "/customers", bytes, "application/json"), 400, "malformed_json");
    await expectNoCustomer(apiKey, email);
  });
});

describe("Content-Type", () => {
  it.each([
    "application/json",
    "application/json; charset=utf-8",
    "application/json;charset=UTF-8",
    'application/json; charset="UTF-8"',
    "Application/JSON; Charset=Utf-8",
    "application/json ; charset=utf-8",
    "application/json; charset=utf-8; profile=x",
  ])("%s is read", async (contentType) => {
    const { apiKey } = await createAccount();
    const name = "Renée";
    const email = `${crypto.randomUUID()}@example.com`;
    const res = await send(apiKey, "POST", "/customers", utf8(JSON.stringify({ name, email })), contentType);
    expect(res.status, await res.clone().text()).toBe(201);
    expect((await json(res)).name).toBe(name);
  });

  it("charset=iso-8859-1 with Latin-1 bytes is a 415 naming UTF-8, and no customer is stored", async () => {
    const { apiKey } = await createAccount();
    const { email, bytes } = customerBytes([0xe9]);
    const res = await send(apiKey, "POST", "/customers", bytes, "application/json; charset=iso-8859-1");
    const body = await problem(res, 415, "unsupported_media_type");
    expect(body.detail).toContain("UTF-8");
    await expectNoCustomer(apiKey, email);
  });

  it.each([
    "application/json; charset=iso-8859-1",
    "application/json; charset=latin1",
    "application/json; charset=utf-16",
    "application/json; charset=us-ascii",
    "application/json; charset=utf8",
    "application/json; charset=utf-8; charset=latin1",
    "application/json; charset=",
    "application/json;",
    "application/merge-patch+json",
    "application/problem+json",
    "application/vnd.api+json",
    "text/json",
    "text/plain",
    "application/json, text/plain",
    undefined,
  ])("%s is a 415 on POST, and nothing is stored", async (contentType) => {
    const { apiKey } = await createAccount();
    const email = `${crypto.randomUUID()}@example.com`;
    const res = await send(apiKey, "POST", "/customers", JSON.stringify({ name: "Ada", email }), contentType);
    await problem(res, 415, "unsupported_media_type");
    await expectNoCustomer(apiKey, email);
  });

  it("application/merge-patch+json is a 415 on PATCH too, and the resource is unchanged", async () => {
    const { apiKey } = await createAccount();
    const customer = await createCustomer(apiKey, { name: "Ada" });
    const service = await createService(apiKey, { name: "Cut" });
    const patch = JSON.stringify({ name: "Changed" });
    for (const path of [`/customers/${customer.id}`, `/services/${service.id}`]) {
      await problem(
        await send(apiKey, "PATCH", path, patch, "application/merge-patch+json"),
        415,
        "unsupported_media_type",
      );
    }
    expect((await json(await api("GET", `/customers/${customer.id}`, { key: apiKey }))).name).toBe("Ada");
    expect((await json(await api("GET", `/services/${service.id}`, { key: apiKey }))).name).toBe("Cut");
  });
});

describe("every operation that takes a body", () => {
  type Operation = { requestBody?: unknown };

  /** Method and path (ids made up) of every POST, PATCH and PUT of the served document. */
  async function writes(): Promise<[string, string][]> {
    const doc = (await json(await api("GET", "/openapi.json"))) as { paths: Record<string, Record<string, Operation>> };
    return Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => ["post", "patch", "put"].includes(method))
        .map((method): [string, string] => [method.toUpperCase(), path.replace(/\{(\w+)\}/g, "x_$1")]),
    );
  }

  const refusals: [string, BodyInit, string, number, string][] = [
    ["Latin-1 bytes", bytesOf('{"name":"Ren', [0xe9], 'e"}'), "application/json", 400, "malformed_json"],
    ["charset=iso-8859-1", '{"name":"x"}', "application/json; charset=iso-8859-1", 415, "unsupported_media_type"],
    ["merge-patch+json", '{"name":"x"}', "application/merge-patch+json", 415, "unsupported_media_type"],
  ];

  it("refuses bodies that are not UTF-8 JSON on each of them, /mcp and the public manage routes included", async () => {
    const { apiKey } = await createAccount();
    const operations = await writes();
    expect(operations.map(([method, path]) => `${method} ${path}`)).toEqual(
      expect.arrayContaining(["POST /mcp", "POST /manage/x_token/cancel", "PATCH /bookings/x_id", "POST /customers"]),
    );
    for (const [method, path] of operations) {
      for (const [what, rawBody, contentType, status, code] of refusals) {
        const res = await send(apiKey, method, path, rawBody, contentType);
        const body = await json(res);
        expect(
          { status: res.status, code: body.code },
          `${method} ${path} with ${what}: ${JSON.stringify(body)}`,
        ).toEqual({
          status,
          code,
        });
      }
    }
  });

  it("decides after the key: without one, the same bodies are a 401", async () => {
    for (const [method, path] of [
      ["POST", "/customers"],
      ["POST", "/mcp"],
    ]) {
      for (const [what, rawBody, contentType] of refusals) {
        const res = await api(method as string, path as string, { rawBody, headers: { "Content-Type": contentType } });
        expect(res.status, `${method} ${path} with ${what}`).toBe(401);
      }
    }
  });

  it("and on the operator's import (/internal), behind its token", async () => {
    const path = "http://api.test/internal/services/svc_x/import";
    const admin = { Authorization: "Bearer test-admin-token" };
    for (const [what, rawBody, contentType, status, code] of refusals) {
      const res = await api("POST", path, { rawBody, headers: { ...admin, "Content-Type": contentType } });
      expect((await problem(res, status, code)).code, what).toBe(code);
      const without = await api("POST", path, { rawBody, headers: { "Content-Type": contentType } });
      expect(without.status, `${what} without the token`).toBe(401);
    }
    const text = await api("POST", path, { rawBody: "hello", headers: { ...admin, "Content-Type": "text/plain" } });
    await problem(text, 415, "unsupported_media_type");
  });
});
