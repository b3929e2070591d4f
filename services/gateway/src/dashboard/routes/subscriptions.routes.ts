import { cancelSubscriptionForMerchantOp, listCheckoutsOp } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { GatewayContext } from "../../gateway-context.ts";
import { callService } from "../../http/call-service.ts";
import { canChange, requireDashboardUser } from "../dashboard-session.ts";
import { queryOf } from "../form.ts";
import { definedFilters, nextPageLink } from "../paging.ts";
import { badge, money, when } from "../format.ts";
import { html } from "../../http/html.ts";
import { csrfField, redirectDone, sendPage } from "../layout.ts";
import { amountsOf } from "./checkout-rows.ts";

const CheckoutId = z.string().regex(/^chk_[0-9a-f]{32}$/);
/** `cancelled`: the subscription this page's cancel just ended (see the cancel route). */
const ListQuery = z.object({ starting_after: CheckoutId.optional(), cancelled: CheckoutId.optional() });

/** A subscription that still charges (or will, once paid) can be cancelled. */
const CANCELLABLE = new Set(["active", "past_due"]);

/** Subscriptions: the merchant's subscription checkouts with their state and next charge; cancel. */
export async function subscriptionsRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  app.get("/dashboard/subscriptions", async (request, reply) => {
    const user = requireDashboardUser(request);
    const acts = canChange(user);
    const query = queryOf(request, ListQuery);
    const page = await callService(ctx, request, listCheckoutsOp, { limit: 25, is_subscription: true, ...definedFilters({ starting_after: query.starting_after }) });
    return sendPage(ctx, request, reply, {
      title: "Subscriptions",
      active: "/dashboard/subscriptions",
      body: html`${page.data.length === 0 ? html`<p class="muted">No subscriptions.</p>` : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Table (scrolls sideways on narrow screens)"><table><thead><tr><th scope="col">Subscription</th><th scope="col">Plan</th><th scope="col" class="num">Amount</th><th scope="col">State</th><th scope="col">Next charge</th>${acts ? html`<th scope="col">Actions</th>` : ""}</tr></thead><tbody>
        ${page.data.map((c) => {
          const amounts = amountsOf(c);
          // The list is the checkout service's, which learns of a cancel from payments' event a
          // moment later: the subscription payments just answered cancelled is shown so at once.
          const state = query.cancelled === c.id && CANCELLABLE.has(c.subscription_status) ? "cancelled" : c.subscription_status;
          return html`<tr><td><a class="mono" href="/dashboard/checkouts/${c.id}">${c.id}</a><br><span class="muted">${String(c.merchant_checkout_id ?? "")}</span></td>
            <td>${String(c.plan_type ?? "")}</td><td class="num">${money(amounts.total, amounts.currency)}</td><td>${badge(state || "not started")}</td><td>${when(c.next_charge_at)}</td>
            ${acts ? html`<td>${CANCELLABLE.has(state) ? html`<form class="inline" method="post" action="/dashboard/subscriptions/${c.id}/cancel" data-confirm="Cancel this subscription? No further charge is made and its mandate is revoked.">${csrfField(reply)}<button class="danger" type="submit">Cancel</button></form>` : ""}</td>` : ""}</tr>`;
        })}</tbody></table></div>`}
        <nav class="pager" aria-label="Pages">${nextPageLink("/dashboard/subscriptions", {}, page)}</nav>`,
    });
  });

  app.post<{ Params: { id: string } }>("/dashboard/subscriptions/:id/cancel", async (request, reply) => {
    requireDashboardUser(request);
    const out = await callService(ctx, request, cancelSubscriptionForMerchantOp, { checkout_id: request.params.id });
    return redirectDone(reply, `/dashboard/subscriptions?cancelled=${encodeURIComponent(out.checkout_id)}`, "cancelled");
  });
}
