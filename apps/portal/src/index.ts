/** The consumer portal at `/account`: a fastify plugin the gateway registers (portal.routes.ts). */
export { portalRoutes } from "./portal.routes.ts";
/** The unsubscribe links of consumer notices: pages without sign-in, in a scope of their own (notices-unsubscribe.routes.ts). */
export { noticesUnsubscribeRoutes } from "./notices-unsubscribe.routes.ts";
