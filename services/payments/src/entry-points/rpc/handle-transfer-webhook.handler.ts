import { handleTransferWebhookOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { handleTransferWebhook } from "../../domain/transfers/handle-transfer-webhook.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

// No principal: the provider proves itself with the body's signature.
export const handleTransferWebhookHandler = (deps: PaymentsDeps) =>
  handle(handleTransferWebhookOp, (payload, ctx) => handleTransferWebhook(deps, ctx, payload));
