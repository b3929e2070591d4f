import { resolveDashboardSessionOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { resolveDashboardSession } from "../../domain/resolve-dashboard-session.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// The gateway, with the session cookie's token.
export const resolveDashboardSessionHandler = (deps: IdentityDeps) => handle(resolveDashboardSessionOp, (payload) => resolveDashboardSession(deps, payload));
