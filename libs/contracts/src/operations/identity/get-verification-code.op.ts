import { SandboxVerificationCode, VerificationCodePhoneParam } from "../../http/sandbox-identity.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Sandbox only: the calling merchant's own code for the phone's last send, so tests and demos
 * can finish the flow without a handset; verified, it yields a token limited to that merchant
 * (docs/decisions/0001-sandbox-tenancy.md). A merchant may read its own consumers' and
 * operators' phones and phones that are nobody's yet; others, and live mode, are `resource_missing`.
 */
export const getVerificationCodeOp = defineOperation(
  "identity.getVerificationCode",
  VerificationCodePhoneParam,
  SandboxVerificationCode,
);
