/**
 * The demo's booking page against the dev server: its public JSON (services, times, a hold, its
 * booking, without a key, CORS open), and the HTML page and manage page a browser gets.
 */
import { describe, expect, it } from "vitest";
import { anonymous, api, createOpenService, expectProblem, origin, plusMinutes, raw, unique, utcAt } from "./support";

/** `npm run dev` gives the demo business its page here. */
const slug = "demo-salon";

describe("the demo's booking page", () => {
  it("a visitor lists the services, reads a day's times, holds one and books it; the business sees the booking", async () => {
    const service = await createOpenService({ name: unique("Online service"), bookableOnline: true });
    const listed = await anonymous.GET("/public/{slug}/services", { params: { path: { slug } } });
    expect(listed.response.status).toBe(200);
    expect(listed.data?.business).toMatchObject({ name: "Demo Salon", timezone: "Europe/Berlin" });
    const offered = listed.data?.services.find((s) => s.id === service.id);
    expect(offered).toMatchObject({ name: service.name, durationMinutes: 30, providers: [] });
    expect(listed.data?.services.map((s) => s.name)).toEqual(
      expect.arrayContaining(["Haircut", "Beard trim", "Group yoga class"]),
    );

    const from = utcAt(12, 9);
    const times = await anonymous.GET("/public/{slug}/services/{id}/availability", {
      params: { path: { slug, id: service.id }, query: { from, to: utcAt(12, 10) } },
    });
    expect(times.data?.slots).toEqual([
      { startTime: from, endTime: plusMinutes(from, 30), bookable: true },
      { startTime: plusMinutes(from, 30), endTime: utcAt(12, 10), bookable: true },
    ]);

    const held = await anonymous.POST("/public/{slug}/holds", {
      params: { path: { slug } },
      body: { serviceId: service.id, startTime: from, endTime: plusMinutes(from, 30) },
    });
    expect(held.response.status).toBe(201);
    const hold = held.data as { id: string; holdToken: string; expiresAt: string };
    const wrong = await anonymous.POST("/public/{slug}/bookings", {
      params: { path: { slug } },
      body: {
        holdId: hold.id,
        holdToken: "A".repeat(43),
        customerName: "Mallory",
        customerEmail: "mallory@example.com",
      },
    });
    expectProblem(wrong.response, wrong.error, 422, "validation_failed");
    const booked = await anonymous.POST("/public/{slug}/bookings", {
      params: { path: { slug } },
      body: {
        holdId: hold.id,
        holdToken: hold.holdToken,
        customerName: "Frances Allen",
        customerEmail: `${unique("frances")}@example.com`,
      },
    });
    expect(booked.response.status).toBe(201);
    expect(booked.data).toMatchObject({ status: "CONFIRMED", startTime: from, customerName: "Frances Allen" });
    const view = await fetch(booked.data?.manageUrl as string);
    expect(await view.json()).toEqual(booked.data);
    const stored = await api.GET("/bookings/{id}", { params: { path: { id: booked.data?.id as string } } });
    expect(stored.data).toMatchObject({ serviceId: service.id, startTime: from, status: "CONFIRMED" });
    const again = await anonymous.POST("/public/{slug}/bookings", {
      params: { path: { slug } },
      body: {
        holdId: hold.id,
        holdToken: hold.holdToken,
        customerName: "Frances Allen",
        customerEmail: "frances@example.com",
      },
    });
    expectProblem(again.response, again.error, 409, "hold_expired");
  });

  it("answers any origin, and nothing for a page that is not there", async () => {
    const cross = await raw("GET", "/public/{slug}/services", {
      params: { slug },
      auth: false,
      headers: { Origin: "https://shop.example" },
    });
    expect(cross.headers.get("access-control-allow-origin")).toBe("*");
    await cross.body?.cancel();
    const none = await anonymous.GET("/public/{slug}/services", { params: { path: { slug: "no-such-page" } } });
    expectProblem(none.response, none.error, 404, "not_found");
  });

  it("the page itself is HTML for a browser, at /book/demo-salon; the manage link too", async () => {
    const page = await fetch(`${origin}/book/${slug}`, { headers: { Accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=UTF-8");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors *");
    expect(await page.text()).toContain("Choose a service");
    const service = await createOpenService({ name: unique("Managed online"), bookableOnline: true });
    const start = utcAt(13, 9);
    const made = await api.POST("/bookings", {
      body: {
        serviceId: service.id,
        customerName: "Ada",
        customerEmail: `${unique("ada")}@example.com`,
        startTime: start,
        endTime: plusMinutes(start, 30),
      },
    });
    const manage = await fetch(made.data?.manageUrl as string, { headers: { Accept: "text/html,*/*;q=0.8" } });
    expect(manage.status).toBe(200);
    expect(manage.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    expect(await manage.text()).toContain(service.name);
  });
});
