import { readinessProbe } from "@payrail/messaging";
import type { FastifyInstance } from "fastify";
import type { GatewayContext } from "../gateway-context.ts";

/**
 * `/healthz`: the process is alive. `/readyz`: the broker is connected and every service
 * answers its ping, or answered one lately and is only slow now (readinessProbe); 503 at once
 * while the process drains.
 */
export async function healthRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const hide = { hide: true } as Record<string, unknown>;
  app.get("/healthz", { schema: hide }, async () => ({ status: "ok" }));
  const probe = readinessProbe(ctx.transport, ctx.services);

  app.get("/readyz", { schema: hide }, async (request, reply) => {
    // Draining: the load balancer should stop sending here; requests that still come are served.
    if (ctx.draining?.()) return reply.code(503).header("retry-after", "1").send({ status: "draining", checks: {} });
    const { ready, checks } = await probe(request.id);
    if (!ready) reply.code(503).header("retry-after", "1");
    return { status: ready ? "ready" : "not_ready", checks };
  });
}
