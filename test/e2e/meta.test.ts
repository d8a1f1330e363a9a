/** Public routes: health, problem types, and the document the suite is generated from. */
import { describe, expect, it } from "vitest";
import { anonymous, api, baseUrl, checked, contract, document, expectProblem, raw } from "./support";

/** The operations this suite drives; a new operation in the document must get tests first. */
const expectedOperations = [
  "GET /health getHealth",
  "GET /docs getDocs",
  "GET /openapi.json getOpenApiDocument",
  "GET /problems/{code} getProblemType",
  "GET /business getBusiness",
  "PATCH /business updateBusiness",
  "GET /services listServices",
  "POST /services createService",
  "GET /services/{id} getService",
  "PATCH /services/{id} updateService",
  "GET /services/{id}/availability getServiceAvailability",
  "GET /customers listCustomers",
  "POST /customers createCustomer",
  "GET /customers/{id} getCustomer",
  "PATCH /customers/{id} updateCustomer",
  "DELETE /customers/{id} deleteCustomer",
  "GET /bookings listBookings",
  "POST /bookings createBooking",
  "GET /bookings/{id} getBooking",
  "PATCH /bookings/{id} updateBooking",
  "POST /bookings/{id}/cancel cancelBooking",
  "POST /bookings/{id}/reschedule rescheduleBooking",
  "GET /bookings/{id}/messages listBookingMessages",
  "POST /appointments createAppointment",
  "GET /appointments/{id} getAppointment",
  "POST /appointments/{id}/cancel cancelAppointment",
  "POST /series createSeries",
  "GET /series/{id} getSeries",
  "POST /series/{id}/cancel cancelSeries",
  "GET /waitlist listWaitlist",
  "POST /waitlist joinWaitlist",
  "GET /waitlist/{id} getWaitlistEntry",
  "DELETE /waitlist/{id} leaveWaitlist",
  "POST /holds createHold",
  "GET /providers listProviders",
  "POST /providers createProvider",
  "GET /providers/{id} getProvider",
  "PATCH /providers/{id} updateProvider",
  "GET /providers/{id}/bookings listProviderBookings",
  "POST /providers/{id}/feed createProviderFeed",
  "DELETE /providers/{id}/feed deleteProviderFeed",
  "GET /providers/{id}/calendars listProviderCalendars",
  "POST /providers/{id}/calendars createProviderCalendar",
  "GET /providers/{id}/calendars/{calendarId} getProviderCalendar",
  "DELETE /providers/{id}/calendars/{calendarId} deleteProviderCalendar",
  "POST /providers/{id}/calendars/{calendarId}/sync syncProviderCalendar",
  "GET /feeds/{token}.ics getCalendarFeed",
  "GET /bookings/{id}.ics getBookingCalendar",
  "GET /manage/{token} getManagedBooking",
  "GET /manage/{token}/availability getManagedAvailability",
  "POST /manage/{token}/reschedule rescheduleManagedBooking",
  "POST /manage/{token}/cancel cancelManagedBooking",
  "POST /manage-links/rotate rotateManageLinks",
  "GET /public/{slug}/services listPublicServices",
  "GET /public/{slug}/services/{id}/availability getPublicAvailability",
  "POST /public/{slug}/holds createPublicHold",
  "POST /public/{slug}/bookings createPublicBooking",
  "GET /resources listResources",
  "POST /resources createResource",
  "GET /resources/{id} getResource",
  "PATCH /resources/{id} updateResource",
  "GET /resources/{id}/bookings listResourceBookings",
  "GET /holds/{id} getHold",
  "DELETE /holds/{id} releaseHold",
  "POST /webhooks createWebhook",
  "GET /webhooks listWebhooks",
  "GET /webhooks/{id} getWebhook",
  "DELETE /webhooks/{id} deleteWebhook",
  "GET /webhooks/{id}/deliveries listWebhookDeliveries",
  "POST /webhooks/{id}/deliveries/{deliveryId}/retry retryWebhookDelivery",
  "POST /mcp mcp",
  "GET /api-keys listApiKeys",
  "POST /api-keys createApiKey",
  "DELETE /api-keys/{id} revokeApiKey",
  "GET /members listMembers",
  "POST /members createMember",
  "GET /members/{id} getMember",
  "PATCH /members/{id} updateMember",
  "DELETE /members/{id} deleteMember",
  "POST /members/{id}/sessions/revoke revokeMemberSessions",
  "GET /audit-events listAuditEvents",
];

describe("the served OpenAPI document", () => {
  it("is OpenAPI 3.1 with this server as its server URL", () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(document.servers).toEqual([{ url: baseUrl }]);
  });

  it("has exactly the operations this suite covers", () => {
    const found = contract.operations().map((o) => `${o.method} ${o.path} ${o.operation.operationId}`);
    expect(found.sort()).toEqual([...expectedOperations].sort());
  });

  it("is served without an API key (GET /openapi.json)", async () => {
    const { data, response } = await anonymous.GET("/openapi.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(data).toEqual(document);
  });
});

describe("GET /health", () => {
  it("answers 200 ok without a key", async () => {
    const { data, response } = await anonymous.GET("/health");
    expect(response.status).toBe(200);
    expect(data).toEqual({ status: "ok" });
    expect(response.headers.get("x-request-id")).toBeTruthy();
  });

  it("echoes a sane X-Request-Id", async () => {
    const { response } = await anonymous.GET("/health", { headers: { "X-Request-Id": "e2e-request-42" } });
    expect(response.headers.get("x-request-id")).toBe("e2e-request-42");
  });
});

describe("GET /docs", () => {
  it("serves the reference page as HTML without a key", async () => {
    const { data, response } = await anonymous.GET("/docs", { parseAs: "text" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(data).toMatch(/<html/i);
  });
});

describe("GET /problems/{code}", () => {
  it("describes a known problem type", async () => {
    const { data, response } = await anonymous.GET("/problems/{code}", {
      params: { path: { code: "slot_unavailable" } },
    });
    expect(response.status).toBe(200);
    expect(data).toEqual({ code: "slot_unavailable", status: 409, title: "Slot unavailable" });
  });

  it("resolves the `type` URI of a real problem response", async () => {
    const { error, response } = await anonymous.GET("/services");
    const problem = expectProblem(response, error, 401, "unauthorized", "/api/v1/services");
    const typeResponse = await fetch(problem.type);
    expect(typeResponse.status).toBe(200);
    expect(await typeResponse.json()).toMatchObject({ code: "unauthorized", status: 401, title: problem.title });
  });

  it("answers 404 for an unknown code", async () => {
    const { error, response } = await anonymous.GET("/problems/{code}", { params: { path: { code: "no_such_code" } } });
    expectProblem(response, error, 404, "not_found", "/api/v1/problems/no_such_code");
  });

  it("answers a code longer than 64 characters with a documented response", async () => {
    // No such problem type, however long its name: a plain, documented 404.
    const code = "x".repeat(65);
    const { response } = await api.GET("/problems/{code}", { params: { path: { code } } });
    expect(response.status).toBe(404);
  });
});

describe("the contract middleware", () => {
  it("has checked every response of this file so far", async () => {
    const before = checked.length;
    await anonymous.GET("/health");
    await raw("GET", "/health", { auth: false });
    expect(checked.length).toBe(before + 2);
    expect(checked.at(-1)).toBe("GET /health 200");
  });
});
