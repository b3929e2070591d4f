/** The merchant dashboard at `/dashboard`: a fastify plugin the gateway registers (dashboard.routes.ts). */
export { dashboardRoutes } from "./dashboard.routes.ts";
