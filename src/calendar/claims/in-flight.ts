/**
 * Rows whose claims a flow of this calendar object is making right now, and a way to wait until
 * one of them is settled (confirmed, or given up and its seat freed). A request refused only
 * because such a sibling holds the seat for a moment waits for it and decides again, so its
 * refusal names the true reason (run-claims.ts). Memory only: a row left by a reset is not in
 * flight (its deadline frees it), and nobody waits for it.
 */

const flights = new WeakMap<DurableObjectStorage, Map<string, Promise<void>>>();

const of = (storage: DurableObjectStorage) => {
  const rows = flights.get(storage) ?? new Map<string, Promise<void>>();
  flights.set(storage, rows);
  return rows;
};

/** Marks `rowId` in flight; the function answered marks it settled (call it after the transaction that settles it). */
export function fly(storage: DurableObjectStorage, rowId: string): () => void {
  const rows = of(storage);
  let settle = () => {};
  const settled = new Promise<void>((resolve) => {
    settle = resolve;
  });
  rows.set(rowId, settled);
  return () => {
    if (rows.get(rowId) === settled) rows.delete(rowId);
    settle();
  };
}

/**
 * Resolves once any of `rowIds` in flight here is settled, or after `ms`; null when none of them
 * is in flight (nothing to wait for).
 */
export function anySettled(storage: DurableObjectStorage, rowIds: readonly string[], ms: number): Promise<void> | null {
  const rows = of(storage);
  const waits = rowIds.flatMap((id) => rows.get(id) ?? []);
  if (waits.length === 0 || ms <= 0) return null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([...waits, timeout]).finally(() => clearTimeout(timer));
}
