/** GET /services/{id}: one service, with its ETag. */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json, problem, validationError } from "../../support/api";
import { newProvider } from "../../support/fixtures";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

describe("happy", () => {
  it("gets a service by id", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const res = await api("GET", `/services/${service.id}`, { key: apiKey });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual(service);
  });

  it("sends a strong ETag; If-None-Match with it is a 304 without a body, a stale one gets the new copy", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const path = `/services/${service.id}`;
    const first = await api("GET", path, { key: apiKey });
    const etag = first.headers.get("ETag") as string;
    expect(etag).toMatch(/^"[^"\s]+"$/);
    const notModified = await api("GET", path, { key: apiKey, headers: { "If-None-Match": etag } });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe("");
    expect(notModified.headers.get("ETag")).toBe(etag);

    expect((await api("PATCH", path, { key: apiKey, body: { name: "Renamed" } })).status).toBe(200);
    const changed = await api("GET", path, { key: apiKey, headers: { "If-None-Match": etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("ETag")).not.toBe(etag);
    expect((await json(changed)).name).toBe("Renamed");
  });

  it("lists the providers who perform it, sorted", async () => {
    const { apiKey } = await createAccount();
    const a = await newProvider(apiKey, "A");
    const b = await newProvider(apiKey, "B");
    const service = await createService(apiKey, { providerIds: [b, a] });
    expect((await json(await api("GET", `/services/${service.id}`, { key: apiKey }))).providerIds).toEqual(
      [a, b].sort(),
    );
  });
});

describe("error", () => {
  it("an unknown id is 404 not_found", async () => {
    const { apiKey } = await createAccount();
    await problem(await api("GET", "/services/svc_unknown", { key: apiKey }), 404, "not_found");
  });

  it("an id longer than 64 characters is 422 at id", async () => {
    const { apiKey } = await createAccount();
    await validationError(await api("GET", `/services/svc_${"x".repeat(61)}`, { key: apiKey }), "id");
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    await expectUnauthorized(await api("GET", `/services/${service.id}`), false);
  });

  it("a revoked key gets a 401 and not the service", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey, { name: "Secret recipe" });
    const res = await api("GET", `/services/${service.id}`, { key: await revokedKey(businessId) });
    const text = await res.clone().text();
    await expectUnauthorized(res, true);
    expect(text).not.toContain("Secret recipe");
  });

  it("another business gets the 404 of an unknown id, naming nothing of the owner", async () => {
    const owner = await createAccount("Owner Spa");
    const other = await createAccount("Other");
    const service = await createService(owner.apiKey, { name: "Owner's massage" });
    const unknownId = unknownIdLike(service.id);
    await expectNotFoundLikeUnknown(
      await api("GET", `/services/${service.id}`, { key: other.apiKey }),
      service.id,
      await api("GET", `/services/${unknownId}`, { key: other.apiKey }),
      unknownId,
      ["Owner Spa", "Owner's massage", owner.businessId],
    );
    expect((await json(await api("GET", `/services/${service.id}`, { key: owner.apiKey }))).name).toBe(
      "Owner's massage",
    );
  });
});
