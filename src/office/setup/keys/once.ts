/**
 * The one way the API keys and webhooks pages make what they show a secret of: the form's attempt
 * (frame/attempt.tsx) is the make's idempotency key, so the same form sent again — a reload of the
 * page showing the secret, the browser's history, a second click — makes nothing more. What the
 * store keeps of the first post's outcome is only what the page names (a key's name, an
 * endpoint's address), never the secret: the secret exists on the first answer alone, and a
 * re-send is told that it was made then and is not shown again.
 */
import { ApiError } from "../../../lib/api-error";
import { idempotentUnder } from "../../../lib/idempotency";
import type { z } from "../../../lib/zod";
import type { FormFields } from "../../../pages/form";
import { attemptKey, firstClick } from "../../frame/attempt";
import type { DeskContext } from "../../frame/desk";
import { type Saved, saveWith } from "../save";

/** What a make came to: made now (with its secret), made by this form before, or the form sent again changed. */
export type Made<T> = { kind: "made"; shown: T; secret: string } | { kind: "resent"; shown: T } | { kind: "reused" };

/**
 * Checks `body` with `schema`, then runs `make` at most once for the form's attempt under
 * `purpose`. `make` answers what the page names (`shown`, kept for a re-send) and the secret
 * (kept by no one). Problems and refusals come back as `saveWith`'s.
 */
export async function makeOnce<S extends z.ZodType, T>(
  c: DeskContext,
  sent: FormFields,
  purpose: string,
  schema: S,
  body: unknown,
  make: (data: z.infer<S>) => Promise<{ shown: T; secret: string }>,
): Promise<Saved<Made<T>>> {
  const key = attemptKey(sent, purpose);
  return saveWith(c, schema, body, async (data): Promise<Made<T>> => {
    // Only this request's own make sets it: a replay's answer carries no secret.
    let secret: string | undefined;
    try {
      const outcome = await firstClick(() =>
        idempotentUnder(c, key, data, 201, async () => {
          const made = await make(data);
          secret = made.secret;
          return { body: made.shown };
        }),
      );
      return secret === undefined
        ? { kind: "resent", shown: outcome.body }
        : { kind: "made", shown: outcome.body, secret };
    } catch (error) {
      // The attempt made something from other fields: this is not a re-send of that form.
      if (error instanceof ApiError && error.code === "idempotency_key_reused") return { kind: "reused" };
      throw error;
    }
  });
}
