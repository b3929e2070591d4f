import { pingOp } from "@payrail/contracts";
import { handle, type HandlerEntry } from "@payrail/messaging";

/**
 * The payments service's operations. Only its readiness ping so far: the operations of its
 * endpoints arrive with their issues (see the README's status table).
 */
export function paymentsHandlers(deps: { ping(): Promise<void> }): HandlerEntry[] {
  return [
    handle(pingOp("payments"), async () => {
      await deps.ping();
      return { service: "payments", ok: true as const };
    }),
  ];
}
