import { getFraudMonitoringOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getFraudMonitoring } from "../../domain/fraud/fraud-evidence.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const getFraudMonitoringHandler = (deps: PaymentsDeps) => handle(getFraudMonitoringOp, (_payload, ctx) => getFraudMonitoring(deps, ctx.principal));
