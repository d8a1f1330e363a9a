/**
 * A booking storm through MCP: tools/call book_appointment carries the calendar's guarantee, so
 * however many agents race for one seat, one books it and every other one is told why not.
 */
import { describe, expect, it } from "vitest";
import { createAccount, createService } from "../support/api";
import { at, d1Bookings, plus, slotAt } from "../support/bookings";
import { callTool, refusalOf } from "../support/mcp";

describe("30 concurrent book_appointment calls for one seat", () => {
  it("book it exactly once; the 29 others are isError slot_unavailable results", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    const startTime = at(3, "10:00");
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        callTool(apiKey, "book_appointment", {
          serviceId: service.id,
          startTime,
          endTime: plus(startTime, 30),
          customerName: `Agent ${i}`,
          customerEmail: `agent-${i}-${crypto.randomUUID()}@example.com`,
          idempotencyKey: crypto.randomUUID(),
        }),
      ),
    );
    const won = results.filter((r) => !r.isError);
    expect(won).toHaveLength(1);
    for (const result of results.filter((r) => r.isError)) {
      expect(refusalOf(result, "slot_unavailable").problem.reason).toBe("fully_booked");
    }
    const rows = await d1Bookings(businessId, service.id);
    expect(rows.map((r) => r.id)).toEqual([won[0].structuredContent.id]);
    expect(await slotAt(apiKey, service.id, startTime)).toMatchObject({ booked: 1, remaining: 0, bookable: false });
  });
});
