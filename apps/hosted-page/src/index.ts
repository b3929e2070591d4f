/**
 * The consumer's hosted payment page (`/pay/{checkout_id}`): a fastify plugin the gateway
 * registers, the page's build (served, and written beside the bundle by `npm run build`), and
 * the portal's live bank-account script, which the page's build bundles with the page's Plaid
 * Link loader.
 */
export { hostedPageRoutes } from "./hosted-page.routes.ts";
export { pageAssets, writePageBuild, type PageAsset, type PageAssets } from "./page-assets.ts";
