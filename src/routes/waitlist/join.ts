import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { answerOnce } from "../../lib/idempotency";
import { JoinWaitlistSchema, WaitlistEntrySchema } from "../../schemas/waitlist";
import { needs } from "../../types/scopes";
import { joinWaitlist } from "../../waitlist/join";
import { idempotentCreate } from "../operations";

const route = createRoute({
  method: "post",
  path: "/",
  operationId: "joinWaitlist",
  tags: ["Waitlist"],
  summary: "Queue for a full slot",
  description: [
    "Queues the customer for a slot with no free seat (a free one is a 409 `slot_available`: book it instead). The slot must be one a booking could take (422 for timing, 409 `slot_unavailable` `outside_working_hours`). The entry is WAITING with its `position` in the slot's queue.",
    "When a seat of that slot frees — a cancel, a move, a hold released or expired, a status change — the first WAITING entry is offered a hold of 15 minutes: it becomes OFFERED with `holdId`, and a `waitlist.offered` webhook event is sent. Booking the hold (`POST /bookings {holdId}`) makes it BOOKED; an offer not booked in time becomes EXPIRED and the seat is offered to the next entry, with no request needed. An entry still WAITING when its slot begins is EXPIRED too.",
    "Bounds: 50 entries per slot, 2,000 per service for slots that have not begun, 200 per API key per 24 hours (else 409 `waitlist_full`). Entries are dropped 30 days after their slot ended. `Idempotency-Key` works as on `POST /bookings`.",
  ].join("\n\n"),
  security: needs("bookings:write"),
  ...idempotentCreate(JoinWaitlistSchema, "The entry; `Location` points at it.", WaitlistEntrySchema),
});

export const registerJoinWaitlist = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    return answerOnce(c, body, 201, async () => {
      const entry = await joinWaitlist(c.env, c.var.db, c.var.caller, body);
      return { body: entry, location: `/api/v1/waitlist/${entry.id}` };
    });
  });
