import { logoutOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { logout } from "../../domain/logout.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

export const logoutHandler = (deps: IdentityDeps) => handle(logoutOp, (_payload, ctx) => logout(deps, ctx.principal));
