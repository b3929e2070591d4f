export * from "./create-link-token.op.ts";
export * from "./exchange-public-token.op.ts";
export * from "./sandbox-public-token.op.ts";
