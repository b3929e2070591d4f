import { confirmTotpEnrolmentOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { confirmTotpEnrolment } from "../../domain/confirm-totp-enrolment.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// A signed-in dashboard user, on their own account: the use case checks.
export const confirmTotpEnrolmentHandler = (deps: IdentityDeps) => handle(confirmTotpEnrolmentOp, (payload, ctx) => confirmTotpEnrolment(deps, ctx, payload));
