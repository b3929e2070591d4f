import { pingOp } from "@payrail/contracts";
import { handle, type HandlerEntry } from "@payrail/messaging";
import type { NoticesHandlerDeps } from "./deps.ts";
import { getConsumerReceiptHandler } from "./get-consumer-receipt.handler.ts";
import { listConsumerReceiptsHandler } from "./list-consumer-receipts.handler.ts";
import { listNoticesHandler } from "./list-notices.handler.ts";
import { listSandboxNoticesHandler } from "./list-sandbox-notices.handler.ts";
import { unsubscribeHandler } from "./unsubscribe.handler.ts";

/** The notices service's operations: its whole RPC surface in one list. */
export function noticesHandlers(deps: NoticesHandlerDeps): HandlerEntry[] {
  return [
    listNoticesHandler(deps),
    listSandboxNoticesHandler(deps),
    listConsumerReceiptsHandler(deps),
    getConsumerReceiptHandler(deps),
    unsubscribeHandler(deps),
    handle(pingOp("notices"), async () => {
      await deps.ping();
      return { service: "notices", ok: true as const };
    }),
  ];
}
