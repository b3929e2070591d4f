import { z } from "zod";
import { BankLinkTokenResponse } from "../../http/consumer.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Create Link Token (spec 6, docs/api-notes.md, Moving money) for the calling consumer: checks the merchant link
 * token, claims the checkout for this consumer (another consumer: 409 `checkout_claimed`) and
 * answers the bank-data provider's bank-linking token.
 */
export const createLinkTokenOp = defineOperation(
  "payments.createLinkToken",
  z.object({ checkout_id: z.string().min(1).max(64), link_token: z.string().min(1).max(512) }),
  BankLinkTokenResponse,
);
