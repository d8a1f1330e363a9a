import type { Appointment } from "../../appointments/records";
import { type LinkOwner, withManageUrls } from "../../manage-links/present";

/** A visit as the API answers it: each segment with its customer's manage link. */
export const presentAppointment = async (env: Env, owner: LinkOwner, visit: Appointment) => ({
  ...visit,
  bookings: await withManageUrls(env, owner, visit.bookings),
});
