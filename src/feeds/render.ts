/** Bookings as calendar events, and the answer that carries them (with an ETag of its bytes). */
import type { Context } from "hono";
import { sha256Hex } from "../lib/crypto";
import { respondConditionallyText } from "../lib/etag";
import { type IcalEvent, writeIcal } from "../lib/ical";
import type { BookingStatus } from "../types/booking";
import { isErasedEmail } from "../types/erasure";

/** What an event is made of: the booking's times and status, its service's name and its customer's name. */
export type EventSource = {
  id: string;
  serviceName: string;
  customerName: string;
  customerEmail: string;
  startTime: string;
  endTime: string;
  status: BookingStatus;
  updatedAt: string;
};

/** The first word of a name: what a feed shows of the customer. */
export const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? "";

/**
 * A booking as an event. SUMMARY is the service and the customer's first name only (nothing of
 * an erased customer); PENDING reads TENTATIVE, CANCELLED (only ever in a single booking's file)
 * CANCELLED, the rest CONFIRMED.
 */
export function toEvent(source: EventSource): IcalEvent {
  const who = isErasedEmail(source.customerEmail) ? "" : firstName(source.customerName);
  return {
    uid: source.id,
    summary: who ? `${source.serviceName} — ${who}` : source.serviceName,
    start: source.startTime,
    end: source.endTime,
    stamp: source.updatedAt,
    modified: source.updatedAt,
    status: source.status === "PENDING" ? "TENTATIVE" : source.status === "CANCELLED" ? "CANCELLED" : "CONFIRMED",
  };
}

/** The media type of every calendar answer. */
export const CALENDAR_TYPE = "text/calendar; charset=utf-8";

/**
 * Answers an iCalendar file: `ETag` from its bytes (so an app polling an unchanged feed gets a
 * 304 without a body), and a 304 when `If-None-Match` names it.
 */
export async function respondCalendar(c: Context, name: string, sources: EventSource[]) {
  const body = writeIcal({ product: "calendar feed", method: "PUBLISH", name, events: sources.map(toEvent) });
  const etag = `"${(await sha256Hex(body)).slice(0, 32)}"`;
  // Never kept by a shared cache (a feed is opened by its address alone); an app revalidates with the ETag.
  c.header("Cache-Control", "private, no-cache");
  return respondConditionallyText(c, etag, CALENDAR_TYPE, body);
}
