/**
 * GET /bookings/{id}/messages: the e-mails to the booking's customer, oldest first, each with its
 * status. What the messages say and how they are sent: test/messages/.
 */
import type { z } from "@hono/zod-openapi";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { toMessage } from "../../../src/messages/records";
import type { MessageSchema } from "../../../src/schemas/messages";
import { api, createAccount, createService, json, problem, validationError } from "../../support/api";
import { at, bookingBody } from "../../support/bookings";
import { mailingBusiness, messagesOf, settledMessages } from "../../support/messages";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

const messageFields = [
  "attempts",
  "createdAt",
  "detail",
  "groupId",
  "id",
  "kind",
  "messageIdHeader",
  "reason",
  "sentAt",
  "status",
  "subject",
  "to",
];

const list = (key: string | null, bookingId: string, query = "") =>
  api("GET", `/bookings/${bookingId}/messages${query}`, { key });

describe("happy", () => {
  it("lists the booking's messages oldest first, in the documented shape, with Link", async () => {
    const m = await mailingBusiness();
    const booking = await json(
      await api("POST", "/bookings", {
        key: m.apiKey,
        body: bookingBody(m.service.id, at(3, "10:00"), { customerName: "Zelda Quixotewright" }),
      }),
    );
    await settledMessages(m.apiKey, booking.id, 1);
    expect((await api("POST", `/bookings/${booking.id}/cancel`, { key: m.apiKey, body: {} })).status).toBe(200);
    const messages = await settledMessages(m.apiKey, booking.id, 2);
    expect(messages.map((x) => x.kind)).toEqual(["confirmation", "cancelled"]);

    const res = await list(m.apiKey, booking.id, "?limit=1");
    expect(res.status).toBe(200);
    const page = await json(res);
    expect(page.pagination).toEqual({ page: 1, limit: 1, total: 2, totalPages: 2, hasMore: true });
    expect(res.headers.get("Link")).toContain(`</api/v1/bookings/${booking.id}/messages?limit=1&page=2>; rel="next"`);
    const [first] = page.data;
    expect(Object.keys(first).sort()).toEqual(messageFields);
    expect(first).toEqual({
      id: expect.stringMatching(/^msg_[0-9a-z]{26}$/),
      kind: "confirmation",
      to: booking.customerEmail,
      subject: expect.stringMatching(/^Booking confirmed: Haircut, /),
      status: "sent",
      reason: null,
      detail: null,
      groupId: null,
      attempts: 1,
      messageIdHeader: expect.stringMatching(/^<.+>$/),
      createdAt: expect.stringMatching(/Z$/),
      sentAt: expect.stringMatching(/Z$/),
    });
    expect(Date.parse(first.sentAt)).toBeGreaterThanOrEqual(Date.parse(first.createdAt));
    expectTypeOf<ReturnType<typeof toMessage>>().toEqualTypeOf<z.infer<typeof MessageSchema>>();
  });

  it("is empty for a business with e-mails off", async () => {
    const account = await createAccount();
    const service = await createService(account.apiKey);
    const booking = await json(
      await api("POST", "/bookings", { key: account.apiKey, body: bookingBody(service.id, at(3, "11:00")) }),
    );
    const page = await json(await list(account.apiKey, booking.id));
    expect(page).toMatchObject({ data: [], pagination: { total: 0 } });
  });
});

describe("error", () => {
  it("an unknown booking is 404 not_found", async () => {
    const m = await mailingBusiness();
    await problem(await list(m.apiKey, "bkg_unknown"), 404, "not_found");
  });

  it("a bad page or limit, or an unknown parameter, is 422 naming it", async () => {
    const m = await mailingBusiness();
    const booking = await json(
      await api("POST", "/bookings", { key: m.apiKey, body: bookingBody(m.service.id, at(3, "12:00")) }),
    );
    await validationError(await list(m.apiKey, booking.id, "?limit=101"), "limit");
    await validationError(await list(m.apiKey, booking.id, "?page=0"), "page");
    await problem(await list(m.apiKey, booking.id, "?status=sent"), 422, "validation_failed");
    await validationError(await list(m.apiKey, `bkg_${"x".repeat(61)}`), "id");
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge; a revoked key: 401 and nothing of the messages", async () => {
    const m = await mailingBusiness();
    const booking = await json(
      await api("POST", "/bookings", { key: m.apiKey, body: bookingBody(m.service.id, at(3, "13:00")) }),
    );
    await expectUnauthorized(await list(null, booking.id), false);
    const res = await list(await revokedKey(m.businessId), booking.id);
    const text = await res.clone().text();
    await expectUnauthorized(res, true);
    expect(text).not.toContain(booking.customerEmail);
  });

  it("another business gets the 404 of an unknown id, naming nothing of the owner or the customer", async () => {
    const owner = await mailingBusiness();
    const other = await createAccount("Other");
    const booking = await json(
      await api("POST", "/bookings", {
        key: owner.apiKey,
        body: bookingBody(owner.service.id, at(3, "14:00"), { customerEmail: "zelda@example.com" }),
      }),
    );
    await settledMessages(owner.apiKey, booking.id, 1);
    const unknownId = unknownIdLike(booking.id);
    await expectNotFoundLikeUnknown(
      await list(other.apiKey, booking.id),
      booking.id,
      await list(other.apiKey, unknownId),
      unknownId,
      ["zelda@example.com", "Booking confirmed", owner.businessId],
    );
    expect(await messagesOf(owner.apiKey, booking.id)).toHaveLength(1);
  });
});
