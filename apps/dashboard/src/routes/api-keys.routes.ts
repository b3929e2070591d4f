import { generateApiKeyOp, listApiKeysOp } from "@payrail/contracts";
import { revokeApiKey, callService, html, type Html, type WebContext } from "@payrail/web";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { canChange, requireDashboardUser } from "../dashboard-session.ts";
import { dataTable } from "../data-table.ts";
import { badge, when } from "../format.ts";
import { csrfField, redirectDone, sendPage } from "../layout.ts";

/** API keys: the merchant's keys by prefix; a new one shown once; revoke. Owners and admins only may change them (identity checks). */
export async function apiKeysRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  const page = async (request: FastifyRequest, reply: FastifyReply, issued?: Html) => {
    const user = requireDashboardUser(request);
    const keys = await callService(ctx, request, listApiKeysOp, { merchant_id: user.merchantId });
    const acts = canChange(user);
    return sendPage(ctx, request, reply, {
      title: "API keys",
      active: "/dashboard/api-keys",
      body: html`${issued ?? ""}
        ${acts ? html`<form method="post" action="/dashboard/api-keys">${csrfField(reply)}<p><button type="submit">Create an API key</button></p></form>` : ""}
        ${dataTable(
          "API keys",
          [{ label: "Key" }, { label: "Mode" }, { label: "Created" }, { label: "State" }, ...(acts ? [{ label: "Actions", actions: true }] : [])],
          keys.data.map((k) => [
            { content: `${k.key_prefix}…`, className: "mono" },
            k.livemode ? "live" : "test",
            when(k.created_at),
            k.revoked_at ? html`${badge("revoked")} ${when(k.revoked_at)}` : badge("active"),
            ...(acts
              ? [k.revoked_at ? "" : html`<form class="inline" method="post" action="/dashboard/api-keys/${k.key_prefix}/revoke" data-confirm="Revoke this key? Calls with it stop working.">${csrfField(reply)}<button class="danger" type="submit">Revoke</button></form>`]
              : []),
          ]),
        )}`,
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
