/** POST /manage/{token}/cancel: the customer cancels, inside the business's policy. */
import { describe, expect, it } from "vitest";
import { api, json, problem, validationError } from "../../support/api";
import { at, bookingBody, postBooking } from "../../support/bookings";
import { salon } from "../../support/fixtures";
import { bookWithLink, clinic, minutesFromNow, viaLink } from "../../support/manage-links";

describe("happy", () => {
  it("cancels and frees the time; the link then ends and the booking's URL is null", async () => {
    const c = await clinic();
    const start = minutesFromNow(600);
    const { booking, path } = await bookWithLink(c.apiKey, c.serviceId, start);
    const res = await viaLink("POST", `${path}/cancel`, { reason: "Feeling better" });
    expect(res.status).toBe(200);
    const view = await json(res);
    expect(view).toMatchObject({ id: booking.id, status: "CANCELLED", cancellationReason: "Feeling better" });
    expect(view.manageUrl).toBeNull();
    const stored = await json(await api("GET", `/bookings/${booking.id}`, { key: c.apiKey }));
    expect(stored).toMatchObject({ status: "CANCELLED", cancellationReason: "Feeling better", manageUrl: null });
    expect((await postBooking(c.apiKey, bookingBody(c.serviceId, start))).status).toBe(201);
    await problem(await viaLink("GET", path), 404, "not_found");
    await problem(await viaLink("POST", `${path}/cancel`, {}), 404, "not_found");
  });

  it("takes no body, an empty one or {}", async () => {
    const c = await clinic();
    for (const body of [undefined, {}]) {
      const { path } = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(600 + (body ? 60 : 0)));
      expect((await viaLink("POST", `${path}/cancel`, body)).status).toBe(200);
    }
  });
});

describe("error", () => {
  it("inside the cancellation notice: 409 policy_window saying until when, and nothing changes", async () => {
    const c = await clinic({ cancellationNoticeMinutes: 60 });
    const early = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(65));
    expect((await viaLink("POST", `${early.path}/cancel`, {})).status).toBe(200);

    const late = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(55));
    const body = await problem(await viaLink("POST", `${late.path}/cancel`, {}), 409, "policy_window");
    const until = new Date(Date.parse(late.booking.startTime) - 60 * 60_000).toISOString();
    expect(body.until).toBe(until);
    expect(body.detail).toContain(until);
    const view = await json(await viaLink("GET", late.path));
    expect(view).toMatchObject({ status: "CONFIRMED", cancellableUntil: until });
    // The business is not bound by its own policy.
    const byKey = await api("POST", `/bookings/${late.booking.id}/cancel`, { key: c.apiKey, body: {} });
    expect(byKey.status).toBe(200);
  });

  it("a reason too long, or an unknown field, is a 422 and the booking stays", async () => {
    const c = await clinic();
    const { path } = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(600));
    await validationError(await viaLink("POST", `${path}/cancel`, { reason: "x".repeat(501) }), "reason");
    await validationError(await viaLink("POST", `${path}/cancel`, { status: "CANCELLED" }), "status");
    expect((await json(await viaLink("GET", path))).status).toBe("CONFIRMED");
  });
});

describe("security", () => {
  it("a token for one booking never cancels another, of the same business or another", async () => {
    const s = await salon(1);
    const other = await salon(1);
    const mine = await bookWithLink(s.apiKey, s.cut, at(2, "10:00"));
    const sibling = await bookWithLink(s.apiKey, s.cut, at(2, "11:00"));
    const foreign = await bookWithLink(other.apiKey, other.cut, at(2, "10:00"));
    const signature = mine.path.split(".")[1];
    for (const target of [sibling.booking.id, foreign.booking.id]) {
      await problem(await viaLink("POST", `/manage/${target}.${signature}/cancel`, {}), 404, "not_found");
    }
    for (const [key, id] of [
      [s.apiKey, sibling.booking.id],
      [other.apiKey, foreign.booking.id],
    ] as const) {
      expect((await json(await api("GET", `/bookings/${id}`, { key }))).status).toBe("CONFIRMED");
    }
  });
});
