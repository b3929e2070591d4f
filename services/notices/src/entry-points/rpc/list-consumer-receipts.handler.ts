import { listConsumerReceiptsOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { listConsumerReceipts } from "../../domain/list-consumer-receipts.use-case.ts";
import type { NoticesHandlerDeps } from "./deps.ts";

export const listConsumerReceiptsHandler = (deps: NoticesHandlerDeps) => handle(listConsumerReceiptsOp, (payload, ctx) => listConsumerReceipts(deps, ctx.principal, payload));
