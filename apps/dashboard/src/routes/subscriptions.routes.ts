import { cancelSubscriptionForMerchantOp, listCheckoutsOp } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { callService, html, type WebContext } from "@payrail/web";
import { canChange, requireDashboardUser } from "../dashboard-session.ts";
import { queryOf } from "../form.ts";
import { definedFilters, nextPageLink } from "../paging.ts";
import { dataTable } from "../data-table.ts";
import { badge, money, when } from "../format.ts";
import { csrfField, redirectDone, sendPage } from "../layout.ts";
import { amountsOf } from "./checkout-rows.ts";

const CheckoutId = z.string().regex(/^chk_[0-9a-f]{32}$/);
/** `cancelled`: the subscription this page's cancel just ended (see the cancel route). */
const ListQuery = z.object({ starting_after: CheckoutId.optional(), cancelled: CheckoutId.optional() });

/** A subscription that still charges (or will, once paid) can be cancelled. */
const CANCELLABLE = new Set(["active", "past_due"]);

/** Subscriptions: the merchant's subscription checkouts with their state and next charge; cancel. */
export async function subscriptionsRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  app.get("/dashboard/subscriptions", async (request, reply) => {
    const user = requireDashboardUser(request);
    const acts = canChange(user);
    const query = queryOf(request, ListQuery);
    const page = await callService(ctx, request, listCheckoutsOp, { limit: 25, is_subscription: true, ...definedFilters({ starting_after: query.starting_after }) });
    return sendPage(ctx, request, reply, {
      title: "Subscriptions",
      active: "/dashboard/subscriptions",
      body: html`${page.data.length === 0 ? html`<p class="muted">No subscriptions.</p>` : dataTable(
          "Subscriptions",
          [{ label: "Subscription" }, { label: "Plan" }, { label: "Amount", num: true }, { label: "State" }, { label: "Next charge" }, ...(acts ? [{ label: "Actions", actions: true }] : [])],
          page.data.map((c) => {
            const amounts = amountsOf(c);
            // The list is the checkout service's, which learns of a cancel from payments' event a
            // moment later: the subscription payments just answered cancelled is shown so at once.
            const state = query.cancelled === c.id && CANCELLABLE.has(c.subscription_status) ? "cancelled" : c.subscription_status;
            return [
              html`<a class="mono" href="/dashboard/checkouts/${c.id}">${c.id}</a><br><span class="muted">${String(c.merchant_checkout_id ?? "")}</span>`,
              String(c.plan_type ?? ""),
              money(amounts.total, amounts.currency),
              badge(state || "not started"),
              when(c.next_charge_at),
              ...(acts
                ? [CANCELLABLE.has(state) ? html`<form class="inline" method="post" action="/dashboard/subscriptions/${c.id}/cancel" data-confirm="Cancel this subscription? No further charge is made and its mandate is revoked.">${csrfField(reply)}<button class="danger" type="submit">Cancel</button></form>` : ""]
                : []),
            ];
          }),
        )}
        <nav class="pager" aria-label="Pages">${nextPageLink("/dashboard/subscriptions", {}, page)}</nav>`,
    });
  });

  app.post<{ Params: { id: string } }>("/dashboard/subscriptions/:id/cancel", async (request, reply) => {
    requireDashboardUser(request);
    const out = await callService(ctx, request, cancelSubscriptionForMerchantOp, { checkout_id: request.params.id });
    return redirectDone(reply, `/dashboard/subscriptions?cancelled=${encodeURIComponent(out.checkout_id)}`, "cancelled");
  });
}
