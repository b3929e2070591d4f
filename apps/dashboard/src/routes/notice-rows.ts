import { AppError, listNoticesOp, type Notice } from "@payrail/contracts";
import type { FastifyRequest } from "fastify";
import { callService, html, type Html, type WebContext } from "@payrail/web";
import { dataTable } from "../data-table.ts";
import { badge, when } from "../format.ts";

/**
 * A checkout's consumer notices (the API's GET /api/merchants/notices?checkout_id=), or null
 * when the notices service does not answer: the rest of the checkout's page still shows.
 */
export async function checkoutNotices(ctx: WebContext, request: FastifyRequest, checkoutId: string): Promise<Notice[] | null> {
  try {
    return (await callService(ctx, request, listNoticesOp, { checkout_id: checkoutId, limit: 100 })).data;
  } catch (err) {
    if (err instanceof AppError && err.status === 503) return null;
    throw err;
  }
}

/** The notices table: what the consumer was told, on which channel, to whom (masked), and whether it went. */
export function noticeRows(notices: readonly Notice[] | null): Html {
  if (notices === null) return html`<p class="muted">Notices cannot be read right now; reload the page in a moment.</p>`;
  if (notices.length === 0) return html`<p class="muted">No notices yet.</p>`;
  return dataTable(
    "Notices",
    [{ label: "Type" }, { label: "Channel" }, { label: "To" }, { label: "Status" }, { label: "Created" }, { label: "Sent" }],
    notices.map((n) => [
      html`${n.type}<br><span class="muted mono">${n.id}</span>`,
      n.channel,
      { content: n.to, className: "mono" },
      badge(n.status),
      when(n.created_at),
      when(n.sent_at),
    ]),
  );
}
