import { getNoticeRecipientOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getNoticeRecipient } from "../../domain/get-notice-recipient.use-case.ts";
import type { CheckoutDeps } from "./deps.ts";

// Internal: the notices service asks it for a checkout's consumer email.
export const getNoticeRecipientHandler = (deps: CheckoutDeps) =>
  handle(getNoticeRecipientOp, (payload, ctx) => getNoticeRecipient(deps, ctx.principal, payload.checkout_id));
