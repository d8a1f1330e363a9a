/** The business's people (providers) by name, for the setup's list and the staff member's person choice. */
import { asc, eq } from "drizzle-orm";
import { providers } from "../../db/schema";
import type { DeskContext } from "../frame/desk";

export type PersonChoice = { id: string; name: string; active: boolean };

/** Every person of the member's business, by name (a business has few; the list is not paged). */
export const peopleOf = (c: DeskContext): Promise<PersonChoice[]> =>
  c.var.db
    .select({ id: providers.id, name: providers.name, active: providers.active })
    .from(providers)
    .where(eq(providers.businessId, c.var.caller.businessId))
    .orderBy(asc(providers.name));
