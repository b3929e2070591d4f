import { sendNoticeSmsOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { sendNoticeSms } from "../../domain/send-notice-sms.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// Internal: the notices service sends its SMS through identity's provider.
export const sendNoticeSmsHandler = (deps: IdentityDeps) => handle(sendNoticeSmsOp, (payload, ctx) => sendNoticeSms(deps, ctx.principal, payload));
