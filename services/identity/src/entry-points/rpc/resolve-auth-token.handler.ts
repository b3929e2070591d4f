import { resolveAuthTokenOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { resolveAuthToken } from "../../domain/resolve-auth-token.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// Anyone may ask: knowing the token is the proof. The gateway is the only caller.
export const resolveAuthTokenHandler = (deps: IdentityDeps) =>
  handle(resolveAuthTokenOp, (payload) => resolveAuthToken(deps, payload.auth_token));
