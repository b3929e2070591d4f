import { resetPasswordOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { resetPassword } from "../../domain/reset-password.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// Anyone holding the emailed token: the token is the credential.
export const resetPasswordHandler = (deps: IdentityDeps) => handle(resetPasswordOp, (payload) => resetPassword(deps, payload));
