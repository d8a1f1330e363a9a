/** GET /resources/{id}: one resource, with its version as ETag. */
import { describe, expect, it } from "vitest";
import { api, createAccount, json, problem } from "../../support/api";
import { createResource } from "../../support/fixtures";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

describe("happy", () => {
  it("returns the resource as created, with the ETag; If-None-Match with it is a 304", async () => {
    const { apiKey } = await createAccount();
    const resource = await createResource(apiKey, { quantity: 2 });
    const res = await api("GET", `/resources/${resource.id}`, { key: apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get("ETag")).toBe('"v1"');
    expect(await json(res)).toEqual(resource);
    const again = await api("GET", `/resources/${resource.id}`, { key: apiKey, headers: { "If-None-Match": '"v1"' } });
    expect(again.status).toBe(304);
  });
});

describe("error", () => {
  it("an unknown id is 404 not_found", async () => {
    const { apiKey } = await createAccount();
    await problem(await api("GET", "/resources/res_unknown", { key: apiKey }), 404, "not_found");
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge", async () => {
    const { apiKey } = await createAccount();
    const resource = await createResource(apiKey);
    await expectUnauthorized(await api("GET", `/resources/${resource.id}`), false);
  });

  it("a revoked key: 401", async () => {
    const { apiKey, businessId } = await createAccount();
    const resource = await createResource(apiKey);
    await expectUnauthorized(
      await api("GET", `/resources/${resource.id}`, { key: await revokedKey(businessId) }),
      true,
    );
  });

  it("another business's resource is the 404 of an unknown id, naming nothing of the owner", async () => {
    const owner = await createAccount("Owner Spa");
    const other = await createAccount("Other");
    const resource = await createResource(owner.apiKey, { name: "Sauna Secret" });
    const unknownId = unknownIdLike(resource.id);
    await expectNotFoundLikeUnknown(
      await api("GET", `/resources/${resource.id}`, { key: other.apiKey }),
      resource.id,
      await api("GET", `/resources/${unknownId}`, { key: other.apiKey }),
      unknownId,
      ["Owner Spa", "Sauna Secret", owner.businessId],
    );
  });
});
