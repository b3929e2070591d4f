import { SandboxVerificationCode, VerificationCodePhoneParam } from "../../http/sandbox-identity.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Sandbox only: the last code texted to a phone, read from the sandbox SMS outbox, so tests
 * and demos can finish the flow without a handset. A merchant may read its own consumers' and
 * operators' phones and phones that are nobody's yet; others, and live mode, are `resource_missing`.
 */
export const getVerificationCodeOp = defineOperation(
  "identity.getVerificationCode",
  VerificationCodePhoneParam,
  SandboxVerificationCode,
);
