/** POST /manage-links/rotate: the business ends every manage link it has sent. */
import { describe, expect, it } from "vitest";
import { api, createAccount, json, problem, validationError } from "../../support/api";
import { bookWithLink, clinic, linkPath, minutesFromNow, viaLink } from "../../support/manage-links";
import { expectUnauthorized, revokedKey } from "../../support/security";

describe("happy", () => {
  it("old links die; every read shows the new link, which works", async () => {
    const c = await clinic();
    const { booking, path } = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(600));
    const res = await api("POST", "/manage-links/rotate", { key: c.apiKey });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ version: 2 });
    await problem(await viaLink("GET", path), 404, "not_found");
    const read = await json(await api("GET", `/bookings/${booking.id}`, { key: c.apiKey }));
    expect(read.manageUrl).not.toBe(booking.manageUrl);
    expect((await viaLink("GET", linkPath(read.manageUrl))).status).toBe(200);
    const again = await json(await api("GET", `/bookings/${booking.id}`, { key: c.apiKey }));
    expect(again.manageUrl).toBe(read.manageUrl);
  });
});

describe("error", () => {
  it("a body with any field is a 422, and the links keep working", async () => {
    const c = await clinic();
    const { path } = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(600));
    await validationError(
      await api("POST", "/manage-links/rotate", { key: c.apiKey, body: { version: 9 } }),
      "version",
    );
    expect((await viaLink("GET", path)).status).toBe(200);
  });
});

describe("security", () => {
  it("needs a live key", async () => {
    const { businessId } = await createAccount();
    await expectUnauthorized(await api("POST", "/manage-links/rotate"), false);
    await expectUnauthorized(await api("POST", "/manage-links/rotate", { key: await revokedKey(businessId) }), true);
  });

  it("another business's links keep working", async () => {
    const mine = await clinic();
    const theirs = await clinic();
    const { path } = await bookWithLink(theirs.apiKey, theirs.serviceId, minutesFromNow(600));
    expect((await api("POST", "/manage-links/rotate", { key: mine.apiKey })).status).toBe(200);
    expect((await viaLink("GET", path)).status).toBe(200);
  });
});
