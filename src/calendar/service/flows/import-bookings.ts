/**
 * The operator import (a business moving in from another system): every booking passes the
 * same rules, and takes the same booking path, as a new booking; D1 gets them together afterwards.
 */
import type { CalendarResult, SlotBookingCommand } from "../../types";

export type ImportedBooking = SlotBookingCommand["booking"] & { providerId?: string | null };
export type ImportResult = { imported: number; refused: { index: number; reason: string }[] };

/** Books each booking in turn with `create`; answers how many were imported and why the others were refused. */
export async function importEach(
  bookings: ImportedBooking[],
  create: (booking: SlotBookingCommand["booking"], providerId: string | null | undefined) => Promise<CalendarResult>,
): Promise<ImportResult> {
  const refused: ImportResult["refused"] = [];
  for (const [index, { providerId, ...booking }] of bookings.entries()) {
    const result = await create(booking, providerId);
    if (!result.ok) {
      refused.push({ index, reason: "reason" in result.refusal ? result.refusal.reason : result.refusal.code });
    }
  }
  return { imported: bookings.length - refused.length, refused };
}
