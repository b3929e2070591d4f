import { listConsumerSubscriptionsOp, requireUser } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { listConsumerSubscriptions } from "../../domain/subscriptions/list-consumer-subscriptions.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const listConsumerSubscriptionsHandler = (deps: PaymentsDeps) =>
  handle(listConsumerSubscriptionsOp, (payload, ctx) => listConsumerSubscriptions(deps, ctx, requireUser(ctx.principal), payload));
