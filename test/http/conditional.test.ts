/**
 * Conditional requests (RFC 9110 §13): ETag on single resources and on PATCH answers,
 * If-None-Match → 304, If-Match → 412 when stale (and then nothing changes), and compare-and-set
 * under concurrency.
 */
import { describe, expect, it } from "vitest";
import { api, createAccount, createCustomer, createService, json, problem } from "../support/api";
import { at, book, bookingBody } from "../support/bookings";

/** A strong entity tag: a quoted string without W/. */
const strongTag = /^"[^"\s]+"$/;

type Fixture = { key: string; serviceId: string; customerId: string; bookingId: string };

async function fixture(): Promise<Fixture> {
  const { apiKey } = await createAccount();
  const service = await createService(apiKey);
  const customer = await createCustomer(apiKey);
  const booking = await book(apiKey, bookingBody(service.id, at(3, "10:00")));
  return { key: apiKey, serviceId: service.id, customerId: customer.id, bookingId: booking.id };
}

const paths = (f: Fixture) => ({
  service: `/services/${f.serviceId}`,
  customer: `/customers/${f.customerId}`,
  booking: `/bookings/${f.bookingId}`,
});

/** GET a resource; returns its status, ETag and JSON body. */
async function getWithTag(key: string, path: string, headers: Record<string, string> = {}) {
  const res = await api("GET", path, { key, headers });
  const text = await res.text();
  return { status: res.status, etag: res.headers.get("ETag"), text, res };
}

describe("ETag", () => {
  it("is a strong tag on GET /services/{id}, /customers/{id} and /bookings/{id}, stable while nothing changes", async () => {
    const f = await fixture();
    for (const [name, path] of Object.entries(paths(f))) {
      const first = await getWithTag(f.key, path);
      expect(first.status, name).toBe(200);
      expect(first.etag, name).toMatch(strongTag);
      const second = await getWithTag(f.key, path);
      expect(second.etag, name).toBe(first.etag);
    }
  });

  it("is on PATCH /services/{id} and PATCH /bookings/{id}, equal to what a GET then returns", async () => {
    const f = await fixture();
    const p = paths(f);
    const service = await api("PATCH", p.service, { key: f.key, body: { name: "Renamed" } });
    expect(service.status).toBe(200);
    expect(service.headers.get("ETag")).toMatch(strongTag);
    expect((await getWithTag(f.key, p.service)).etag).toBe(service.headers.get("ETag"));

    const booking = await api("PATCH", p.booking, { key: f.key, body: { notes: "Window seat." } });
    expect(booking.status).toBe(200);
    expect(booking.headers.get("ETag")).toMatch(strongTag);
    expect((await getWithTag(f.key, p.booking)).etag).toBe(booking.headers.get("ETag"));
  });
});

describe("If-None-Match", () => {
  it("with the current tag answers 304 with an empty body and the ETag", async () => {
    const f = await fixture();
    for (const [name, path] of Object.entries(paths(f))) {
      const { etag } = await getWithTag(f.key, path);
      const res = await getWithTag(f.key, path, { "If-None-Match": etag as string });
      expect(res.status, name).toBe(304);
      expect(res.text, name).toBe("");
      expect(res.etag, name).toBe(etag);
      expect(res.res.headers.get("X-Request-Id"), name).toBeTruthy();
    }
  });

  it("matches weakly and in lists (W/ prefix, several tags, *)", async () => {
    const f = await fixture();
    const path = paths(f).service;
    const { etag } = await getWithTag(f.key, path);
    for (const header of [`W/${etag}`, `"nope", ${etag}`, "*"]) {
      expect((await getWithTag(f.key, path, { "If-None-Match": header })).status, header).toBe(304);
    }
  });

  it("with a stale tag answers 200 with the current body and the new ETag", async () => {
    const f = await fixture();
    const p = paths(f);
    const service = await getWithTag(f.key, p.service);
    const booking = await getWithTag(f.key, p.booking);
    const patchedService = await api("PATCH", p.service, {
      key: f.key,
      body: { name: "Deep tissue massage" },
      headers: { "If-Match": service.etag as string },
    });
    expect(patchedService.status).toBe(200);
    const patchedBooking = await api("PATCH", p.booking, { key: f.key, body: { notes: "Changed." } });
    expect(patchedBooking.status).toBe(200);

    const s = await getWithTag(f.key, p.service, { "If-None-Match": service.etag as string });
    expect(s.status).toBe(200);
    expect(JSON.parse(s.text).name).toBe("Deep tissue massage");
    expect(s.etag).not.toBe(service.etag);
    expect(s.etag).toBe(patchedService.headers.get("ETag"));

    const b = await getWithTag(f.key, p.booking, { "If-None-Match": booking.etag as string });
    expect(b.status).toBe(200);
    expect(JSON.parse(b.text).notes).toBe("Changed.");
    expect(b.etag).not.toBe(booking.etag);
  });

  it("with an unrelated tag answers 200", async () => {
    const f = await fixture();
    for (const [name, path] of Object.entries(paths(f))) {
      expect((await getWithTag(f.key, path, { "If-None-Match": '"definitely-not-it"' })).status, name).toBe(200);
    }
  });
});

describe("If-Match on PATCH /services/{id}", () => {
  it("with a stale tag answers 412 precondition_failed and changes nothing", async () => {
    const f = await fixture();
    const path = paths(f).service;
    const original = await getWithTag(f.key, path);
    const first = await api("PATCH", path, {
      key: f.key,
      body: { name: "Second name" },
      headers: { "If-Match": original.etag as string },
    });
    expect(first.status).toBe(200);
    const current = await getWithTag(f.key, path);

    const stale = await api("PATCH", path, {
      key: f.key,
      body: { name: "Lost update", durationMinutes: 45, active: false },
      headers: { "If-Match": original.etag as string },
    });
    await problem(stale, 412, "precondition_failed");

    const after = await getWithTag(f.key, path);
    expect(after.etag).toBe(current.etag);
    expect(JSON.parse(after.text)).toEqual(JSON.parse(current.text));
    expect(JSON.parse(after.text)).toMatchObject({ name: "Second name", durationMinutes: 30, active: true });
  });

  it("with a tag that was never issued answers 412 and changes nothing", async () => {
    const f = await fixture();
    const path = paths(f).service;
    const before = await getWithTag(f.key, path);
    await problem(
      await api("PATCH", path, { key: f.key, body: { name: "Nope" }, headers: { "If-Match": '"bogus"' } }),
      412,
      "precondition_failed",
    );
    expect((await getWithTag(f.key, path)).text).toBe(before.text);
  });

  it("with the current tag answers 200 with the change and a new ETag", async () => {
    const f = await fixture();
    const path = paths(f).service;
    const before = await getWithTag(f.key, path);
    const res = await api("PATCH", path, {
      key: f.key,
      body: { name: "Current name" },
      headers: { "If-Match": before.etag as string },
    });
    expect(res.status).toBe(200);
    expect((await json(res)).name).toBe("Current name");
    const etag = res.headers.get("ETag");
    expect(etag).toMatch(strongTag);
    expect(etag).not.toBe(before.etag);
    const after = await getWithTag(f.key, path);
    expect(after.etag).toBe(etag);
    expect(JSON.parse(after.text).name).toBe("Current name");
  });

  it("under two concurrent PATCHes with the same current tag lets exactly one win", async () => {
    const f = await fixture();
    const path = paths(f).service;
    const { etag } = await getWithTag(f.key, path);
    const responses = await Promise.all(
      ["Winner A", "Winner B"].map((name) =>
        api("PATCH", path, { key: f.key, body: { name }, headers: { "If-Match": etag as string } }),
      ),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, 412]);
    const winner = responses.find((r) => r.status === 200) as Response;
    const loser = responses.find((r) => r.status === 412) as Response;
    await problem(loser, 412, "precondition_failed");
    const won = await json(winner);
    const after = await getWithTag(f.key, path);
    expect(JSON.parse(after.text).name).toBe(won.name);
    expect(after.etag).toBe(winner.headers.get("ETag"));
  });
});

describe("If-Match on PATCH /bookings/{id}", () => {
  it("with a stale tag answers 412 precondition_failed and changes nothing", async () => {
    const f = await fixture();
    const path = paths(f).booking;
    const original = await getWithTag(f.key, path);
    const first = await api("PATCH", path, {
      key: f.key,
      body: { notes: "First note." },
      headers: { "If-Match": original.etag as string },
    });
    expect(first.status).toBe(200);
    const current = await getWithTag(f.key, path);

    const stale = await api("PATCH", path, {
      key: f.key,
      body: { status: "CANCELLED", cancellationReason: "Lost update" },
      headers: { "If-Match": original.etag as string },
    });
    await problem(stale, 412, "precondition_failed");

    const after = await getWithTag(f.key, path);
    expect(after.etag).toBe(current.etag);
    expect(JSON.parse(after.text)).toEqual(JSON.parse(current.text));
    expect(JSON.parse(after.text)).toMatchObject({ status: "CONFIRMED", notes: "First note.", cancelledAt: null });
  });

  it("with a tag that is not a booking's answers 412 and changes nothing", async () => {
    const f = await fixture();
    const path = paths(f).booking;
    const before = await getWithTag(f.key, path);
    // A service's tag (another resource) may equal the booking's by chance; these never do.
    for (const tag of ['"bogus"', '"v999"', '"v0"']) {
      await problem(
        await api("PATCH", path, { key: f.key, body: { notes: "Nope" }, headers: { "If-Match": tag } }),
        412,
        "precondition_failed",
      );
    }
    const after = await getWithTag(f.key, path);
    expect(after.text).toBe(before.text);
    expect(after.etag).toBe(before.etag);
  });

  it("with the current tag answers 200 with the change and a new ETag", async () => {
    const f = await fixture();
    const path = paths(f).booking;
    const before = await getWithTag(f.key, path);
    const res = await api("PATCH", path, {
      key: f.key,
      body: { status: "CANCELLED" },
      headers: { "If-Match": before.etag as string },
    });
    expect(res.status).toBe(200);
    expect((await json(res)).status).toBe("CANCELLED");
    const etag = res.headers.get("ETag");
    expect(etag).toMatch(strongTag);
    expect(etag).not.toBe(before.etag);
    const after = await getWithTag(f.key, path);
    expect(after.etag).toBe(etag);
    expect(JSON.parse(after.text).status).toBe("CANCELLED");
  });

  it("under two concurrent PATCHes with the same current tag lets exactly one win", async () => {
    const f = await fixture();
    const path = paths(f).booking;
    const { etag } = await getWithTag(f.key, path);
    const bodies = [{ notes: "Note from tab A." }, { status: "CANCELLED", cancellationReason: "Tab B cancelled." }];
    const responses = await Promise.all(
      bodies.map((body) => api("PATCH", path, { key: f.key, body, headers: { "If-Match": etag as string } })),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, 412]);
    const winnerIndex = responses.findIndex((r) => r.status === 200);
    const winner = responses[winnerIndex] as Response;
    await problem(responses[1 - winnerIndex] as Response, 412, "precondition_failed");
    const after = await getWithTag(f.key, path);
    expect(after.etag).toBe(winner.headers.get("ETag"));
    const state = JSON.parse(after.text);
    if (winnerIndex === 0) expect(state).toMatchObject({ status: "CONFIRMED", notes: "Note from tab A." });
    else expect(state).toMatchObject({ status: "CANCELLED", cancellationReason: "Tab B cancelled.", notes: null });
  });

  it("a 412 releases nothing: the cancelled-by-stale-tag booking still holds its slot", async () => {
    const f = await fixture();
    const path = paths(f).booking;
    const original = await getWithTag(f.key, path);
    expect((await api("PATCH", path, { key: f.key, body: { notes: "bump" } })).status).toBe(200);
    await problem(
      await api("PATCH", path, {
        key: f.key,
        body: { status: "CANCELLED" },
        headers: { "If-Match": original.etag as string },
      }),
      412,
      "precondition_failed",
    );
    // The slot (capacity 1) is still taken: a second booking for the same start is refused.
    const again = await api("POST", "/bookings", { key: f.key, body: bookingBody(f.serviceId, at(3, "10:00")) });
    const body = await problem(again, 409, "slot_unavailable");
    expect(JSON.stringify(body)).toContain("fully_booked");
  });
});
