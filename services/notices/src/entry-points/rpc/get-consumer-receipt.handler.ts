import { getConsumerReceiptOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getConsumerReceipt } from "../../domain/get-consumer-receipt.use-case.ts";
import type { NoticesHandlerDeps } from "./deps.ts";

export const getConsumerReceiptHandler = (deps: NoticesHandlerDeps) => handle(getConsumerReceiptOp, (payload, ctx) => getConsumerReceipt(deps, ctx.principal, payload.receipt_id));
