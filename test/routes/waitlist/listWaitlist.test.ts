/** GET /waitlist?serviceId&status: a service's entries in queue order, by page number or by cursor. */
import { describe, expect, it } from "vitest";
import { api, createAccount, json, problem, validationError } from "../../support/api";
import { expectUnauthorized, revokedKey } from "../../support/security";
import { fullSlot, join, joinBody } from "../../support/waitlist";

const list = (key: string | undefined, query: string) => api("GET", `/waitlist?${query}`, { key });
const idOf = (entry: { id: string }) => entry.id;
const base64url = (text: string) => btoa(text).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");

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

  it("pages by number and by cursor both ways, with the total and Link; a cursor walk takes in later joins", async () => {
    const s = await fullSlot();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await join(s.apiKey, joinBody(s))).id);
    const base = `serviceId=${s.serviceId}&limit=2`;
    const first = await list(s.apiKey, base);
    const firstBody = await json(first);
    expect(firstBody.data.map(idOf)).toEqual(ids.slice(0, 2));
    expect(firstBody.pagination).toMatchObject({ page: 1, limit: 2, total: 5, totalPages: 3, hasMore: true });
    expect(firstBody.pagination.prevCursor).toBeNull();
    expect(first.headers.get("Link")).toContain('rel="next"');
    expect((await json(await list(s.apiKey, `${base}&page=3`))).data.map(idOf)).toEqual(ids.slice(4));

    // Forward by cursor; an entry queued mid-walk comes last, as it stands in the queue.
    const late = (await join(s.apiKey, joinBody(s))).id;
    const seen = [...firstBody.data.map(idOf)];
    let cursor: string | null = firstBody.pagination.nextCursor;
    let last = firstBody;
    while (cursor) {
      const res = await list(s.apiKey, `${base}&after=${cursor}`);
      last = await json(res);
      expect(last.pagination.page).toBeNull();
      if (last.pagination.nextCursor) expect(res.headers.get("Link")).toContain(`after=${last.pagination.nextCursor}`);
      seen.push(...last.data.map(idOf));
      cursor = last.pagination.nextCursor;
    }
    expect(seen).toEqual([...ids, late]);
    expect(last.pagination).toMatchObject({ total: 6, hasMore: false, nextCursor: null });

    // Back from the last page by `before`, to the first.
    const back = await json(await list(s.apiKey, `${base}&before=${last.pagination.prevCursor}`));
    expect(back.data.map(idOf)).toEqual(ids.slice(2, 4));
    const front = await json(await list(s.apiKey, `${base}&before=${back.pagination.prevCursor}`));
    expect(front.data.map(idOf)).toEqual(ids.slice(0, 2));
    expect(front.pagination.prevCursor).toBeNull();

    // A status narrows a cursor walk too.
    await api("DELETE", `/waitlist/${ids[1]}`, { key: s.apiKey });
    const cancelled = await json(await list(s.apiKey, `${base}&status=CANCELLED`));
    expect(cancelled.data.map(idOf)).toEqual([ids[1]]);
    expect(cancelled.pagination).toMatchObject({ total: 1, hasMore: false });
  });
});

describe("error", () => {
  it("422 without serviceId, for an unknown status, limit or query field, and for an unknown service", async () => {
    const s = await fullSlot();
    await validationError(await list(s.apiKey, ""), "serviceId");
    // A typo never silently widens the list: `stauts` would otherwise list every status.
    await validationError(await list(s.apiKey, `serviceId=${s.serviceId}&stauts=WAITING`), "stauts");
    await validationError(await list(s.apiKey, `serviceId=${s.serviceId}&status=LATE`), "status");
    await validationError(await list(s.apiKey, `serviceId=${s.serviceId}&limit=101`), "limit");
    await validationError(await list(s.apiKey, "serviceId=svc_nope"), "serviceId");
  });

  it("422 for a cursor this list did not issue, both cursors at once, a cursor with a page, or a page too deep", async () => {
    const s = await fullSlot();
    const queued = await join(s.apiKey, joinBody(s));
    const base = `serviceId=${s.serviceId}&limit=1`;
    const customers = base64url(JSON.stringify(["cus_01jd3k5v7q8r9s0t1u2v3w4x5y"]));
    const own = base64url(JSON.stringify([queued.id]));
    await validationError(await list(s.apiKey, `${base}&after=${customers}`), "after");
    await validationError(await list(s.apiKey, `${base}&before=not*a*cursor`), "before");
    await validationError(await list(s.apiKey, `${base}&after=${own}&before=${own}`), "before");
    await validationError(await list(s.apiKey, `${base}&after=${own}&page=2`), "page");
    await validationError(await list(s.apiKey, `${base}&page=10002`), "page");
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
