import { randomBytes } from "node:crypto";
import {
  createCheckoutOp,
  createLinkTokenOp,
  exchangePublicTokenOp,
  generateLinkTokenOp,
  sandboxPublicTokenOp,
  type MerchantPrincipal,
  type UserPrincipal,
} from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { sampleCheckout } from "./fixtures.ts";

const as = (principal: MerchantPrincipal | UserPrincipal) => ({ requestId: `req_${randomBytes(4).toString("hex")}`, principal });

/**
 * A checkout of `merchant` whose consumer has linked a bank account through the sandbox, driven
 * over RPC (checkout, payments with sandbox bank data): the state Get Processor Token needs.
 */
export async function linkedCheckoutOverRpc(
  client: Transport,
  merchant: MerchantPrincipal,
  user: UserPrincipal = { kind: "user", userId: randomBytes(16).toString("hex"), phone: "+15555550100" },
  overrides: Record<string, unknown> = {},
  /** Which of the sandbox item's accounts: 0 checking, 1 savings, 2 "Unverifiable Checking" (micro-deposits). */
  account = 0,
): Promise<{ id: string; user: UserPrincipal; linkToken: string }> {
  const { id } = await client.call(createCheckoutOp, { checkout: sampleCheckout(overrides) as never }, as(merchant));
  const { link_token } = await client.call(generateLinkTokenOp, { checkout_id: id }, as(merchant));
  const bank = await client.call(createLinkTokenOp, { checkout_id: id, link_token }, as(user));
  const pub = await client.call(sandboxPublicTokenOp, { link_token: bank.link_token }, as(merchant));
  await client.call(
    exchangePublicTokenOp,
    { checkout_id: id, link_token, public_token: pub.public_token, bankdata_account_id: pub.accounts[account]!.account_id },
    as(user),
  );
  return { id, user, linkToken: link_token };
}
