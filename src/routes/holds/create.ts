import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { createHold, MAX_LIVE_HOLDS_PER_KEY } from "../../holds/create";
import { bodyProblems, jsonResponse, problemResponses } from "../../lib/openapi";
import { throwRefusal } from "../../refusals";
import { CreateHoldSchema, HoldSchema } from "../../schemas/holds";
import { needs } from "../../types/scopes";

const route = createRoute({
  method: "post",
  path: "/",
  operationId: "createHold",
  tags: ["Holds"],
  summary: "Keep a seat for a few minutes",
  description: `Checks the same rules as a booking and keeps the seat (and, on a service with providers, the person's time) until \`expiresAt\` (\`ttlSeconds\` from now). Book it with \`POST /bookings\` and \`holdId\`; \`DELETE /holds/{id}\` frees it at once; otherwise it frees itself on time. At most ${MAX_LIVE_HOLDS_PER_KEY} live holds per API key (\`409 hold_limit_reached\` beyond). Refusals are those of \`POST /bookings\`.`,
  security: needs("bookings:write"),
  request: { body: { required: true, content: { "application/json": { schema: CreateHoldSchema } } } },
  responses: {
    201: jsonResponse("The hold; `Location` points at it.", HoldSchema, { required: ["Location"] }),
    ...problemResponses(409, 503, ...bodyProblems),
  },
});

export const registerCreateHold = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const result = await createHold(c.env, c.var.db, c.var.caller, c.req.valid("json"));
    if (!result.ok) throwRefusal(result.refusal);
    c.header("Location", `/api/v1/holds/${result.hold.id}`);
    return c.json(result.hold, 201);
  });
