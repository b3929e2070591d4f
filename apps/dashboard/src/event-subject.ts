/**
 * The object an event is about, as the events list names it: its own string id (`chk_…`,
 * `rfd_…`, `mdt_…`), or for a transaction record, whose `id` is its sequential number, its
 * `transaction_uuid`; else the checkout it names.
 */
export function subjectOf(object: Record<string, unknown>): string {
  const id = [object.id, object.transaction_uuid, object.checkout, object.checkout_id].find((v) => typeof v === "string" && v !== "");
  return typeof id === "string" ? id : "";
}
