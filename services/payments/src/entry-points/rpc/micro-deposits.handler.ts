import { requireUser, startMicroDepositsOp, verifyMicroDepositsOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { startMicroDeposits } from "../../domain/bank-accounts/start-micro-deposits.use-case.ts";
import { verifyMicroDeposits } from "../../domain/bank-accounts/verify-micro-deposits.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const startMicroDepositsHandler = (deps: PaymentsDeps) =>
  handle(startMicroDepositsOp, (payload, ctx) => startMicroDeposits(deps, ctx, requireUser(ctx.principal), payload));

export const verifyMicroDepositsHandler = (deps: PaymentsDeps) =>
  handle(verifyMicroDepositsOp, (payload, ctx) => verifyMicroDeposits(deps, ctx, requireUser(ctx.principal), payload));
