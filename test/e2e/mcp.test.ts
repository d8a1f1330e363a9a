/**
 * The MCP server against `npm run dev`, driven by the official SDK's client over Streamable HTTP
 * exactly as an AI assistant would: handshake, tool list, and a booking's whole life, each step
 * checked through the REST API (whose answers are contract-checked).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  api,
  apiKey,
  baseUrl,
  bookingBody,
  createBooking,
  createOpenService,
  expectProblem,
  plusMinutes,
  raw,
  unique,
  utcAt,
} from "./support";

const url = new URL(`${baseUrl}/mcp`);

function connectAs(key: string | undefined): { client: Client; transport: StreamableHTTPClientTransport } {
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: key === undefined ? {} : { headers: { Authorization: `Bearer ${key}` } },
  });
  return { client: new Client({ name: "e2e", version: "1.0.0" }), transport };
}

let client: Client;

beforeAll(async () => {
  const connection = connectAs(apiKey);
  client = connection.client;
  await client.connect(connection.transport);
});

afterAll(async () => {
  await client?.close();
});

/** A successful tool call's structuredContent (and it has a text). */
async function ok(name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  expect(result.content[0]).toMatchObject({ type: "text" });
  return result.structuredContent as Record<string, unknown>;
}

describe("connecting", () => {
  it("initializes without a session, and names the business in its instructions", () => {
    expect(client.getServerVersion()).toMatchObject({ name: "booking-api" });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toContain("Demo Salon");
  });

  it("lists the eight tools, every schema valid JSON Schema 2020-12", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "book_appointment",
      "cancel_booking",
      "find_availability",
      "find_customers",
      "hold_slot",
      "list_bookings",
      "list_services",
      "reschedule_booking",
    ]);
    const ajv = new Ajv2020({ strict: true });
    addFormats(ajv);
    for (const tool of tools) {
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        expect(schema?.type, tool.name).toBe("object");
        expect(ajv.validateSchema(schema as object), `${tool.name}: ${ajv.errorsText()}`).toBe(true);
        ajv.compile(schema as object);
      }
    }
  });

  it("refuses a client without a key before the handshake", async () => {
    const { client: anonymous, transport } = connectAs(undefined);
    await expect(anonymous.connect(transport)).rejects.toThrow(/401|unauthorized/i);
    const res = await raw("POST", "/mcp", {
      auth: false,
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expectProblem(res, await res.json(), 401, "unauthorized", "/api/v1/mcp");
  });
});

describe("a booking's life through the tools", () => {
  it("find → hold → book → reschedule → cancel, each step as REST sees it", async () => {
    const service = await createOpenService();
    const services = await ok("list_services", { limit: 100 });
    expect((services.data as { id: string }[]).map((s) => s.id)).toContain(service.id);

    const from = utcAt(12, 9);
    const found = await ok("find_availability", { serviceId: service.id, from, to: utcAt(12, 12) });
    const slots = found.slots as { startTime: string; endTime: string }[];
    expect(slots).toHaveLength(6);
    const slot = slots[0] as { startTime: string; endTime: string };
    expect(slot.startTime).toBe(from);

    const hold = await ok("hold_slot", { serviceId: service.id, startTime: slot.startTime, endTime: slot.endTime });
    const held = await api.GET("/holds/{id}", { params: { path: { id: hold.id as string } } });
    expect(held.data).toMatchObject({ status: "HELD", startTime: slot.startTime });

    const idempotencyKey = unique("book");
    const booking = await ok("book_appointment", {
      holdId: hold.id,
      customerName: "Frances Allen",
      customerEmail: `${unique("frances")}@example.com`,
      idempotencyKey,
    });
    const stored = await api.GET("/bookings/{id}", { params: { path: { id: booking.id as string } } });
    expect(stored.data).toEqual(booking);
    expect(stored.data).toMatchObject({ status: "CONFIRMED", startTime: slot.startTime, serviceId: service.id });

    const later = utcAt(12, 11);
    const moved = await ok("reschedule_booking", {
      bookingId: booking.id,
      startTime: later,
      endTime: plusMinutes(later, 30),
      idempotencyKey: unique("move"),
    });
    expect(moved).toMatchObject({ id: booking.id, startTime: later });
    const afterMove = await api.GET("/bookings/{id}", { params: { path: { id: booking.id as string } } });
    expect(afterMove.data?.startTime).toBe(later);

    const cancelled = await ok("cancel_booking", {
      bookingId: booking.id,
      reason: "Plans changed.",
      idempotencyKey: unique("cancel"),
    });
    expect(cancelled.status).toBe("CANCELLED");
    const afterCancel = await api.GET("/bookings/{id}", { params: { path: { id: booking.id as string } } });
    expect(afterCancel.data).toMatchObject({ status: "CANCELLED", cancellationReason: "Plans changed." });

    const listed = await ok("list_bookings", { serviceId: service.id, status: "CANCELLED" });
    expect((listed.data as { id: string }[]).map((b) => b.id)).toEqual([booking.id]);
    const customers = await ok("find_customers", { search: "frances" });
    expect((customers.pagination as { total: number }).total).toBeGreaterThan(0);
  });

  it("a taken slot is an isError result with slot_unavailable and the next free slots", async () => {
    const service = await createOpenService();
    const taken = utcAt(13, 10);
    await createBooking(bookingBody(service, taken));
    const result = (await client.callTool({
      name: "book_appointment",
      arguments: {
        serviceId: service.id,
        startTime: taken,
        endTime: plusMinutes(taken, 30),
        customerName: "Frances Allen",
        customerEmail: `${unique("frances")}@example.com`,
        idempotencyKey: unique("taken"),
      },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    const [text, data] = result.content as { type: "text"; text: string }[];
    expect(text?.text).toContain("slot_unavailable");
    expect(text?.text).toContain(`next free: ${plusMinutes(taken, 30)}`);
    expect(JSON.parse(data?.text ?? "{}").problem).toMatchObject({ status: 409, code: "slot_unavailable" });
    const { data: page } = await api.GET("/bookings", { params: { query: { serviceId: service.id } } });
    expect(page?.pagination.total).toBe(1);
  });
});
