export * from "./create-merchant.op.ts";
export * from "./generate-api-key.op.ts";
export * from "./revoke-api-key.op.ts";
export * from "./resolve-api-key.op.ts";
export * from "./get-merchant.op.ts";
export * from "./resolve-auth-token.op.ts";
