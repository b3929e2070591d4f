import { z } from "zod";
import { ConsumerReceipt, ConsumerReceiptList, ConsumerReceiptListQuery } from "../../http/consumer-receipts.schema.ts";
import { NoticeId } from "../../http/notices.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** The calling consumer's receipts across merchants, newest first (the portal; a sandbox token: its merchant's). */
export const listConsumerReceiptsOp = defineOperation("notices.listConsumerReceipts", ConsumerReceiptListQuery, ConsumerReceiptList);

/** One receipt of the calling consumer's with what each channel said; anyone else's is 404 `resource_missing`. */
export const getConsumerReceiptOp = defineOperation("notices.getConsumerReceipt", z.object({ receipt_id: NoticeId }), ConsumerReceipt);
