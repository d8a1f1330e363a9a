/**
 * A booking as clients see it: the domain shape the calendar, the webhooks and the routes share.
 * The route's zod schema (`BookingSchema`) is checked against this type, so they cannot drift.
 */
import type { BookingRow, BookingStatus } from "../db/schema";

/** The public shape of a booking (API responses and webhook payloads). */
export type Booking = {
  id: string;
  serviceId: string;
  /** The person who performs it; null for services without providers. */
  providerId: string | null;
  customerId: string;
  customerName: string;
  customerEmail: string;
  customerPhone: string | null;
  startTime: string;
  endTime: string;
  notes: string | null;
  status: BookingStatus;
  createdAt: string;
  updatedAt: string;
  cancelledAt: string | null;
  cancellationReason: string | null;
};

/** The public shape of a stored booking. */
export function toBooking(row: Omit<BookingRow, "businessId" | "version">): Booking {
  return {
    id: row.id,
    serviceId: row.serviceId,
    providerId: row.providerId ?? null,
    customerId: row.customerId,
    customerName: row.customerName,
    customerEmail: row.customerEmail,
    customerPhone: row.customerPhone,
    startTime: row.startTime,
    endTime: row.endTime,
    notes: row.notes,
    status: row.status,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    cancelledAt: row.cancelledAt,
    cancellationReason: row.cancellationReason,
  };
}
