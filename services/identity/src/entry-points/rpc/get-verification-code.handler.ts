import { getVerificationCodeOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getVerificationCode } from "../../domain/get-verification-code.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

export const getVerificationCodeHandler = (deps: IdentityDeps) =>
  handle(getVerificationCodeOp, (payload, ctx) => getVerificationCode(deps, ctx.principal, payload.phone));
