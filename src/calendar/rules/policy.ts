/**
 * A business's policy window: a customer acting through a manage link may cancel or move a
 * booking until `noticeMinutes` before its start (that instant included), and not after.
 * Calls with an API key carry no notice and are not bound.
 */

/** The refusal of a customer's change inside the window, saying until when it was allowed. */
export type PolicyRefusal = { code: "policy_window"; detail: string; until: string };

/** Undefined when the change is allowed now; else why not. */
export function policyWindowRefusal(
  action: "cancelled" | "rescheduled",
  startTime: string,
  noticeMinutes: number | undefined,
  now: number,
): PolicyRefusal | undefined {
  if (noticeMinutes === undefined) return undefined;
  const until = Date.parse(startTime) - noticeMinutes * 60_000;
  if (now <= until) return undefined;
  const at = new Date(until).toISOString();
  return {
    code: "policy_window",
    until: at,
    detail: `This booking could be ${action} online until ${at}; please contact the business.`,
  };
}
