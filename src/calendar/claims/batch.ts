/**
 * Several claims on one calendar in one call: an entry that claims a person's time for every
 * occurrence of a series sends them together, one round trip per calendar instead of one per
 * occurrence. They are decided in one transaction, in order (each sees the ones before it), and
 * answered whole: every claim granted, or nothing written and every refusal listed — so the
 * entry learns in one answer every occurrence this calendar refuses.
 */
import type { ClaimRefusal, ClaimResult, ClaimsResult } from "../claim-types";
import { MAX_OCCURRENCES } from "../rules/recurrence";

/** Thrown inside the transaction to roll back a batch with a refusal. */
const rollback = Symbol("rollback");

/** The most claims one call may carry: one per occurrence of a series (a visit has fewer segments). */
export const MAX_CLAIMS_PER_CALL = MAX_OCCURRENCES;

/**
 * Decides `commands` with `decide` in one transaction of `storage`: all written, or none (see the
 * module comment); `granted` runs last in that transaction when all were.
 */
export function decideEach<C>(
  storage: DurableObjectStorage,
  commands: readonly C[],
  decide: (command: C, now: number) => ClaimResult,
  granted: () => void = () => {},
): ClaimsResult {
  if (commands.length === 0 || commands.length > MAX_CLAIMS_PER_CALL) {
    throw new Error(`A call carries 1 to ${MAX_CLAIMS_PER_CALL} claims, not ${commands.length}.`);
  }
  const refused: (ClaimRefusal & { index: number })[] = [];
  try {
    storage.transactionSync(() => {
      const now = Date.now();
      for (const [index, command] of commands.entries()) {
        const answer = decide(command, now);
        if (!answer.ok) refused.push({ ...answer, index });
      }
      if (refused.length > 0) throw rollback;
      granted();
    });
  } catch (error) {
    if (error !== rollback) throw error;
  }
  return refused.length === 0 ? { ok: true } : { ok: false, refused };
}
