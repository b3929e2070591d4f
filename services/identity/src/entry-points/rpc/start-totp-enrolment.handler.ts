import { startTotpEnrolmentOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { startTotpEnrolment } from "../../domain/start-totp-enrolment.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// A signed-in dashboard user, on their own account: the use case checks.
export const startTotpEnrolmentHandler = (deps: IdentityDeps) => handle(startTotpEnrolmentOp, (_payload, ctx) => startTotpEnrolment(deps, ctx.principal));
