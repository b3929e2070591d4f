export * from "./books.op.ts";
export * from "./payouts.op.ts";
