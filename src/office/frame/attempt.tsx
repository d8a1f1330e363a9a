/**
 * An office form that makes something carries one attempt: a random id in a hidden field, which
 * its post uses as the `Idempotency-Key` of the API's own store (lib/idempotency.ts, kept 24
 * hours). The same form sent again — a second click, a reload of the page that answered it, the
 * browser's history — finds the first post's outcome instead of making a second thing.
 */
import { ApiError } from "../../lib/api-error";
import type { FormFields } from "../../pages/form";

/** What an attempt looks like (a UUID); a form without one makes its thing without a key. */
const attemptPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The form's attempt as an idempotency key under `purpose` (one form's attempts never meet
 * another's), or undefined when the form carries none.
 */
export const attemptKey = (fields: FormFields, purpose: string) =>
  attemptPattern.test(fields.attempt ?? "") ? `office-${purpose}:${fields.attempt}` : undefined;

/** The hidden field of a form's attempt: `value` when the form comes back as sent, else a new one. */
export function AttemptField(props: { value?: string }) {
  return <input type="hidden" name="attempt" value={props.value ?? crypto.randomUUID()} />;
}

/**
 * `run`'s outcome; while the attempt's first post is still at work (a double click), the second
 * waits for it (up to 5 s) rather than refusing, and so gets the first one's outcome.
 */
export async function firstClick<T>(run: () => Promise<T>): Promise<T> {
  for (let wait = 0; ; wait++) {
    try {
      return await run();
    } catch (error) {
      const inFlight = error instanceof ApiError && error.code === "idempotency_key_in_flight";
      if (!inFlight || wait === 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
