import { z } from "zod";
import { CreateCheckoutBody, CreateCheckoutResponse } from "../../http/checkout.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** Create Checkout (spec 1) for the calling merchant. */
export const createCheckoutOp = defineOperation(
  "checkout.createCheckout",
  z.object({ checkout: CreateCheckoutBody }),
  CreateCheckoutResponse,
);
