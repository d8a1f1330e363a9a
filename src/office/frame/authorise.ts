/**
 * The office asks the same question the API's scope check asks (src/middleware/scope.ts), once
 * per page or action: does the member's role hold the operation's scope, and — for staff — is the
 * id theirs (src/access/roles.ts, a 404 as for an id that does not exist when it is not).
 */
import { insufficientScope } from "../../access/keys";
import { checkRole, lacksScope } from "../../access/roles";
import { ApiError } from "../../lib/api-error";
import type { Scope } from "../../types/scopes";
import type { DeskContext } from "./desk";

/**
 * Refuses what the API would refuse the member for `operation` (its method and route path, e.g.
 * `POST /bookings/:id/cancel`) on `id`: throws the API's error (403 or 404).
 */
export async function authorise(
  c: DeskContext,
  scope: Scope,
  operation: string,
  id?: string,
  body: () => Promise<unknown> = async () => ({}),
): Promise<void> {
  const { caller } = c.var;
  if (lacksScope(caller, scope, operation)) throw insufficientScope(scope);
  if (caller.member) await checkRole(c.var.db, caller.businessId, caller.member, operation, id, body);
}

/** Whether the member may call the operation (a 403 of the role check is a no; a 404 is thrown on). */
export async function may(c: DeskContext, scope: Scope, operation: string, id?: string) {
  try {
    await authorise(c, scope, operation, id);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return false;
    throw error;
  }
}
