import { getRelinkValidationOp, requireUser, startRelinkMicroDepositsOp, verifyRelinkMicroDepositsOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getRelinkValidation } from "../../domain/bank-accounts/get-relink-validation.use-case.ts";
import { startRelinkMicroDeposits } from "../../domain/bank-accounts/start-relink-micro-deposits.use-case.ts";
import { verifyRelinkMicroDeposits } from "../../domain/bank-accounts/verify-relink-micro-deposits.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const startRelinkMicroDepositsHandler = (deps: PaymentsDeps) =>
  handle(startRelinkMicroDepositsOp, (payload, ctx) => startRelinkMicroDeposits(deps, ctx, requireUser(ctx.principal), payload));

export const verifyRelinkMicroDepositsHandler = (deps: PaymentsDeps) =>
  handle(verifyRelinkMicroDepositsOp, (payload, ctx) => verifyRelinkMicroDeposits(deps, ctx, requireUser(ctx.principal), payload));

export const getRelinkValidationHandler = (deps: PaymentsDeps) =>
  handle(getRelinkValidationOp, (payload, ctx) => getRelinkValidation(deps, ctx, requireUser(ctx.principal), payload));
