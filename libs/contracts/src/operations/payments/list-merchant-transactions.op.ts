import { z } from "zod";
import { TransactionExportPageQuery } from "../../http/books.schema.ts";
import { TransactionRecord } from "../../http/payments.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** A page of the calling merchant's transaction records, newest first, in `from`/`to` (transactions.csv). */
export const listMerchantTransactionsOp = defineOperation(
  "payments.listMerchantTransactions",
  TransactionExportPageQuery,
  z.object({ data: z.array(TransactionRecord), has_more: z.boolean() }),
);
