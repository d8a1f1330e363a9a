/**
 * A person's own calendars against `npm run dev` (contract-checked): connecting one, listing,
 * reading it now and disconnecting it. The dev server has no CalDAV server, so a calendar on a
 * closed local port (allowed there, as local webhook receivers are) is kept and answered
 * `failing` with the error, and reading it now answers the same.
 */
import { describe, expect, it } from "vitest";
import { api, expectProblem, unique } from "./support";

async function newProvider() {
  const { data, response } = await api.POST("/providers", {
    body: { name: unique("Calendar person"), timezone: "UTC", weeklySchedule: {} },
  });
  expect(response.status).toBe(201);
  return data?.id as string;
}

describe("/providers/{id}/calendars", () => {
  it("connects (201 failing: no server), lists, gets, reads now and disconnects a calendar", async () => {
    const id = await newProvider();
    const created = await api.POST("/providers/{id}/calendars", {
      params: { path: { id } },
      body: {
        url: "http://127.0.0.1:9/dav/calendars/e2e/",
        username: "e2e",
        password: "e2e-secret",
        writeBookings: true,
      },
    });
    expect(created.response.status).toBe(201);
    expect(JSON.stringify(created.data)).not.toContain("e2e-secret");
    expect(created.data).toMatchObject({
      providerId: id,
      syncStatus: "failing",
      hasCredentials: true,
      writeBookings: true,
    });
    const calendarId = created.data?.id as string;
    expect(created.response.headers.get("location")).toBe(`/api/v1/providers/${id}/calendars/${calendarId}`);

    const listed = await api.GET("/providers/{id}/calendars", { params: { path: { id } } });
    expect(listed.data?.data.map((c) => c.id)).toEqual([calendarId]);
    const one = await api.GET("/providers/{id}/calendars/{calendarId}", { params: { path: { id, calendarId } } });
    expect(one.data?.id).toBe(calendarId);
    const read = await api.POST("/providers/{id}/calendars/{calendarId}/sync", {
      params: { path: { id, calendarId } },
    });
    expect(read.data).toMatchObject({
      syncStatus: "failing",
      lastError: expect.stringMatching(/could not be reached/),
    });

    const gone = await api.DELETE("/providers/{id}/calendars/{calendarId}", { params: { path: { id, calendarId } } });
    expect(gone.response.status).toBe(204);
    const after = await api.GET("/providers/{id}/calendars/{calendarId}", { params: { path: { id, calendarId } } });
    expectProblem(after.response, after.error, 404, "not_found");
  });

  it("refuses a private-network URL even on the dev server: 422 at url", async () => {
    const id = await newProvider();
    const { error, response } = await api.POST("/providers/{id}/calendars", {
      params: { path: { id } },
      body: { url: "https://192.168.1.10/dav/" },
    });
    const problem = expectProblem(response, error, 422, "validation_failed");
    expect(problem.errors?.map((e) => e.path)).toEqual(["url"]);
  });
});
