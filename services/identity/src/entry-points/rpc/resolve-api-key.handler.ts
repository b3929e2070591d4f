import { resolveApiKeyOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { resolveApiKey } from "../../domain/resolve-api-key.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// Anyone may ask: knowing the key is the proof. The gateway is the only caller.
export const resolveApiKeyHandler = (deps: IdentityDeps) =>
  handle(resolveApiKeyOp, (payload) => resolveApiKey(deps, payload.api_key));
