import { SandboxVerificationCode, VerificationCodePhoneParam } from "../../http/sandbox-identity.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Sandbox only: the last code texted to a phone, read from the sandbox SMS outbox, so tests
 * and demos can finish the flow without a handset. Any merchant may ask; in live mode it is
 * `resource_missing`.
 */
export const getVerificationCodeOp = defineOperation(
  "identity.getVerificationCode",
  VerificationCodePhoneParam,
  SandboxVerificationCode,
);
