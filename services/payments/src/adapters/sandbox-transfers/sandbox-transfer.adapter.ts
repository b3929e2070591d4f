import { AppError } from "@payrail/contracts";
import { randomUUID, sha256Hex, type Logger } from "@payrail/runtime";
import { insertOrGet, withEvents, type OutboxEvent, type Store } from "@payrail/store";
import type {
  CreatedTransfer,
  CreateFundingSourceInput,
  CreateTransferInput,
  EnsureCustomerInput,
  FindTransferInput,
  FundingSource,
  MicroDeposits,
  TransferCustomer,
  TransferPort,
  TransferState,
  TransferStatusEvent,
} from "../../domain/transfers/ports/transfer.port.ts";
import { PROVIDER_IDEMPOTENCY_WINDOW_MS } from "../../domain/transfers/ports/transfer.port.ts";
import {
  SANDBOX_CUSTOMERS,
  SANDBOX_FUNDING_SOURCES,
  SANDBOX_TRANSFERS,
  SANDBOX_URL,
  sandboxId,
  type SandboxCustomerRecord,
  type SandboxFundingSourceRecord,
  toState,
  type SandboxTransferRecord,
} from "./sandbox-transfer.records.ts";
import {
  checkSimulation,
  checkTransferInput,
  notFound,
  validationError,
  type SandboxTransferStats,
  type SimulateInput,
  type SimulationResult,
} from "./sandbox-transfer.rules.ts";
import { initiateSandboxMicroDeposits, SANDBOX_MICRO_DEPOSITS, verifySandboxMicroDeposits, type SandboxMicroDepositsRecord } from "./sandbox-micro-deposits.ts";
import { SANDBOX_PROCESSOR_TOKENS, type SandboxProcessorTokenRecord } from "../sandbox/sandbox-bank-data.records.ts";

export type { SandboxTransferStats, SimulateInput, SimulationResult } from "./sandbox-transfer.rules.ts";

/**
 * A deterministic transfer provider with Dwolla's rules where they matter: idempotency keys
 * (one resource per key, enforced by unique indexes so racing callers and processes agree),
 * transfers that stay `pending` until `simulate` moves them once, ACH return codes on failure,
 * and provider errors with Dwolla's codes (`ValidationError`, `NotFound`).
 */
export class SandboxTransferAdapter implements TransferPort {
  readonly provider = "sandbox" as const;
  private readonly calls = { ensureCustomer: 0, createFundingSource: 0, createTransfer: 0, getTransfer: 0, findTransfer: 0 };
  private indexes: Promise<void> | undefined;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  private get customers() {
    return this.store.collection<SandboxCustomerRecord>(SANDBOX_CUSTOMERS);
  }
  private get fundingSources() {
    return this.store.collection<SandboxFundingSourceRecord>(SANDBOX_FUNDING_SOURCES);
  }
  private get transfers() {
    return this.store.collection<SandboxTransferRecord>(SANDBOX_TRANSFERS);
  }
  private get microDeposits() {
    return this.store.collection<SandboxMicroDepositsRecord>(SANDBOX_MICRO_DEPOSITS);
  }

  async ensureCustomer(input: EnsureCustomerInput): Promise<TransferCustomer> {
    this.calls.ensureCustomer++;
    await this.ready();
    const { doc: record } = await insertOrGet(this.customers, { _id: randomUUID(), userId: input.userId, createdAt: this.iso() }, { userId: input.userId });
    return { customerUrl: SANDBOX_URL.customer(record._id) };
  }

  async createFundingSource(input: CreateFundingSourceInput): Promise<FundingSource> {
    this.calls.createFundingSource++;
    await this.ready();
    const customerId = sandboxId(input.customerUrl, "customers");
    if (!customerId || !(await this.customers.findOne({ _id: customerId }))) throw notFound("customer");
    if (!input.processorToken) throw validationError("plaidToken is required", "/plaidToken");
    const { doc: record } = await insertOrGet(
      this.fundingSources,
      {
        _id: randomUUID(),
        customerId,
        idempotencyKey: input.idempotencyKey,
        name: input.name.slice(0, 50),
        processorTokenSha256: sha256Hex(input.processorToken),
        fingerprint: await this.fingerprintOf(input.processorToken),
        createdAt: this.iso(),
      },
      { idempotencyKey: input.idempotencyKey },
    );
    return { fundingSourceUrl: SANDBOX_URL.fundingSource(record._id), fingerprint: record.fingerprint ?? null };
  }

  /**
   * Dwolla's fingerprint identifies the bank account behind a funding source, whoever linked it.
   * The simulator's: a SHA-256 of the routing and account numbers the sandbox bank-data
   * simulator gave the processor token's account (they share the store, as Dwolla asks Plaid);
   * null for a token it did not issue or an account linked before numbers were kept.
   */
  private async fingerprintOf(processorToken: string): Promise<string | null> {
    const token = await this.store.collection<SandboxProcessorTokenRecord>(SANDBOX_PROCESSOR_TOKENS).findOne({ _id: sha256Hex(processorToken) });
    const { routingNumber, accountNumber } = token?.account ?? {};
    return routingNumber && accountNumber ? sha256Hex(`${routingNumber}:${accountNumber}`) : null;
  }

  async createTransfer(input: CreateTransferInput): Promise<CreatedTransfer> {
    this.calls.createTransfer++;
    await this.ready();
    checkTransferInput(input);
    // Funding sources this simulator issued must exist; any other reference is taken to be a
    // merchant's account configured outside it (refunds send from those).
    for (const ref of [input.sourceFundingSource, input.destinationFundingSource]) {
      const id = sandboxId(ref, "funding-sources");
      if (id && !(await this.fundingSources.findOne({ _id: id }))) throw notFound("funding source");
    }
    const at = this.iso();
    // Dwolla keeps a key 24 hours: a repeat within them answers the first transfer, a repeat
    // after them makes another one (which is why a late resume must look the transfer up first).
    const latest = await this.transfers.findOne({ correlationId: input.idempotencyKey }, { sort: { correlationId: 1, createdAt: -1 } });
    const expired = latest !== null && Date.parse(latest.createdAt) + PROVIDER_IDEMPOTENCY_WINDOW_MS <= this.now();
    const { doc: record } = await insertOrGet(
      this.transfers,
      {
        _id: randomUUID(),
        idempotencyKey: expired ? `${input.idempotencyKey}@${at}` : input.idempotencyKey,
        correlationId: input.idempotencyKey,
        sourceFundingSource: input.sourceFundingSource,
        destinationFundingSource: input.destinationFundingSource,
        amountCents: input.amountCents,
        currency: input.currency,
        metadata: Object.entries(input.metadata ?? {}).map(([key, value]) => ({ key, value })),
        status: "pending",
        createdAt: at,
        updatedAt: at,
      },
      { idempotencyKey: expired ? `${input.idempotencyKey}@${at}` : input.idempotencyKey },
    );
    if (record.amountCents !== input.amountCents) {
      // Dwolla answers the original for a reused key whatever the body; so do we, but say so.
      this.logger.warn({ transferId: record._id }, "sandbox transfer idempotency key reused with a different amount");
    }
    return { transferId: record._id, transferUrl: SANDBOX_URL.transfer(record._id), status: record.status };
  }

  async getTransfer(transferId: string): Promise<TransferState> {
    this.calls.getTransfer++;
    const record = await this.transfers.findOne({ _id: transferId });
    if (!record) throw notFound("transfer");
    return toState(record);
  }

  async findTransfer(input: FindTransferInput): Promise<CreatedTransfer | null> {
    this.calls.findTransfer++;
    await this.ready();
    const first = await this.transfers.findOne({ correlationId: input.idempotencyKey }, { sort: { correlationId: 1, createdAt: 1 } });
    return first ? { transferId: first._id, transferUrl: SANDBOX_URL.transfer(first._id), status: first.status } : null;
  }

  async initiateMicroDeposits(input: { fundingSourceUrl: string; idempotencyKey: string }): Promise<MicroDeposits> {
    await this.ready();
    const fundingSourceExists = async (url: string) => {
      const id = sandboxId(url, "funding-sources");
      return !!id && (await this.fundingSources.findOne({ _id: id })) !== null;
    };
    return initiateSandboxMicroDeposits({ microDeposits: this.microDeposits, transfers: this.transfers, fundingSourceExists }, input, this.iso(), randomUUID);
  }

  verifyMicroDeposits(input: { fundingSourceUrl: string; reference: string; amountsCents: readonly [number, number] }): Promise<"verified" | "wrong"> {
    return verifySandboxMicroDeposits(this.microDeposits, input);
  }

  /**
   * Sandbox only: the provider settles (`completed`) or returns (`failed`, ACH code, R01 by
   * default) a pending transfer, or returns a completed one, in one conditional write so racing
   * simulations have one winner. Otherwise a final transfer never moves: the answer says nothing changed and repeats the event that
   * made it final, so a caller that lost that event can still process it (same `eventId`).
   * `audit` (the merchant's audit entry of the simulation) rides the moving write: a simulation
   * that moves nothing records nothing.
   */
  async simulate(transferId: string, input: SimulateInput, audit: readonly OutboxEvent[] = []): Promise<SimulationResult> {
    const { status, failureCode } = checkSimulation(input);
    const at = this.iso();
    const event: TransferStatusEvent = { eventId: randomUUID(), transferId, status, ...(failureCode ? { failureCode } : {}), occurredAt: at };
    const set: Partial<SandboxTransferRecord> = { status, lastEvent: event, updatedAt: at, ...(failureCode ? { failureCode } : {}) };
    // A settled transfer can still come back (an ACH return, up to 60 days later for an
    // unauthorized one), as Dwolla's `processed` can turn `failed`; nothing else moves a final one.
    const from = status === "failed" ? { $in: ["pending", "completed"] } : "pending";
    const updated = await this.transfers.findOneAndUpdate({ _id: transferId, status: from }, withEvents({ $set: set }, audit));
    if (updated) return { changed: true, event, transfer: toState(updated) };
    const current = await this.transfers.findOne({ _id: transferId });
    if (!current) throw new AppError("resource_missing", "no sandbox transfer has this id", { param: "transferId" });
    return { changed: false, reason: `transfer is already ${current.status}`, event: current.lastEvent ?? null, transfer: toState(current) };
  }

  async stats(): Promise<SandboxTransferStats> {
    const [customersCreated, fundingSourcesCreated, transfersCreated] = await Promise.all([
      this.customers.estimatedCount(),
      this.fundingSources.estimatedCount(),
      this.transfers.estimatedCount(),
    ]);
    return { customersCreated, fundingSourcesCreated, transfersCreated, calls: { ...this.calls } };
  }


  /** Unique indexes first: they are what makes the idempotency hold under races. */
  private ready(): Promise<void> {
    this.indexes ??= Promise.all([
      this.customers.createIndex({ keys: { userId: 1 }, unique: true, name: "user" }),
      this.fundingSources.createIndex({ keys: { idempotencyKey: 1 }, unique: true, name: "idempotency_key" }),
      this.transfers.createIndex({ keys: { idempotencyKey: 1 }, unique: true, name: "idempotency_key" }),
      this.transfers.createIndex({ keys: { correlationId: 1, createdAt: 1 }, name: "correlation_id" }),
      this.microDeposits.createIndex({ keys: { idempotencyKey: 1 }, unique: true, name: "idempotency_key" }),
    ]).then(
      () => undefined,
      (err: unknown) => {
        this.indexes = undefined;
        throw err;
      },
    );
    return this.indexes;
  }

  private iso(): string {
    return new Date(this.now()).toISOString();
  }
}
