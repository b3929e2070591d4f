import { verifyCodeOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { verifyCode } from "../../domain/verify-code.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// No credential: knowing the code is the proof.
export const verifyCodeHandler = (deps: IdentityDeps) => handle(verifyCodeOp, (payload) => verifyCode(deps, payload));
