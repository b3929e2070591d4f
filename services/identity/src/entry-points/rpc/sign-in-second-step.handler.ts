import { signInSecondStepOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { signInSecondStep } from "../../domain/sign-in-second-step.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// The gateway's second sign-in step; the challenge token and the code are the credential.
export const signInSecondStepHandler = (deps: IdentityDeps) => handle(signInSecondStepOp, (payload) => signInSecondStep(deps, payload));
