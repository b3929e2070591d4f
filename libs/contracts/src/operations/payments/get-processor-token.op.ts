import { GetProcessorTokenBody, GetProcessorTokenResponse } from "../../http/payments.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Get Processor Token (spec 8): processor token, funding source, transfer, each recorded
 * before the next. At most one transfer per checkout, however often and concurrently called.
 */
export const getProcessorTokenOp = defineOperation(
  "payments.getProcessorToken",
  GetProcessorTokenBody,
  GetProcessorTokenResponse,
);
