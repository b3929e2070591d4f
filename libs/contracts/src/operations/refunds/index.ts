export * from "./request-refund.op.ts";
export * from "./list-refunds.op.ts";
export * from "./decide-refund.op.ts";
export * from "./initiate-refund-transfer.op.ts";
export * from "./simulate-refund-transfer.op.ts";
export * from "./list-merchant-refunds.op.ts";
export * from "./get-merchant-refund.op.ts";
