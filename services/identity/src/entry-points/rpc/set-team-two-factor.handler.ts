import { setTeamTwoFactorOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { setTeamTwoFactor } from "../../domain/set-team-two-factor.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// Admin, or the merchant's owners: the use case checks.
export const setTeamTwoFactorHandler = (deps: IdentityDeps) => handle(setTeamTwoFactorOp, (payload, ctx) => setTeamTwoFactor(deps, ctx, payload));
