/** GET /waitlist?serviceId&status: a service's entries in queue order. */
import { describe, expect, it } from "vitest";
import { api, createAccount, json, problem, validationError } from "../../helpers";
import { expectUnauthorized, revokedKey } from "../../support/security";
import { fullSlot, join, joinBody } from "../../waitlist/support";

const list = (key: string | undefined, query: string) => api("GET", `/waitlist?${query}`, { key });

describe("happy", () => {
  it("200 with the entries in the order they were queued; status narrows; limit bounds", async () => {
    const s = await fullSlot();
    const entries = [
      await join(s.apiKey, joinBody(s)),
      await join(s.apiKey, joinBody(s)),
      await join(s.apiKey, joinBody(s)),
    ];
    await api("DELETE", `/waitlist/${entries[1]?.id}`, { key: s.apiKey });
    const all = await json(await list(s.apiKey, `serviceId=${s.serviceId}`));
    expect(all.data.map((e: { id: string }) => e.id)).toEqual(entries.map((e) => e.id));
    const waiting = await json(await list(s.apiKey, `serviceId=${s.serviceId}&status=WAITING`));
    expect(waiting.data.map((e: { id: string; position: number }) => [e.id, e.position])).toEqual([
      [entries[0]?.id, 1],
      [entries[2]?.id, 2],
    ]);
    expect((await json(await list(s.apiKey, `serviceId=${s.serviceId}&limit=1`))).data).toHaveLength(1);
  });
});

describe("error", () => {
  it("422 without serviceId, for an unknown status or limit, and for an unknown service", async () => {
    const s = await fullSlot();
    await validationError(await list(s.apiKey, ""), "serviceId");
    await validationError(await list(s.apiKey, `serviceId=${s.serviceId}&status=LATE`), "status");
    await validationError(await list(s.apiKey, `serviceId=${s.serviceId}&limit=101`), "limit");
    await validationError(await list(s.apiKey, "serviceId=svc_nope"), "serviceId");
  });
});

describe("security", () => {
  it("401 without a key and with a revoked one", async () => {
    const s = await fullSlot();
    await expectUnauthorized(await list(undefined, `serviceId=${s.serviceId}`), false);
    await expectUnauthorized(await list(await revokedKey(s.businessId), `serviceId=${s.serviceId}`), true);
  });

  it("another business's service is refused like an unknown one, and none of its entries shows", async () => {
    const s = await fullSlot();
    const queued = await join(s.apiKey, joinBody(s));
    const other = await createAccount("Other");
    const res = await list(other.apiKey, `serviceId=${s.serviceId}`);
    const body = await problem(res, 422, "validation_failed");
    expect(JSON.stringify(body)).not.toContain(queued.id);
  });
});
