import { signOutOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { signOut } from "../../domain/sign-out.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// The gateway, with the session cookie's token.
export const signOutHandler = (deps: IdentityDeps) => handle(signOutOp, (payload) => signOut(deps, payload));
