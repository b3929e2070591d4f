import { generateApiKeyOp, listApiKeysOp } from "@payrail/contracts";
import { revokeApiKey } from "../../http/revoke-api-key.ts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { GatewayContext } from "../../gateway-context.ts";
import { callService } from "../../http/call-service.ts";
import { canChange, requireDashboardUser } from "../dashboard-session.ts";
import { badge, when } from "../format.ts";
import { html, type Html } from "../../http/html.ts";
import { csrfField, redirectDone, sendPage } from "../layout.ts";

/** API keys: the merchant's keys by prefix; a new one shown once; revoke. Owners and admins only may change them (identity checks). */
export async function apiKeysRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const page = async (request: FastifyRequest, reply: FastifyReply, issued?: Html) => {
    const user = requireDashboardUser(request);
    const keys = await callService(ctx, request, listApiKeysOp, { merchant_id: user.merchantId });
    const acts = canChange(user);
    return sendPage(ctx, request, reply, {
      title: "API keys",
      active: "/dashboard/api-keys",
      body: html`${issued ?? ""}
        ${acts ? html`<form method="post" action="/dashboard/api-keys">${csrfField(reply)}<p><button type="submit">Create an API key</button></p></form>` : ""}
        <div class="table-wrap" tabindex="0" role="region" aria-label="Table (scrolls sideways on narrow screens)"><table><thead><tr><th scope="col">Key</th><th scope="col">Mode</th><th scope="col">Created</th><th scope="col">State</th>${acts ? html`<th scope="col">Actions</th>` : ""}</tr></thead><tbody>
        ${keys.data.map(
          (k) => html`<tr><td class="mono">${k.key_prefix}…</td><td>${k.livemode ? "live" : "test"}</td><td>${when(k.created_at)}</td>
            <td>${k.revoked_at ? html`${badge("revoked")} ${when(k.revoked_at)}` : badge("active")}</td>
            ${acts ? html`<td>${k.revoked_at ? "" : html`<form class="inline" method="post" action="/dashboard/api-keys/${k.key_prefix}/revoke" data-confirm="Revoke this key? Calls with it stop working.">${csrfField(reply)}<button class="danger" type="submit">Revoke</button></form>`}</td>` : ""}</tr>`,
        )}</tbody></table></div>`,
    });
  };

  app.get("/dashboard/api-keys", (request, reply) => page(request, reply));

  app.post("/dashboard/api-keys", async (request, reply) => {
    const user = requireDashboardUser(request);
    const issued = await callService(ctx, request, generateApiKeyOp, { merchant_id: user.merchantId });
    // Shown here once: the key is stored only as a hash.
    return page(
      request,
      reply,
      html`<div class="secret" role="status"><p><strong>Your new API key.</strong> Copy it now: it is not shown again.</p><p><code id="new-key">${issued.api_key}</code></p></div>`,
    );
  });

  app.post<{ Params: { prefix: string } }>("/dashboard/api-keys/:prefix/revoke", async (request, reply) => {
    const user = requireDashboardUser(request);
    await revokeApiKey(ctx, request, user.merchantId, request.params.prefix);
    return redirectDone(reply, "/dashboard/api-keys", "revoked");
  });
}
