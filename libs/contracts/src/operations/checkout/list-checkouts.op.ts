import { ListCheckoutsQuery, ListCheckoutsResponse } from "../../http/checkout.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** The calling merchant's checkouts, newest first, cursor-paged (docs/api-notes.md, The checkout). */
export const listCheckoutsOp = defineOperation("checkout.listCheckouts", ListCheckoutsQuery, ListCheckoutsResponse);
