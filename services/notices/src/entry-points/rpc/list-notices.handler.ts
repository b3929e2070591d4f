import { listNoticesOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { listNotices } from "../../domain/list-notices.use-case.ts";
import { toNotice } from "../../domain/notice.entity.ts";
import type { NoticesHandlerDeps } from "./deps.ts";

export const listNoticesHandler = (deps: NoticesHandlerDeps) => handle(listNoticesOp, (payload, ctx) => listNotices(deps, ctx.principal, payload, toNotice));
