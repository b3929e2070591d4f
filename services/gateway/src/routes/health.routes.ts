import { pingOp } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { GatewayContext } from "../gateway-context.ts";

const READY_TIMEOUT_MS = 2_000;

/**
 * `/healthz`: the process is alive. `/readyz`: the broker is connected and every service
 * answers its ping, which each service only does after pinging its own database; 503 at once
 * while the process drains.
 */
export async function healthRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const hide = { hide: true } as Record<string, unknown>;
  app.get("/healthz", { schema: hide }, async () => ({ status: "ok" }));

  app.get("/readyz", { schema: hide }, async (request, reply) => {
    // Draining: the load balancer should stop sending here; requests that still come are served.
    if (ctx.draining?.()) return reply.code(503).header("retry-after", "1").send({ status: "draining", checks: {} });
    const checks: Record<string, "ok" | "down"> = { broker: ctx.transport.isReady() ? "ok" : "down" };
    await Promise.all(
      ctx.services.map(async (service) => {
        try {
          await ctx.transport.call(
            pingOp(service),
            {},
            { requestId: request.id, principal: { kind: "anonymous" } },
            { timeoutMs: READY_TIMEOUT_MS },
          );
          checks[service] = "ok";
        } catch {
          checks[service] = "down";
        }
      }),
    );
    const ready = Object.values(checks).every((v) => v === "ok");
    if (!ready) reply.code(503).header("retry-after", "1");
    return { status: ready ? "ready" : "not_ready", checks };
  });
}
