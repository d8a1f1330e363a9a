import type { LinkOwner } from "../../manage-links/present";
import { withManageUrls } from "../../manage-links/present";
import type { Series } from "../../series/records";

/** A series as the API answers it: each occurrence with its customer's manage link. */
export const presentSeries = async (env: Env, owner: LinkOwner, found: Series) => ({
  ...found,
  bookings: await withManageUrls(env, owner, found.bookings),
});
