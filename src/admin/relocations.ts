/**
 * `/internal/businesses/{id}/relocation`: an operator relocates a business to another shard (src/relocations). The
 * relocation runs in its own object, step by step, re-driven by its alarm; these routes start it and
 * read where it is.
 */
import { zValidator } from "@hono/zod-validator";
import { Hono } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/api-error";
import { fieldErrors } from "../lib/validation";
import { z } from "../lib/zod";

const RelocationSchema = z.strictObject({
  shard: z.number().int().min(0).max(63),
  /** Seconds writes are held before the calendars are sealed and the copy starts. */
  graceSeconds: z.number().int().min(0).max(300).default(30),
});

const businessIdPattern = /^biz_[0-9a-z]{26}$/;

const relocationOf = (env: Env, businessId: string) =>
  env.BUSINESS_RELOCATION.get(env.BUSINESS_RELOCATION.idFromName(businessId));

function businessIdOf(id: string): string {
  if (!businessIdPattern.test(id)) throw new ApiError("not_found", `No business ${id}.`);
  return id;
}

/** Mounted at `/internal/businesses`. */
export const relocationsApp = new Hono<AppEnv>();

/** Starts moving the business to `shard` (202 with the relocation), or answers the one under way to it. */
relocationsApp.post(
  "/:businessId/relocation",
  zValidator("json", RelocationSchema, (result) => {
    if (!result.success) {
      throw new ApiError("validation_failed", "The request body is invalid.", { errors: fieldErrors(result.error) });
    }
  }),
  async (c) => {
    const businessId = businessIdOf(c.req.param("businessId"));
    const { shard, graceSeconds } = c.req.valid("json");
    const answer = await relocationOf(c.env, businessId).start(businessId, shard, graceSeconds);
    if ("refused" in answer) {
      throw new ApiError(answer.refused.startsWith("No business") ? "not_found" : "validation_failed", answer.refused, {
        errors: answer.refused.startsWith("No business") ? undefined : [{ path: "shard", message: answer.refused }],
      });
    }
    return c.json(answer, 202);
  },
);

/** Where the business's last relocation is (404: it never moved). */
relocationsApp.get("/:businessId/relocation", async (c) => {
  const businessId = businessIdOf(c.req.param("businessId"));
  const relocation = await relocationOf(c.env, businessId).status();
  if (!relocation) throw new ApiError("not_found", `The business ${businessId} has not moved.`);
  return c.json(relocation);
});
