/**
 * Why a booking with a provider can be refused: the `reason` of a 409 `slot_unavailable`
 * problem, alongside the service calendar's `outside_working_hours` and `fully_booked`.
 */
export const providerReasons = ["provider_unavailable", "provider_busy", "no_provider_available"] as const;

/**
 * - `provider_unavailable`: the provider is inactive or not working then (own hours, overrides, time zone);
 * - `provider_busy`: the provider has another claim on that time (or the group session is full);
 * - `no_provider_available`: none of the service's providers could take it (automatic assignment).
 */
export type ProviderReason = (typeof providerReasons)[number];
