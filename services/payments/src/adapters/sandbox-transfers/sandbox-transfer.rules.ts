import { AppError } from "@payrail/contracts";
import { TransferRefused, type CreateTransferInput, type TransferState, type TransferStatusEvent } from "../../domain/transfers/ports/transfer.port.ts";

/** What `simulate` is asked to do (the body of `POST /api/sandbox/transfers/{id}/simulate`). */
export interface SimulateInput {
  status: "completed" | "failed";
  /** ACH return code for `failed` (`R01` insufficient funds when absent); ignored for `completed`. */
  failureCode?: string;
}

/**
 * `changed: true`: this call moved the transfer and `event` is new. `changed: false`: the
 * transfer was already final; `event` is the one that made it so (null only for a transfer
 * that never went through `simulate`).
 */
export type SimulationResult =
  | { changed: true; event: TransferStatusEvent; transfer: TransferState }
  | { changed: false; reason: string; event: TransferStatusEvent | null; transfer: TransferState };

/** Resources the simulated provider holds (all processes together), and this instance's calls. */
export interface SandboxTransferStats {
  customersCreated: number;
  fundingSourcesCreated: number;
  transfersCreated: number;
  /** Calls made through this adapter instance, by method (to see that a step was not repeated). */
  calls: { ensureCustomer: number; createFundingSource: number; createTransfer: number; getTransfer: number; findTransfer: number };
}

/** ACH return codes are R followed by two digits (R01 insufficient funds, R02 account closed, ...). */
const ACH_RETURN_CODE = /^R\d{2}$/;

export function checkSimulation(input: SimulateInput): { status: "completed" | "failed"; failureCode?: string } {
  const status: unknown = input?.status;
  if (status === "completed") return { status };
  if (status !== "failed") throw new AppError("invalid_status", "status must be completed or failed", { param: "status" });
  const code = input.failureCode ?? "R01";
  if (typeof code !== "string" || !ACH_RETURN_CODE.test(code.toUpperCase())) {
    throw new AppError("parameter_invalid", "failure_code must be an ACH return code such as R01", { param: "failure_code" });
  }
  return { status, failureCode: code.toUpperCase() };
}

/** The checks Dwolla makes on POST /transfers that a simulation should not skip. */
export function checkTransferInput(input: CreateTransferInput): void {
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) throw validationError("Invalid amount.", "/amount/value");
  if (input.currency !== "USD") throw validationError("Invalid currency.", "/amount/currency");
  if (!input.sourceFundingSource) throw validationError("Source required.", "/_links/source/href");
  if (!input.destinationFundingSource) throw validationError("Destination required.", "/_links/destination/href");
  if (input.sourceFundingSource === input.destinationFundingSource) throw validationError("Source and destination must differ.", "/_links/destination/href");
  if (!input.idempotencyKey || input.idempotencyKey.length > 255) throw new AppError("internal_error", "idempotency key must be 1 to 255 characters");
  const metadata = Object.entries(input.metadata ?? {});
  if (metadata.length > 10 || metadata.some(([k, v]) => typeof v !== "string" || k.length > 255 || v.length > 255)) {
    throw validationError("Metadata is limited to 10 string pairs of at most 255 characters.", "/metadata");
  }
}

// Both are refusals for good, as Dwolla's 404 and 400 are: the same request never succeeds.
export function notFound(what: string): AppError {
  return new TransferRefused(`the transfer provider has no such ${what}`, "NotFound");
}

export function validationError(message: string, path: string): AppError {
  return new TransferRefused(`the transfer provider refused the request (ValidationError): ${message} (${path})`, "ValidationError");
}
