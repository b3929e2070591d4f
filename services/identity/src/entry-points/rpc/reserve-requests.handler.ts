import { reserveRequestsOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { reserveRequests } from "../../domain/reserve-requests.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// The gateway's own call (anonymous principal, which only the gateway's and the CLI's broker users may send).
export const reserveRequestsHandler = (deps: IdentityDeps) => handle(reserveRequestsOp, (payload) => reserveRequests(deps, payload));
