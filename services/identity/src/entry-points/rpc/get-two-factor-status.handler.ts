import { getTwoFactorStatusOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getTwoFactorStatus } from "../../domain/get-two-factor-status.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// A signed-in dashboard user, on their own account.
export const getTwoFactorStatusHandler = (deps: IdentityDeps) => handle(getTwoFactorStatusOp, (_payload, ctx) => getTwoFactorStatus(deps, ctx.principal));
