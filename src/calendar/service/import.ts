/**
 * The operator import (a business moving in from another system): every appointment passes the
 * same rules, and takes the same booking path, as a new booking; D1 gets them together afterwards.
 */
import type { CreateBookingCommand } from "../types";

export type ImportedBooking = CreateBookingCommand["booking"] & { providerId?: string | null };
export type ImportResult = { imported: number; refused: { index: number; reason: string }[] };
