/** DELETE /waitlist/{id}: the entry becomes CANCELLED; an offered hold goes to the next in line. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { reconcile } from "../../../src/calendar/d1/reconcile-services";
import { api, createAccount, problem } from "../../support/api";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";
import { entry, fullSlot, join, joinBody } from "../../support/waitlist";

const leave = (key: string | undefined, id: string) => api("DELETE", `/waitlist/${id}`, { key });

describe("happy", () => {
  it("204: a WAITING entry is CANCELLED and stays readable; the next moves up; again is 204 and changes nothing", async () => {
    const s = await fullSlot();
    const first = await join(s.apiKey, joinBody(s));
    const second = await join(s.apiKey, joinBody(s));
    expect((await leave(s.apiKey, first.id)).status).toBe(204);
    expect(await entry(s.apiKey, first.id)).toMatchObject({ status: "CANCELLED", position: null });
    expect(await entry(s.apiKey, second.id)).toMatchObject({ status: "WAITING", position: 1 });
    expect((await leave(s.apiKey, first.id)).status).toBe(204);
    expect((await entry(s.apiKey, first.id)).status).toBe("CANCELLED");
  });

  it("leaving with an offer releases its hold, and the seat is offered to the next entry at once", async () => {
    const s = await fullSlot();
    const first = await join(s.apiKey, joinBody(s));
    const second = await join(s.apiKey, joinBody(s));
    await api("POST", `/bookings/${s.bookings[0]?.id}/cancel`, { key: s.apiKey });
    const offered = await entry(s.apiKey, first.id);
    expect(offered.status).toBe("OFFERED");
    expect((await leave(s.apiKey, first.id)).status).toBe(204);
    expect(await entry(s.apiKey, first.id)).toMatchObject({ status: "CANCELLED" });
    expect(
      (await api("GET", `/holds/${offered.holdId}`, { key: s.apiKey }).then((r) => r.json())) as object,
    ).toMatchObject({
      status: "RELEASED",
    });
    expect((await entry(s.apiKey, second.id)).status).toBe("OFFERED");
    // D1 learned the released hold ended: calendars and D1 agree (found by the model-based test).
    const report = await reconcile(env, { businessId: s.businessId });
    expect(report.differences.filter((d) => d.kind !== "pending_in_outbox")).toEqual([]);
  });
});

describe("error", () => {
  it("404 for an id that names no entry", async () => {
    const s = await fullSlot();
    const queued = await join(s.apiKey, joinBody(s));
    await problem(await leave(s.apiKey, unknownIdLike(queued.id)), 404, "not_found");
    expect((await entry(s.apiKey, queued.id)).status).toBe("WAITING");
  });
});

describe("security", () => {
  it("401 without a key and with a revoked one; the entry stays", async () => {
    const s = await fullSlot();
    const queued = await join(s.apiKey, joinBody(s));
    await expectUnauthorized(await leave(undefined, queued.id), false);
    await expectUnauthorized(await leave(await revokedKey(s.businessId), queued.id), true);
    expect((await entry(s.apiKey, queued.id)).status).toBe("WAITING");
  });

  it("another business gets the 404 of an unknown id and takes nothing off", async () => {
    const s = await fullSlot();
    const queued = await join(s.apiKey, joinBody(s));
    const other = await createAccount("Other");
    const unknown = unknownIdLike(queued.id);
    await expectNotFoundLikeUnknown(
      await leave(other.apiKey, queued.id),
      queued.id,
      await leave(other.apiKey, unknown),
      unknown,
    );
    expect((await entry(s.apiKey, queued.id)).status).toBe("WAITING");
  });
});
