import { getNoticeContactsOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getNoticeContacts } from "../../domain/get-notice-contacts.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// Internal: the notices service asks it who a notice names and whether the consumer has a phone.
export const getNoticeContactsHandler = (deps: IdentityDeps) => handle(getNoticeContactsOp, (payload, ctx) => getNoticeContacts(deps, ctx.principal, payload));
