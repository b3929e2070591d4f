import { z } from "zod";
import { VerifyCodeResponse } from "../../http/consumer.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Verify Code (spec 5): exchanges the phone's current code for an auth token, creating the
 * phone's user on its first verification. Wrong code: 401 `invalid_verification_code`;
 * expired: 401 `verification_code_expired`; attempts used up: 429 `too_many_attempts`.
 * Needs no credential.
 */
export const verifyCodeOp = defineOperation(
  "identity.verifyCode",
  z.object({ phone: z.string().min(1).max(64), verification_code: z.string().min(1).max(16) }),
  VerifyCodeResponse,
);
