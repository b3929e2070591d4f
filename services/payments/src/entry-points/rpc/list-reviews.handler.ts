import { listReviewsOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { listReviews } from "../../domain/fraud/list-reviews.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const listReviewsHandler = (deps: PaymentsDeps) => handle(listReviewsOp, (payload, ctx) => listReviews(deps, ctx.principal, payload));
