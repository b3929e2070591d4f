import { AppError, listNoticesOp, type Notice } from "@payrail/contracts";
import type { FastifyRequest } from "fastify";
import type { GatewayContext } from "../../gateway-context.ts";
import { callService } from "../../http/call-service.ts";
import { html, type Html } from "../../http/html.ts";
import { badge, when } from "../format.ts";

/**
 * A checkout's consumer notices (the API's GET /api/merchants/notices?checkout_id=), or null
 * when the notices service does not answer: the rest of the checkout's page still shows.
 */
export async function checkoutNotices(ctx: GatewayContext, request: FastifyRequest, checkoutId: string): Promise<Notice[] | null> {
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
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="Notices (scrolls sideways on narrow screens)"><table><thead><tr><th scope="col">Type</th><th scope="col">Channel</th><th scope="col">To</th>
    <th scope="col">Status</th><th scope="col">Created</th><th scope="col">Sent</th></tr></thead><tbody>
    ${notices.map(
      (n) => html`<tr><td>${n.type}<br><span class="muted mono">${n.id}</span></td><td>${n.channel}</td><td class="mono">${n.to}</td><td>${badge(n.status)}</td>
        <td>${when(n.created_at)}</td><td>${when(n.sent_at)}</td></tr>`,
    )}
    </tbody></table></div>`;
}
