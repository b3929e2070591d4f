import { addAnnualReviewOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { recordAnnualReview } from "../../domain/fraud/fraud-evidence.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const recordAnnualReviewHandler = (deps: PaymentsDeps) => handle(addAnnualReviewOp, (payload, ctx) => recordAnnualReview(deps, ctx, payload.notes));
