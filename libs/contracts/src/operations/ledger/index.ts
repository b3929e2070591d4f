export * from "./books.op.ts";
export * from "./payouts.op.ts";
export * from "./audit-log.op.ts";
