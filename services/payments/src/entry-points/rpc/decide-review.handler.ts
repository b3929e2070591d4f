import { decideReviewOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { decideReview } from "../../domain/fraud/decide-review.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const decideReviewHandler = (deps: PaymentsDeps) =>
  handle(decideReviewOp, (payload, ctx) => decideReview(deps, ctx, ctx.principal, payload.review_id, payload.decision));
