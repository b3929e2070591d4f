import { NoticeListQuery, SandboxNoticeListResponse } from "../../http/notices.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** Sandbox only: the merchant's notices with the text each says (the sandbox outbox). */
export const listSandboxNoticesOp = defineOperation("notices.listSandboxNotices", NoticeListQuery, SandboxNoticeListResponse);
