import { RelinkTokenBody, RelinkTokenResponse } from "../../http/consumer-subscriptions.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * A bank-linking token for the calling consumer to link another account to one of their
 * subscriptions, with the recurring mandate text to show. Another consumer's record: 404.
 */
export const createRelinkTokenOp = defineOperation("payments.createRelinkToken", RelinkTokenBody, RelinkTokenResponse);
