import { z } from "zod";
import { PayoutDetail, PayoutListQuery, PayoutListResponse, PayoutParams, RunPayoutsResponse } from "../../http/payouts.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** The calling merchant's payouts, newest first. */
export const listPayoutsOp = defineOperation("ledger.listPayouts", PayoutListQuery, PayoutListResponse);

/** One payout of the calling merchant with its balance transactions (another merchant's is 404 `payout_not_found`). */
export const getPayoutOp = defineOperation("ledger.getPayout", PayoutParams, PayoutDetail);

/** Sandbox only: the payout pass for the calling merchant, now; answers today's payout. */
export const runPayoutsOp = defineOperation("ledger.runPayouts", z.object({}), RunPayoutsResponse);
