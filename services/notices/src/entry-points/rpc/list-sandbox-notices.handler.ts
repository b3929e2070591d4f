import { AppError, listSandboxNoticesOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { listNotices } from "../../domain/list-notices.use-case.ts";
import { toSandboxNotice } from "../../domain/notice.entity.ts";
import type { NoticesHandlerDeps } from "./deps.ts";

// The sandbox outbox shows what each notice said; live installations never answer it.
export const listSandboxNoticesHandler = (deps: NoticesHandlerDeps) =>
  handle(listSandboxNoticesOp, (payload, ctx) => {
    if (!deps.sandbox) throw new AppError("route_not_found", "the sandbox outbox exists only with sandbox providers");
    return listNotices(deps, ctx.principal, payload, toSandboxNotice);
  });
