import { acceptInvitationOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { acceptInvitation } from "../../domain/accept-invitation.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// Whoever holds the invitation's token: the token is the credential.
export const acceptInvitationHandler = (deps: IdentityDeps) => handle(acceptInvitationOp, (payload) => acceptInvitation(deps, payload));
