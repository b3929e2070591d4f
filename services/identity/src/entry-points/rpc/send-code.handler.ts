import { sendCodeOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { sendCode } from "../../domain/send-code.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// No credential: anyone may ask for a code; the resend limits guard the phone, the budgets the address and the bill.
export const sendCodeHandler = (deps: IdentityDeps) => handle(sendCodeOp, (payload) => sendCode(deps, payload.phone, payload.client_address));
