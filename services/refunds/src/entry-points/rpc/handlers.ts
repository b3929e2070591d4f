import { pingOp } from "@payrail/contracts";
import { handle, type HandlerEntry } from "@payrail/messaging";

/**
 * The refunds service's operations. Only its readiness ping so far: the operations of its
 * endpoints arrive with their issues (see the README's status table).
 */
export function refundsHandlers(deps: { ping(): Promise<void> }): HandlerEntry[] {
  return [
    handle(pingOp("refunds"), async () => {
      await deps.ping();
      return { service: "refunds", ok: true as const };
    }),
  ];
}
