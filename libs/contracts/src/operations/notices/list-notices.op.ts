import { NoticeListQuery, NoticeListResponse } from "../../http/notices.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** The calling merchant's consumer notices, newest first, of one checkout when asked. */
export const listNoticesOp = defineOperation("notices.listNotices", NoticeListQuery, NoticeListResponse);
