import { signInOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { signIn } from "../../domain/sign-in.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// The gateway's sign-in form; the password is the credential.
export const signInHandler = (deps: IdentityDeps) => handle(signInOp, (payload) => signIn(deps, payload));
