import { z } from "zod";

/*
 * What `data.object` holds for each aggregate: the object as the API shows it at the moment of
 * the change. Only the ids and the status every subscriber relies on are checked; the rest is
 * passed through untouched (loose objects), so these schemas need not follow each field the
 * owning service adds. Tighten one when a subscriber starts to depend on more of it.
 */

const hexId = (prefix: string) => z.string().regex(new RegExp(`^${prefix}[0-9a-f]{32}$`), `must be ${prefix} and 32 lowercase hex`);

/** The checkout as Get Checkout answers it (docs/api-notes.md, The checkout). */
export const CheckoutSnapshot = z.looseObject({ id: hexId("chk_"), status: z.string() });

/** A transaction record (docs/api-notes.md, Moving money): one transfer, the first charge or a renewal. */
export const TransactionSnapshot = z.looseObject({ transaction_uuid: hexId("sc-"), transaction_status: z.string() });

/** A refund record (docs/api-notes.md, Refunds). */
export const RefundSnapshot = z.looseObject({ id: hexId("rfd_"), transaction_uuid: hexId("sc-"), status: z.string() });

/** A subscription: its object is not defined yet (billing is still to be built), so anything. */
export const SubscriptionSnapshot = z.record(z.string(), z.unknown());

/** A fraud review (docs/decisions/0010-fraud-monitoring.md): the held debit and its outcome. */
export const ReviewSnapshot = z.looseObject({ id: hexId("rev_"), status: z.string() });
