/**
 * The claim protocol's asynchronous half (docs/consistency.md, "The claim protocol"). The entry
 * calendar has written a tentative row that holds its seat and lists the claims it needs, with a
 * deadline; this claims them in the global order (one call per calendar), then hands the outcome
 * to the caller's next transaction: confirm the row, try other candidates (releasing what was
 * granted), or give up (releasing everything). A reset at any point leaves the tentative row to its deadline alarm,
 * which releases every claim it lists; claims and releases are idempotent by claim id.
 */

import type { ClaimNeed, ClaimReason, ClaimRef, ClaimsResult } from "../claim-types";
import { claimTargetOf } from "../stubs";
import { anySettled, fly } from "./in-flight";

/** How long a tentative row may wait for the calendars it claims before the alarm gives it up. */
export const TENTATIVE_MS = 30_000;

/** One try at a row: the claims it needs, in order, and the candidates tried so far. */
export type Attempt = { rowId: string; businessId: string; needs: ClaimNeed[]; tried: string[] };

/**
 * The next thing to do: answer, or make an attempt's claims — or, from the first step only, answer
 * `result` unless one of `rows` (tentative rows of sibling requests holding the seat) is in
 * flight here: then wait until one is settled and take the first step again.
 */
export type Next<R> =
  | { kind: "done"; result: R }
  | { kind: "claim"; attempt: Attempt }
  | { kind: "wait"; rows: string[]; result: R };

/** A claimed calendar refused a claim: which, why, and whom it could still grant it to (ClaimResult). */
export type Refusal = { at: ClaimRef; reason: ClaimReason; detail: string; onlyWith?: string[] };

/**
 * A claimed calendar refused: its first refusal, the others among the claims sent to it in the
 * same call (a series' occurrences), and the claims granted before it (to release); `limited`:
 * the people who refused at their daily limit so far in the flow (was everyone at theirs?).
 */
export type Refused = Refusal & { others: Refusal[]; granted: ClaimRef[]; limited?: string[] };

type Outcome = { ok: true } | { ok: false; refused: Refused } | { ok: false; unknown: ClaimRef[] };

/** The needs in runs of one calendar each (they come sorted by calendar: claimOrder). */
function byCalendar(needs: readonly ClaimNeed[]): ClaimNeed[][] {
  const runs: ClaimNeed[][] = [];
  for (const need of needs) {
    const run = runs.at(-1);
    const first = run?.[0];
    if (run && first && first.calendar === need.calendar && first.id === need.id) run.push(need);
    else runs.push([need]);
  }
  return runs;
}

/**
 * Claims every need, one call per calendar in order, stopping at the first calendar that refuses.
 * A call that throws has an unknown outcome: its claims and everything granted before them must
 * be released.
 */
async function claimAll(env: Env, attempt: Attempt): Promise<Outcome> {
  const granted: ClaimRef[] = [];
  for (const run of byCalendar(attempt.needs)) {
    const refs = run.map(({ command: _command, ...ref }) => ref);
    let answer: ClaimsResult;
    try {
      answer = await claimTargetOf(env, attempt.businessId, refs[0] as ClaimRef).claimEach(run.map((n) => n.command));
    } catch {
      return { ok: false, unknown: [...granted, ...refs] };
    }
    if (!answer.ok) {
      const [first, ...others] = answer.refused.map(
        ({ index, reason, detail, onlyWith }): Refusal => ({
          at: refs[index] as ClaimRef,
          reason,
          detail,
          onlyWith,
        }),
      );
      return { ok: false, refused: { ...(first as Refusal), others, granted } };
    }
    granted.push(...refs);
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
  begin: (flow: C, now: number) => Next<R>;
  confirm: (flow: C, attempt: Attempt, now: number) => R;
  refused: (flow: C, attempt: Attempt, refused: Refused, now: number) => Next<R>;
  unanswered: (flow: C, attempt: Attempt, claims: ClaimRef[], now: number) => R;
};

/** The phases of a flow, in their order. */
export const phases = <C, R>(
  begin: Phases<C, R>["begin"],
  confirm: Phases<C, R>["confirm"],
  refused: Phases<C, R>["refused"],
  unanswered: Phases<C, R>["unanswered"],
): Phases<C, R> => ({ begin, confirm, refused, unanswered });

/**
 * Runs a flow to its answer: its first step, claims, then the phase for the outcome, until done.
 * A first step refused only for seats that siblings' tentative rows hold waits (at most
 * TENTATIVE_MS) until one of them is settled and is taken again: a sibling refused by a person
 * frees its seat, and this request then meets the person's refusal itself.
 */
export async function runClaims<C, R>(
  storage: DurableObjectStorage,
  env: Env,
  phases: Phases<C, R>,
  flow: C,
): Promise<R> {
  const waitUntil = Date.now() + TENTATIVE_MS;
  let step = storage.transactionSync(() => phases.begin(flow, Date.now()));
  const limited = new Set<string>();
  while (step.kind !== "done") {
    if (step.kind === "wait") {
      const settled = anySettled(storage, step.rows, waitUntil - Date.now());
      if (!settled) return step.result;
      await settled;
      step = storage.transactionSync(() => phases.begin(flow, Date.now()));
      continue;
    }
    const attempt = step.attempt;
    const settle = fly(storage, attempt.rowId);
    try {
      step = await claimAndDecide(storage, env, phases, flow, attempt, limited);
    } finally {
      settle();
    }
  }
  return step.result;
}

/** One attempt's claims, then the transaction that settles its row: confirmed, given up, or the next try. */
async function claimAndDecide<C, R>(
  storage: DurableObjectStorage,
  env: Env,
  phases: Phases<C, R>,
  flow: C,
  attempt: Attempt,
  limited: Set<string>,
): Promise<Next<R>> {
  const outcome = await claimAll(env, attempt);
  const done = (result: R): Next<R> => ({ kind: "done", result });
  if (outcome.ok) return done(storage.transactionSync(() => phases.confirm(flow, attempt, Date.now())));
  if ("unknown" in outcome) {
    const unknown = outcome.unknown;
    return done(storage.transactionSync(() => phases.unanswered(flow, attempt, unknown, Date.now())));
  }
  for (const r of [outcome.refused, ...outcome.refused.others])
    if (r.reason === "limit_reached" && r.at.calendar === "provider") limited.add(r.at.id);
  const refused = { ...outcome.refused, limited: [...limited] };
  const next = storage.transactionSync(() => phases.refused(flow, attempt, refused, Date.now()));
  // Only a first step waits for siblings: a later one answers with the refusal it already has.
  return next.kind === "wait" ? done(next.result) : next;
}
