import { z } from "zod";
import { ExchangePublicTokenBody, MessageResponse } from "../../http/consumer.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** The consumer's client as the gateway saw the request: what a mandate records of where it was accepted. */
export const MandateClient = z.object({ ip_address: z.string().max(64), user_agent: z.string().max(1024) });

/**
 * Exchange Public Token (spec 7, docs/api-notes.md, Moving money) for the calling consumer: exchanges the public token
 * at the bank-data provider, stores the access token encrypted and the chosen account, and moves
 * the checkout to `payment_method_saved`. A used, expired or unknown public token is 400
 * `parameter_invalid` (param `public_token`) and stores nothing.
 */
export const exchangePublicTokenOp = defineOperation(
  "payments.exchangePublicToken",
  ExchangePublicTokenBody.extend({
    checkout_id: z.string().min(1).max(64),
    link_token: z.string().min(1).max(512),
    client: MandateClient.optional(),
  }),
  MessageResponse,
);
