/**
 * What the setup's forms send, checked by the API's own field schemas (src/schemas/): the hours
 * and days off as `PATCH /providers/{id}` checks them, a member's fields as `POST /members` and
 * `PATCH /members/{id}` check them.
 */
import { z } from "../../lib/zod";
import { customerEmail, headerName } from "../../schemas/fields";
import { DateOverridesSchema, WeeklyScheduleSchema } from "../../schemas/schedule";

/** The part of a provider a setup form changes: their weekly hours or their date overrides. */
export const HoursChange = z
  .strictObject({ weeklySchedule: WeeklyScheduleSchema, dateOverrides: DateOverridesSchema })
  .partial();

const role = z.enum(["owner", "frontdesk", "staff"]);
const providerId = z.string().max(40).nullable().optional();

/** An invitation's fields. */
export const Invitation = z.strictObject({ email: customerEmail, name: headerName(200), role, providerId });

/** A member's change of role or status. */
export const MemberChange = z.strictObject({
  role: role.optional(),
  status: z.enum(["active", "disabled"]).optional(),
  providerId,
});
