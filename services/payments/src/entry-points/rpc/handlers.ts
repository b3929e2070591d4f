import { pingOp } from "@payrail/contracts";
import { handle, type HandlerEntry } from "@payrail/messaging";
import { createLinkTokenHandler } from "./create-link-token.handler.ts";
import type { PaymentsDeps } from "./deps.ts";
import { exchangePublicTokenHandler } from "./exchange-public-token.handler.ts";
import { sandboxPublicTokenHandler } from "./sandbox-public-token.handler.ts";

/** The payments service's operations: its whole RPC surface in one list. */
export function paymentsHandlers(deps: PaymentsDeps): HandlerEntry[] {
  return [
    createLinkTokenHandler(deps),
    exchangePublicTokenHandler(deps),
    sandboxPublicTokenHandler(deps),
    handle(pingOp("payments"), async () => {
      await deps.ping();
      return { service: "payments", ok: true as const };
    }),
  ];
}
