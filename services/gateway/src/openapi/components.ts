import {
  Address,
  Amounts,
  CheckoutView,
  CreateCheckoutBody,
  Item,
  RefundRecord,
  TransactionRecord,
  TransferSummary,
} from "@payrail/contracts";
import { z } from "zod";
import { ErrorBodySchema } from "../routes/openapi-shared.ts";

/*
 * The schemas the reference shows once, under components, and refers to everywhere
 * (fastify-type-provider-zod turns schemas registered with an id into `$ref`s). Registered
 * once per process, at import: the global registry refuses an id twice.
 */
z.globalRegistry.add(ErrorBodySchema, { id: "Error", description: "Every non-2xx answer: one shape for all errors (docs/api-notes.md, Errors)." });
z.globalRegistry.add(Amounts, { id: "Amounts", description: "Decimal amounts (numbers or numeric strings, at most 2 fraction digits)." });
z.globalRegistry.add(Address, { id: "Address" });
z.globalRegistry.add(Item, { id: "Item" });
// Its example is the request body's (operation-docs.ts): zod drops examples of a transforming input schema.
z.globalRegistry.add(CreateCheckoutBody, { id: "CheckoutCreate", description: "The merchant's checkout object." });
z.globalRegistry.add(CheckoutView, { id: "Checkout", description: "A checkout: every key as sent, plus the server's fields." });
z.globalRegistry.add(TransferSummary, { id: "TransferSummary" });
z.globalRegistry.add(TransactionRecord, { id: "TransactionRecord" });
z.globalRegistry.add(RefundRecord, { id: "Refund" });
