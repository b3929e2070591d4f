import { CREATE_CHECKOUT_EXAMPLE } from "@payrail/contracts";

// In the contracts, beside the schema it satisfies: `payrail trigger` and `npm run demo` send it too, without loading the gateway.
export { CREATE_CHECKOUT_EXAMPLE };

/** Example bodies of the other operations, keyed by operationId (what Try-it prefills). */
export const REQUEST_EXAMPLES: Record<string, unknown> = {
  createCheckout: CREATE_CHECKOUT_EXAMPLE,
  sendCode: { phone: "+14155552671" },
  verifyCode: { phone: "+14155552671", verification_code: "123456" },
  createSandboxPublicToken: { link_token: "link-sandbox-0b3f…" },
  exchangePublicToken: { public_token: "public-sandbox-5c1d…", bankdata_account_id: "acc_checking_0000" },
  executeTransfer: { checkout_id: "chk_0123456789abcdef0123456789abcdef" },
  cancelSubscription: { subscription_transaction_uuid: "sc-0123456789abcdef0123456789abcdef" },
  simulateTransfer: { status: "completed" },
  requestRefund: { transaction_uuid: "sc-0123456789abcdef0123456789abcdef", reason: "Damaged on arrival" },
  decideRefund: { id: "rfd_0123456789abcdef0123456789abcdef", status: "Approved" },
  initiateRefundTransfer: { id: "rfd_0123456789abcdef0123456789abcdef" },
  createMerchant: { name: "Acme Outdoor" },
  addOperator: { phone: "+14155552671" },
};
