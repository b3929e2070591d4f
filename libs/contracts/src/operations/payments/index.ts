export * from "./create-link-token.op.ts";
export * from "./exchange-public-token.op.ts";
export * from "./sandbox-public-token.op.ts";
export * from "./get-processor-token.op.ts";
export * from "./list-transactions.op.ts";
export * from "./cancel-subscription.op.ts";
export * from "./simulate-transfer.op.ts";
export * from "./handle-transfer-webhook.op.ts";
