import { AppError, pingOp } from "@payrail/contracts";
import type { Transport } from "../transport.port.ts";

/** One ping's deadline: a readiness probe answers within the load balancer's check timeout. */
const PING_TIMEOUT_MS = 2_000;
/**
 * How long a service that answered a ping still counts as ready while its pings time out. Every
 * process pings the same services: a burst that slows them past the ping's deadline would
 * otherwise make every replica unready at once, and the load balancer (or the Kubernetes
 * Service) would refuse all traffic rather than serve it slowly. A service with no consumer at
 * all (`service_unavailable`, which the broker tells at once) or one silent this long is down.
 */
export const SLOW_GRACE_MS = 30_000;

export type ReadinessChecks = Record<string, "ok" | "slow" | "down">;

/**
 * `/readyz`'s checks: the broker connected, and each service answering its ping (which each
 * service only does after pinging its own database), or only slow now ("slow": it answered
 * within SLOW_GRACE_MS). Ready when nothing is down. Keeps when each service last answered, so
 * one probe per process serves all its `/readyz` calls.
 */
export function readinessProbe(transport: Transport, services: readonly string[], now: () => number = Date.now) {
  const answeredAt = new Map<string, number>();
  return async (requestId: string): Promise<{ ready: boolean; checks: ReadinessChecks }> => {
    const checks: ReadinessChecks = { broker: transport.isReady() ? "ok" : "down" };
    await Promise.all(
      services.map(async (service) => {
        try {
          await transport.call(pingOp(service), {}, { requestId, principal: { kind: "anonymous" } }, { timeoutMs: PING_TIMEOUT_MS });
          answeredAt.set(service, now());
          checks[service] = "ok";
        } catch (err) {
          const last = answeredAt.get(service);
          const slow = err instanceof AppError && err.code === "service_timeout" && last !== undefined && now() - last < SLOW_GRACE_MS;
          checks[service] = slow ? "slow" : "down";
        }
      }),
    );
    return { ready: Object.values(checks).every((v) => v !== "down"), checks };
  };
}
