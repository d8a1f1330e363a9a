/**
 * The claim protocol's asynchronous half (docs/consistency.md, "The claim protocol"). The entry
 * calendar has written a tentative row that holds its seat and lists the claims it needs, with a
 * deadline; this claims each in the global order, then hands the outcome to the caller's next
 * transaction: confirm the row, try another candidate (releasing what was granted), or give up
 * (releasing everything). A reset at any point leaves the tentative row to its deadline alarm,
 * which releases every claim it lists; claims and releases are idempotent by claim id.
 */

import type { ClaimNeed, ClaimReason, ClaimRef } from "../claim-types";
import { claimTargetOf } from "../stubs";

/** How long a tentative row may wait for the calendars it claims before the alarm gives it up. */
export const TENTATIVE_MS = 30_000;

/** One try at a row: the claims it needs, in order, and the candidates tried so far. */
export type Attempt = { rowId: string; businessId: string; needs: ClaimNeed[]; tried: string[] };

/** The next thing to do: answer, or make an attempt's claims. */
export type Step<R> = { kind: "done"; result: R } | { kind: "claim"; attempt: Attempt };

/**
 * A claimed calendar refused: which claim, why, and the claims granted before it (to release);
 * `reasons`: every refusal of the flow so far, this one last (is everyone at their limit?).
 */
export type Refused = {
  at: ClaimRef;
  reason: ClaimReason;
  detail: string;
  granted: ClaimRef[];
  reasons?: ClaimReason[];
};

type Outcome = { ok: true } | { ok: false; refused: Refused } | { ok: false; unknown: ClaimRef[] };

/**
 * Claims every need in order, stopping at the first refusal. A claim that throws has an unknown
 * outcome: it and everything granted before it must be released.
 */
async function claimAll(env: Env, attempt: Attempt): Promise<Outcome> {
  const granted: ClaimRef[] = [];
  for (const { command, ...ref } of attempt.needs) {
    let answer: Awaited<ReturnType<ReturnType<typeof claimTargetOf>["claim"]>>;
    try {
      answer = await claimTargetOf(env, attempt.businessId, ref).claim(command);
    } catch {
      return { ok: false, unknown: [...granted, ref] };
    }
    if (!answer.ok) return { ok: false, refused: { at: ref, reason: answer.reason, detail: answer.detail, granted } };
    granted.push(ref);
  }
  return { ok: true };
}

/**
 * The phases of a flow that claims other calendars, each one transaction of the entry calendar:
 * the checks and the seat (`begin`), then for each attempt's outcome — every claim granted, a
 * calendar refused (the next candidate, or the refusal), a calendar did not answer (nothing may
 * stay held).
 */
export type Phases<C, R> = {
  begin: (flow: C, now: number) => Step<R>;
  confirm: (flow: C, attempt: Attempt, now: number) => R;
  refused: (flow: C, attempt: Attempt, refused: Refused, now: number) => Step<R>;
  unanswered: (flow: C, attempt: Attempt, claims: ClaimRef[], now: number) => R;
};

/** The phases of a flow, in their order. */
export const phases = <C, R>(
  begin: Phases<C, R>["begin"],
  confirm: Phases<C, R>["confirm"],
  refused: Phases<C, R>["refused"],
  unanswered: Phases<C, R>["unanswered"],
): Phases<C, R> => ({ begin, confirm, refused, unanswered });

/** Runs a flow to its answer: its first step, claims, then the phase for the outcome, until done. */
export async function runClaims<C, R>(
  storage: DurableObjectStorage,
  env: Env,
  phases: Phases<C, R>,
  flow: C,
): Promise<R> {
  let step = storage.transactionSync(() => phases.begin(flow, Date.now()));
  const reasons: ClaimReason[] = [];
  while (step.kind === "claim") {
    const attempt = step.attempt;
    const outcome = await claimAll(env, attempt);
    if (outcome.ok) return storage.transactionSync(() => phases.confirm(flow, attempt, Date.now()));
    if ("unknown" in outcome) {
      const unknown = outcome.unknown;
      return storage.transactionSync(() => phases.unanswered(flow, attempt, unknown, Date.now()));
    }
    reasons.push(outcome.refused.reason);
    const refused = { ...outcome.refused, reasons: [...reasons] };
    step = storage.transactionSync(() => phases.refused(flow, attempt, refused, Date.now()));
  }
  return step.result;
}
