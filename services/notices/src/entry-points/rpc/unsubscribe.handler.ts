import { unsubscribeOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { unsubscribe } from "../../domain/unsubscribe.use-case.ts";
import type { NoticesHandlerDeps } from "./deps.ts";

// No principal is needed: the signed token is the consumer's proof (unsubscribe.use-case.ts).
export const unsubscribeHandler = (deps: NoticesHandlerDeps) => handle(unsubscribeOp, (payload) => unsubscribe(deps.unsubscribe, payload));
