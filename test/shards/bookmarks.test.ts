/**
 * Reads from replicas (src/shards/session.ts): every keyed answer carries the D1 bookmark of its
 * session, and a read that sends it back is answered at least that fresh. The local runtime has
 * no replicas, so what these tests show is the header's round trip and that a session started at
 * a bookmark never moves back; the freshness across copies is D1's own guarantee.
 */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json } from "../support/api";
import { at, bookingBody, postBooking } from "../support/bookings";

const BOOKMARK = "X-D1-Bookmark";
const bookmarkShape = /^[0-9a-f]{8}(-[0-9a-f]{8}){2}-[0-9a-f]{32}$/;

describe("happy", () => {
  it("a booking just made is read back with its bookmark, 50 times in a row, each answer at least as fresh", async () => {
    const { apiKey } = await createAccount("Bookmarks", 1);
    const service = await createService(apiKey, { slotIntervalMinutes: 30 });
    for (let i = 0; i < 50; i++) {
      const start = at(
        2 + Math.floor(i / 16),
        `${String(9 + Math.floor((i % 16) / 2)).padStart(2, "0")}:${i % 2 ? "30" : "00"}`,
      );
      const created = await postBooking(apiKey, bookingBody(service.id, start));
      expect(created.status).toBe(201);
      const written = created.headers.get(BOOKMARK) ?? "";
      expect(written).toMatch(bookmarkShape);
      const { id } = await json(created);
      const read = await api("GET", `/bookings/${id}`, { key: apiKey, headers: { [BOOKMARK]: written } });
      expect(read.status).toBe(200);
      expect((await json(read)).id).toBe(id);
      const list = await api("GET", `/bookings?serviceId=${service.id}`, {
        key: apiKey,
        headers: { [BOOKMARK]: written },
      });
      expect((await json(list)).data.map((b: { id: string }) => b.id)).toContain(id);
      const after = list.headers.get(BOOKMARK) ?? "";
      expect(after).toMatch(bookmarkShape);
      // Fixed-width hex: a later bookmark sorts after an earlier one.
      expect(after >= written).toBe(true);
    }
  });

  it("a read without a bookmark gets one; a value that is not a bookmark is not used, and the read still answers", async () => {
    const { apiKey } = await createAccount("Bookmarks unsent", 0);
    const plain = await api("GET", "/services", { key: apiKey });
    expect(plain.status).toBe(200);
    expect(plain.headers.get(BOOKMARK)).toMatch(bookmarkShape);
    for (const junk of ["not a bookmark", "'; DROP TABLE bookings; --", "x".repeat(500)]) {
      const res = await api("GET", "/services", { key: apiKey, headers: { [BOOKMARK]: junk } });
      expect(res.status).toBe(200);
      expect(res.headers.get(BOOKMARK)).toMatch(bookmarkShape);
    }
  });

  it("a problem answer carries no bookmark, as the document declares it only on successes", async () => {
    const { apiKey } = await createAccount("Bookmarks on problems", 0);
    const missing = await api("GET", "/services/svc_00000000000000000000000000/availability", { key: apiKey });
    expect(missing.status).toBe(404);
    expect(missing.headers.get(BOOKMARK)).toBeNull();
    const invalid = await api("POST", "/services", { key: apiKey, body: { name: "" } });
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get(BOOKMARK)).toBeNull();
  });
});
