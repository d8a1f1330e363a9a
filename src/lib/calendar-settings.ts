import { ApiError } from "./errors";

/**
 * Pushes a stored provider's or resource's settings to its calendar before the write is answered,
 * so once a client sees the new version no claim is decided against older settings. If the
 * calendar cannot be reached the change stays stored and the client gets a 503 (with
 * `Retry-After`, as every 503) to retry; the calendar also adopts the newest settings sent with
 * every claim.
 */
export async function pushSettings(kind: "provider" | "resource", id: string, push: () => Promise<unknown>) {
  try {
    await push();
  } catch (error) {
    console.error(
      JSON.stringify({ msg: `${kind} calendar configure failed`, [`${kind}Id`]: id, error: String(error) }),
    );
    throw new ApiError(
      "unavailable",
      `The ${kind} was saved but its calendar could not be updated; retry the request.`,
    );
  }
}
