import { disableTotpOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { disableTotp } from "../../domain/disable-totp.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// A signed-in dashboard user, on their own account, with a code: the use case checks.
export const disableTotpHandler = (deps: IdentityDeps) => handle(disableTotpOp, (payload, ctx) => disableTotp(deps, ctx, payload));
