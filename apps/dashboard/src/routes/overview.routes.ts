import { getPaymentStatsOp, getReturnRatesOp, listCheckoutsOp, listMerchantRefundsOp } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import { callService, html, type WebContext } from "@payrail/web";
import { requireDashboardUser } from "../dashboard-session.ts";
import { dailyChart } from "../daily-chart.ts";
import { dataTable } from "../data-table.ts";
import { money } from "../format.ts";
import { sendPage } from "../layout.ts";
import { checkoutRows } from "./checkout-rows.ts";

const percent = (fraction: number) => `${(fraction * 100).toFixed(2)} %`;

/** The overview: volume and counts over 7 and 30 days, the 30 days' chart, ACH return rates against NACHA's thresholds, refunds waiting, the latest checkouts. */
export async function overviewRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  app.get("/dashboard", async (request, reply) => {
    requireDashboardUser(request);
    const [stats, rates, latest, pending] = await Promise.all([
      callService(ctx, request, getPaymentStatsOp, {}),
      callService(ctx, request, getReturnRatesOp, {}),
      callService(ctx, request, listCheckoutsOp, { limit: 10 }),
      callService(ctx, request, listMerchantRefundsOp, { status: "pending", limit: 100 }),
    ]);
    const groups = [
      ["Unauthorized (R05, R07, R10, R11, R29)", rates.unauthorized],
      ["Administrative (R02, R03, R04)", rates.administrative],
      ["Overall", rates.overall],
    ] as const;
    return sendPage(ctx, request, reply, {
      title: "Overview",
      active: "/dashboard",
      body: html`<section class="card" aria-labelledby="volume"><h2 id="volume">Payments</h2><div class="grid">
        ${stats.windows.map(
          (w) => html`<div><div class="stat">${money(w.settled_volume, stats.currency)}</div><div class="stat-label">settled in the last ${w.days} days</div>
            <p>${w.settled} settled of ${w.debits} debits</p></div>`,
        )}</div></section>
        <section class="card" aria-labelledby="daily"><h2 id="daily">Daily volume and returns</h2>${dailyChart(stats.days, stats.currency)}</section>
        <section class="card" aria-labelledby="rates"><h2 id="rates">ACH return rates, last ${rates.window_days} days</h2>
        <p class="muted">${rates.debits} debits made in the window.</p>
        ${dataTable(
          "Return rates",
          [{ label: "Group" }, { label: "Returns", num: true }, { label: "Rate", num: true }, { label: "NACHA threshold", num: true }, { label: "State" }],
          groups.map(([label, g]) => [
            label,
            g.returns,
            percent(g.rate),
            percent(g.threshold),
            g.rate >= g.threshold ? html`<span class="badge bad">over</span>` : g.rate >= g.warning_at ? html`<span class="badge warn">warning</span>` : html`<span class="badge ok">fine</span>`,
          ]),
        )}</section>
        <section class="card" aria-labelledby="waiting"><h2 id="waiting">Refunds waiting for a decision</h2>
        <p><span class="stat">${pending.has_more ? "100+" : pending.data.length}</span> <a href="/dashboard/refunds?status=pending">Review pending refunds</a></p></section>
        <section class="card" aria-labelledby="latest"><h2 id="latest">Latest checkouts</h2>${checkoutRows(latest.data)}
        <p><a href="/dashboard/checkouts">All checkouts</a></p></section>`,
    });
  });
}
