/** The consumer portal at `/account`: a fastify plugin the gateway registers (portal.routes.ts). */
export { portalRoutes } from "./portal.routes.ts";
