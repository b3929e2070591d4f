import { AppError, decideReviewOp, getCheckoutOp, getMandateOp, getReviewOp, listReviewsOp, REVIEW_ID_PATTERN, ReviewStatus, type Mandate } from "@payrail/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { callService, html, type WebContext } from "@payrail/web";
import { canChange, requireDashboardUser } from "../dashboard-session.ts";
import { badge, money, when } from "../format.ts";
import { queryOf } from "../form.ts";
import { redirectDone, sendPage } from "../layout.ts";
import { definedFilters, nextPageLink } from "../paging.ts";
import { reviewActions, reviewRows, ruleHits } from "./review-rows.ts";

/** The queue opens on what waits for a decision; `all` lists every review, newest first. */
const ListQuery = z.object({
  status: z.union([z.literal("all"), ReviewStatus]).default("open"),
  starting_after: z.string().regex(REVIEW_ID_PATTERN).optional(),
});

/** The account the held debit draws on, masked, from the checkout's mandate; null when there is none to show. */
async function accountOf(ctx: WebContext, request: FastifyRequest, checkoutId: string): Promise<Mandate["bank_account"] | null> {
  const checkout = await callService(ctx, request, getCheckoutOp, { checkout_id: checkoutId });
  if (!checkout.mandate_id) return null;
  try {
    return (await callService(ctx, request, getMandateOp, { mandate_id: checkout.mandate_id })).bank_account;
  } catch (err) {
    if (err instanceof AppError && err.code === "mandate_not_found") return null;
    throw err;
  }
}

/**
 * Fraud reviews (docs/decisions/0010-fraud-monitoring.md): debits a risk rule held, open ones
 * first; each one's rules, debit and account; Approve and Cancel for owners and admins (payments
 * refuses a viewer's decision whatever the page showed).
 */
export async function reviewsPageRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  app.get("/dashboard/reviews", async (request, reply) => {
    requireDashboardUser(request);
    const query = queryOf(request, ListQuery);
    const filters = { status: query.status };
    const page = await callService(ctx, request, listReviewsOp, {
      limit: 25,
      ...(query.status === "all" ? {} : { status: query.status }),
      ...definedFilters({ starting_after: query.starting_after }),
    });
    const statuses = ["open", ...ReviewStatus.options.filter((s) => s !== "open"), "all"];
    return sendPage(ctx, request, reply, {
      title: "Reviews",
      active: "/dashboard/reviews",
      body: html`<p class="muted">Debits a fraud-monitoring rule held before they were sent. Approve sends the debit; Cancel ends the payment. An open review is cancelled when it expires.</p>
        <form class="filters" method="get" action="/dashboard/reviews">
          <div><label for="status">Status</label><select id="status" name="status">
          ${statuses.map((s) => html`<option value="${s}"${s === query.status ? html` selected` : ""}>${s === "all" ? "Any" : s}</option>`)}</select></div>
          <button type="submit">Filter</button></form>
        ${reviewRows(page.data)}
        <nav class="pager" aria-label="Pages">${query.starting_after ? html`<a href="/dashboard/reviews?status=${query.status}">First page</a>` : ""}
          ${nextPageLink("/dashboard/reviews", filters, page)}</nav>`,
    });
  });

  app.get<{ Params: { id: string } }>("/dashboard/reviews/:id", async (request, reply) => {
    const user = requireDashboardUser(request);
    const review = await callService(ctx, request, getReviewOp, { review_id: request.params.id });
    const account = await accountOf(ctx, request, review.checkout_id);
    const open = review.status === "open";
    const closedBy = review.closed_by ? `${review.closed_by.type} ${review.closed_by.id}` : "";
    return sendPage(ctx, request, reply, {
      title: `Review ${review.id}`,
      active: "/dashboard/reviews",
      body: html`<section class="card"><dl class="facts">
          <dt>Status</dt><dd>${badge(review.status)}</dd>
          <dt>Amount</dt><dd>${money(review.amount, review.currency)}</dd>
          <dt>Debit</dt><dd>${review.kind === "renewal" ? "Subscription renewal" : "First charge"} · transaction <span class="mono">${review.transaction_uuid}</span></dd>
          <dt>Checkout</dt><dd><a class="mono" href="/dashboard/checkouts/${review.checkout_id}">${review.checkout_id}</a></dd>
          <dt>Consumer's account</dt><dd>${account ? `${account.institution ?? "Bank account"} ending ${account.mask ?? "····"}` : "—"}</dd>
          <dt>Held</dt><dd>${when(review.opened_at)}</dd>
          ${open ? html`<dt>Expires</dt><dd>${when(review.expires_at)} (cancelled unless decided)</dd>` : html`<dt>Closed</dt><dd>${when(review.closed_at)} ${closedBy}</dd>`}
          </dl></section>
        <section class="card"><h2>Why it was held</h2>${ruleHits(review)}</section>
        ${open && canChange(user) ? html`<section class="card"><h2>Decision</h2>${reviewActions(reply, review)}</section>` : ""}
        <p><a href="/dashboard/reviews">Back to the reviews</a></p>`,
    });
  });

  for (const decision of ["approve", "cancel"] as const) {
    app.post<{ Params: { id: string } }>(`/dashboard/reviews/:id/${decision}`, async (request, reply) => {
      requireDashboardUser(request);
      const review = await callService(ctx, request, decideReviewOp, { review_id: request.params.id, decision });
      return redirectDone(reply, `/dashboard/reviews/${review.id}`, decision === "approve" ? "review-approved" : "review-cancelled");
    });
  }
}
