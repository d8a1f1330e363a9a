import { configurePerson } from "../calendar";
import type { ProviderRow } from "../db/schema";
import { ApiError } from "../lib/errors";
import { providerSnapshotOf } from "./snapshot";

/**
 * Pushes a provider's settings to its calendar before the write is answered, so once a client
 * sees the new version no claim is decided against older settings. If the calendar cannot be
 * reached the change is stored but the client gets a 503 and retries (the calendar also adopts
 * the newest settings sent with every claim).
 */
export async function configureCalendar(env: Env, row: ProviderRow): Promise<void> {
  try {
    await configurePerson(env, providerSnapshotOf(row));
  } catch (error) {
    console.error(
      JSON.stringify({ msg: "provider calendar configure failed", providerId: row.id, error: String(error) }),
    );
    throw new ApiError(
      "unavailable",
      "The provider was saved but its calendar could not be updated; retry the request.",
    );
  }
}
