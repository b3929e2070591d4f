import { getReviewOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getReview } from "../../domain/fraud/list-reviews.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const getReviewHandler = (deps: PaymentsDeps) => handle(getReviewOp, (payload, ctx) => getReview(deps, ctx.principal, payload.review_id));
