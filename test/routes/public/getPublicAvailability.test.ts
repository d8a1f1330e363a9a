/** GET /public/{slug}/services/{id}/availability: a page's times, and only times. */
import { describe, expect, it } from "vitest";
import { api, createService, json, problem, validationError } from "../../support/api";
import { at, book, bookingBody, plus } from "../../support/bookings";
import { pageBusiness, pageWithProviders, viaPage } from "../../support/public";

const range = (from: string, to: string) => `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;

describe("happy", () => {
  it("lists each slot's times and whether it is bookable; a booked one is not", async () => {
    const f = await pageBusiness();
    const start = at(3, "10:00");
    await book(f.apiKey, bookingBody(f.serviceId, start));
    const res = await viaPage(
      f.slug,
      "GET",
      `/services/${f.serviceId}/availability?${range(at(3, "09:30"), at(3, "11:00"))}`,
    );
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({
      serviceId: f.serviceId,
      timezone: "UTC",
      from: new Date(at(3, "09:30")).toISOString(),
      to: new Date(at(3, "11:00")).toISOString(),
      slots: [
        {
          startTime: new Date(at(3, "09:30")).toISOString(),
          endTime: new Date(at(3, "10:00")).toISOString(),
          bookable: true,
        },
        { startTime: new Date(start).toISOString(), endTime: new Date(plus(start, 30)).toISOString(), bookable: false },
        {
          startTime: new Date(at(3, "10:30")).toISOString(),
          endTime: new Date(at(3, "11:00")).toISOString(),
          bookable: true,
        },
      ],
    });
  });

  it("providerId shows that person's seats: a slot another person is busy in stays bookable", async () => {
    const f = await pageWithProviders(2);
    const [first, second] = f.providerIds as [string, string];
    const start = at(3, "10:00");
    await book(f.apiKey, bookingBody(f.serviceId, start, { providerId: first }));
    const slotOf = async (providerId: string) =>
      (
        await json(
          await viaPage(
            f.slug,
            "GET",
            `/services/${f.serviceId}/availability?${range(start, plus(start, 30))}&providerId=${providerId}`,
          ),
        )
      ).slots[0];
    expect((await slotOf(first)).bookable).toBe(false);
    expect((await slotOf(second)).bookable).toBe(true);
  });
});

describe("error", () => {
  it("a service the page does not offer is a 404: unknown, not online, inactive", async () => {
    const f = await pageBusiness();
    const offline = await createService(f.apiKey, { name: "Offline" });
    const inactive = await createService(f.apiKey, { name: "Gone", bookableOnline: true, active: false });
    for (const id of ["svc_00000000000000000000000000", offline.id, inactive.id]) {
      const body = await problem(await viaPage(f.slug, "GET", `/services/${id}/availability`), 404, "not_found");
      expect(body.detail).toBe("This booking page offers no such service.");
    }
  });

  it("a range backwards or over 31 days, or a malformed time, is a 422 at that field", async () => {
    const f = await pageBusiness();
    const path = `/services/${f.serviceId}/availability`;
    await validationError(await viaPage(f.slug, "GET", `${path}?${range(at(3, "10:00"), at(2, "10:00"))}`), "to");
    await validationError(await viaPage(f.slug, "GET", `${path}?${range(at(1, "00:00"), at(40, "00:00"))}`), "to");
    await validationError(await viaPage(f.slug, "GET", `${path}?from=tomorrow`), "from");
    await validationError(await viaPage(f.slug, "GET", `${path}?unknown=1`), "unknown");
  });

  it("a providerId who does not perform the service is a 422, and an unknown page a 404", async () => {
    const f = await pageWithProviders(1);
    await validationError(
      await viaPage(f.slug, "GET", `/services/${f.serviceId}/availability?providerId=prv_x`),
      "providerId",
    );
    await problem(await viaPage("no-such-page", "GET", `/services/${f.serviceId}/availability`), 404, "not_found");
  });
});

describe("security", () => {
  it("another business's service is a 404 on this page, as an unknown one", async () => {
    const a = await pageBusiness();
    const b = await pageBusiness();
    await problem(await viaPage(a.slug, "GET", `/services/${b.serviceId}/availability`), 404, "not_found");
  });

  it("shows no counts and nothing of the customers booked", async () => {
    const f = await pageBusiness({ capacity: 3 });
    const start = at(3, "10:00");
    await book(f.apiKey, bookingBody(f.serviceId, start, { customerName: "Zelda Fitz" }));
    const text = await (
      await viaPage(f.slug, "GET", `/services/${f.serviceId}/availability?${range(start, plus(start, 30))}`)
    ).text();
    expect(text).not.toMatch(/Zelda|booked|held|remaining|capacity|providers|bkg_|cus_/);
    // The keyed availability does show them: the page's is a narrower view of the same calendar.
    const keyed = await json(
      await api("GET", `/services/${f.serviceId}/availability?${range(start, plus(start, 30))}`, { key: f.apiKey }),
    );
    expect(keyed.slots[0]).toMatchObject({ booked: 1, remaining: 2, bookable: true });
  });
});
