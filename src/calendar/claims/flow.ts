/**
 * The claim protocol's asynchronous half (docs/consistency.md, "The claim protocol"). The entry
 * calendar has written a tentative row that holds its seat and lists the claims it needs, with a
 * deadline; this claims each in the global order, then hands the outcome to the caller's next
 * transaction: confirm the row, try another candidate (releasing what was granted), or give up
 * (releasing everything). A reset at any point leaves the tentative row to its deadline alarm,
 * which releases every claim it lists; claims and releases are idempotent by claim id.
 */

import type { ClaimNeed, ClaimReason, ClaimRef } from "../claim-types";
import { claimedCalendarOf } from "../stubs";

/** How long a tentative row may wait for the calendars it claims before the alarm gives it up. */
export const TENTATIVE_MS = 30_000;

/** One try at a row: the claims it needs, in order, and the candidates tried so far. */
export type Attempt = { rowId: string; businessId: string; needs: ClaimNeed[]; tried: string[] };

/** The next thing to do: answer, or make an attempt's claims. */
export type Step<R> = { kind: "done"; result: R } | { kind: "claim"; attempt: Attempt };

/** A claimed calendar refused: why, and the claims granted before it (to release). */
export type Refused = { reason: ClaimReason; detail: string; granted: ClaimRef[] };

type Outcome = { ok: true } | { ok: false; refused: Refused } | { ok: false; unknown: ClaimRef[] };

/**
 * Claims every need in order, stopping at the first refusal. A claim that throws has an unknown
 * outcome: it and everything granted before it must be released.
 */
async function claimAll(env: Env, attempt: Attempt): Promise<Outcome> {
  const granted: ClaimRef[] = [];
  for (const { command, ...ref } of attempt.needs) {
    let answer: Awaited<ReturnType<ReturnType<typeof claimedCalendarOf>["claim"]>>;
    try {
      answer = await claimedCalendarOf(env, attempt.businessId, ref).claim(command as never);
    } catch {
      return { ok: false, unknown: [...granted, ref] };
    }
    if (!answer.ok) return { ok: false, refused: { reason: answer.reason, detail: answer.detail, granted } };
    granted.push(ref);
  }
  return { ok: true };
}

/** What the caller does with each outcome, each inside one of its transactions. */
export type ClaimHandlers<R> = {
  /** Every claim was granted. */
  confirm: (attempt: Attempt) => R;
  /** A calendar refused: the next candidate, or the refusal. */
  refused: (attempt: Attempt, refused: Refused) => Step<R>;
  /** A calendar did not answer: nothing may stay held. */
  unanswered: (attempt: Attempt, claims: ClaimRef[]) => R;
};

/** Runs a step to its answer: claims, then the caller's transaction for the outcome, until done. */
export async function runClaims<R>(
  storage: DurableObjectStorage,
  env: Env,
  first: Step<R>,
  on: ClaimHandlers<R>,
): Promise<R> {
  let step = first;
  while (step.kind === "claim") {
    const attempt = step.attempt;
    const outcome = await claimAll(env, attempt);
    if (outcome.ok) return storage.transactionSync(() => on.confirm(attempt));
    if ("unknown" in outcome) {
      const unknown = outcome.unknown;
      return storage.transactionSync(() => on.unanswered(attempt, unknown));
    }
    const refused = outcome.refused;
    step = storage.transactionSync(() => on.refused(attempt, refused));
  }
  return step.result;
}
