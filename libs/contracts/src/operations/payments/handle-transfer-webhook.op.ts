import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * A transfer provider's webhook, as received: the raw body (the signature covers its exact
 * bytes) and the signature header. Payments checks the signature (401 when bad or missing),
 * ignores events it has seen, and re-reads the transfer before acting on it.
 */
export const handleTransferWebhookOp = defineOperation(
  "payments.handleTransferWebhook",
  z.object({ raw_body: z.string().max(65_536), signature: z.string().max(512).nullable() }),
  z.object({ received: z.literal(true), duplicate: z.boolean() }),
);
