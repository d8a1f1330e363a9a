import { type LinkOwner, withManageUrls } from "../../manage-links/present";
import type { Visit } from "../../visits/records";

/** A visit as the API answers it: each segment with its customer's manage link. */
export const presentVisit = async (env: Env, owner: LinkOwner, visit: Visit) => ({
  ...visit,
  bookings: await withManageUrls(env, owner, visit.bookings),
});
