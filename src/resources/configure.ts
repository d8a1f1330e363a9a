import { configureResource } from "../calendar";
import type { ResourceRow } from "../db/schema";
import { ApiError } from "../lib/errors";
import { resourceSnapshotOf } from "./snapshot";

/**
 * Pushes a resource's settings to its calendar before the write is answered, so once a client
 * sees the new version no claim is decided against older settings. If the calendar cannot be
 * reached the change is stored but the client gets a 503 and retries (the calendar also adopts
 * the newest settings sent with every claim).
 */
export async function configureCalendar(env: Env, row: ResourceRow): Promise<void> {
  try {
    await configureResource(env, resourceSnapshotOf(row));
  } catch (error) {
    console.error(
      JSON.stringify({ msg: "resource calendar configure failed", resourceId: row.id, error: String(error) }),
    );
    throw new ApiError(
      "unavailable",
      "The resource was saved but its calendar could not be updated; retry the request.",
      { headers: { "Retry-After": "1" } },
    );
  }
}
