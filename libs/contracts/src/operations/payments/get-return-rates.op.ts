import { z } from "zod";
import { ReturnRatesResponse } from "../../http/return-rates.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** The merchant's ACH return rates over the last 60 days (API.md §12), from indexes only. */
export const getReturnRatesOp = defineOperation("payments.getReturnRates", z.object({}), ReturnRatesResponse);
