import { z } from "zod";
import { ReturnRatesResponse } from "../../http/return-rates.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** The merchant's ACH return rates over the last 60 days (docs/api-notes.md, Returns and blocked bank accounts), from indexes only. */
export const getReturnRatesOp = defineOperation("payments.getReturnRates", z.object({}), ReturnRatesResponse);
