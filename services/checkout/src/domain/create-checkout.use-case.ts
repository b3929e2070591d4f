import { AppError, toCents, type CreateCheckoutBody, type MerchantPrincipal } from "@payrail/contracts";
import { auditEvents, nowIso, prefixedHexId, type AuditMeta } from "@payrail/runtime";
import { checkoutEvent, type CheckoutEventsDeps } from "./checkout-events.ts";
import { storedBody, type AmountsInCents, type CheckoutRecord } from "./checkout.entity.ts";

/** Keys the server owns: never taken from the body, always computed. */
const SERVER_OWNED = ["subscription_status"] as const;

/**
 * Create Checkout: validates nothing itself (the contract schema did), converts money to
 * cents, and lets the unique index decide a duplicate merchant_checkout_id, so 50 racing
 * creates give exactly one checkout. The checkout.created event is stored in the same insert
 * (the outbox), so only the winner publishes one.
 *
 * `callId` (a call that asked to run once) is stored on the checkout: when the insert loses to
 * a checkout of the same call (a redelivery, or the gateway's retry after a broker blip), the
 * answer is that checkout, as the first run answered. So a repeat costs no extra write, and the
 * reply ledger stays out of creates (`runsOnceItself`). The audit entry rides the same insert.
 */
export async function createCheckout(
  deps: CheckoutEventsDeps,
  meta: AuditMeta & { principal: MerchantPrincipal },
  body: CreateCheckoutBody,
  callId?: string,
): Promise<{ id: string }> {
  const merchant = meta.principal;
  const now = nowIso();
  const stored: Record<string, unknown> = { ...body };
  for (const key of SERVER_OWNED) delete stored[key];

  const record: CheckoutRecord = {
    _id: prefixedHexId("chk_"),
    merchantId: merchant.merchantId,
    number: await deps.checkouts.nextNumber(),
    merchantCheckoutId: body.merchant_checkout_id,
    ...(callId === undefined ? {} : { createdByCall: callId }),
    ...storedBody(stored),
    amountCents: amountsInCents(body.amounts),
    currency: body.amounts.currency,
    isSubscription: body.is_subscription,
    planType: body.plan_type ?? null,
    status: "open",
    subscriptionStatus: "",
    transfer: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  const audit = auditEvents(meta, {
    service: "checkout",
    merchantId: merchant.merchantId,
    action: "checkout.created",
    object: { type: "checkout", id: record._id },
    at: now,
    livemode: deps.livemode,
  });
  if (!(await deps.checkouts.insert(record, [checkoutEvent("checkout.created", record, deps.livemode), ...audit]))) {
    // Name the winner (docs/api-notes.md, The checkout), so a client whose own create was answered late can find it.
    const existing = await deps.checkouts.findByMerchantCheckoutId(merchant.merchantId, body.merchant_checkout_id);
    if (callId !== undefined && existing?.createdByCall === callId) return { id: existing._id };
    throw new AppError(
      "duplicate_merchant_checkout_id",
      `a checkout with merchant_checkout_id "${body.merchant_checkout_id}" already exists`,
      { param: "merchant_checkout_id", ...(existing ? { existingId: existing._id } : {}) },
    );
  }
  deps.events.written();
  return { id: record._id };
}

function amountsInCents(a: CreateCheckoutBody["amounts"]): AmountsInCents {
  // The schema accepted each value only if toCents could read it, so `?? 0` never applies.
  const cents = (v: unknown) => toCents(v) ?? 0;
  return {
    total: cents(a.total),
    subtotal: cents(a.subtotal),
    tax: cents(a.tax),
    shipping: cents(a.shipping),
    discount_total: a.discount_total == null ? null : cents(a.discount_total),
  };
}
