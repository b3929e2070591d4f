import type { FastifyRequest } from "fastify";
import type { WebContext } from "./web-context.ts";

/**
 * The consumer's page for a checkout (docs/api-notes.md, The hosted page, the dashboard and the portal): `<PUBLIC_URL>/pay/{checkout_id}#link_token=…`.
 * The token rides in the fragment, which browsers never send to a server nor put in `Referer`.
 * Without PUBLIC_URL the base is the address the merchant called, which is right when the
 * merchant and its consumers reach the gateway the same way.
 */
export function hostedPageUrl(ctx: WebContext, request: FastifyRequest, checkoutId: string, linkToken: string): string {
  const base = publicBase(ctx, request);
  return `${base}/pay/${encodeURIComponent(checkoutId)}#link_token=${encodeURIComponent(linkToken)}`;
}

/** Where people reach this gateway: PUBLIC_URL, else the address this request came to; no trailing slash. */
export function publicBase(ctx: WebContext, request: FastifyRequest): string {
  return (ctx.publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, "");
}
