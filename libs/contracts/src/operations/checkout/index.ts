export * from "./create-checkout.op.ts";
export * from "./get-checkout.op.ts";
export * from "./list-checkouts.op.ts";
export * from "./generate-link-token.op.ts";
export * from "./verify-link-token.op.ts";
export * from "./get-checkout-summary.op.ts";
export * from "./get-hosted-checkout.op.ts";
export * from "./get-notice-recipient.op.ts";
