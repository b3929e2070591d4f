import { requestPasswordResetOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { requestPasswordReset } from "../../domain/request-password-reset.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// Anyone, through the gateway's forgot-password form: the answer never tells whether the email has a user.
export const requestPasswordResetHandler = (deps: IdentityDeps) => handle(requestPasswordResetOp, (payload) => requestPasswordReset(deps, payload));
