export * from "./list-notices.op.ts";
export * from "./list-sandbox-notices.op.ts";
export * from "./consumer-receipts.op.ts";
export * from "./unsubscribe.op.ts";
