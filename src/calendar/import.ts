/**
 * The operator import (a business moving in from another system): every appointment passes the
 * same rules as a new booking; without providers all are reserved in one transaction, with
 * providers one at a time through the provider protocol. D1 gets them together afterwards.
 */
import type { ProviderSnapshot } from "./provider/types";
import { bookWithProvider, type ProviderFlowDeps } from "./provider-flow";
import { reserve } from "./reserve";
import type { CalendarResult, CreateBookingCommand, ServiceSnapshot } from "./types";

export type ImportedBooking = CreateBookingCommand["booking"] & { providerId?: string | null };
export type ImportResult = { imported: number; refused: { index: number; reason: string }[] };

/** Reserves `bookings` under the rules; answers which were refused, by index, with the reason. */
export async function importBookings(
  deps: ProviderFlowDeps,
  service: ServiceSnapshot,
  bookings: ImportedBooking[],
  providers: ProviderSnapshot[],
): Promise<ImportResult> {
  const results: CalendarResult[] = [];
  if (providers.length > 0) {
    // Imported bookings reach D1 together once all are in (the caller drains the outbox).
    const quiet = { ...deps, afterCommit: async () => {} };
    for (const { providerId, ...booking } of bookings) {
      results.push(await bookWithProvider(quiet, { service, booking, customerId: null, providers, providerId }));
    }
  } else {
    const reserved = deps.storage.transactionSync(() =>
      bookings.map((booking) => reserve(deps.tables, { service, booking, customerId: null }, Date.now())),
    );
    results.push(...reserved);
  }
  const refused = results.flatMap((r, index) =>
    r.ok ? [] : [{ index, reason: "reason" in r.refusal ? r.refusal.reason : r.refusal.code }],
  );
  return { imported: results.length - refused.length, refused };
}
