import { AppError } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import { HOSTED_PAGE_IMAGES, newNonce, pageCsp, plaidLinkPageHeaders, sendAsset, type WebContext } from "@payrail/web";
import { pageAssets } from "./page-assets.ts";

/**
 * The consumer's hosted page (docs/api-notes.md, The hosted page, the dashboard and the portal): `/pay/{checkout_id}#link_token=…`. The HTML is the
 * same for every checkout (the page reads the id from its path and the token from its fragment,
 * which browsers never send), is never cached, and names its script and styles by content hash,
 * which are cached for a year.
 */
export async function hostedPageRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  const live = !ctx.sandbox;
  const mode = live ? "live" : "sandbox";
  const hide = { schema: { hide: true } };

  app.get<{ Params: { checkout_id: string } }>("/pay/:checkout_id", hide, async (_request, reply) => {
    const { html } = await pageAssets();
    // Live: a fresh nonce per response, which Plaid Link's script and styles need (@payrail/web, page-csp.ts).
    const nonce = live ? newNonce() : undefined;
    return reply
      .headers(nonce ? plaidLinkPageHeaders(nonce, "'none'", HOSTED_PAGE_IMAGES) : { "content-security-policy": pageCsp(false, undefined, "'none'", HOSTED_PAGE_IMAGES) })
      .header("cache-control", "no-store")
      .type("text/html; charset=utf-8")
      .send(html.replace("{{MODE}}", mode).replace("{{PHONE_COUNTRY}}", ctx.defaultPhoneCountry).replace(" {{NONCE}}", nonce ? ` nonce="${nonce}"` : ""));
  });

  app.get<{ Params: { name: string } }>("/pay/assets/:name", hide, async (request, reply) => {
    const asset = (await pageAssets()).assets.get(request.params.name);
    if (!asset) throw new AppError("route_not_found", `no asset ${request.params.name}`);
    return sendAsset(reply, asset);
  });
}
