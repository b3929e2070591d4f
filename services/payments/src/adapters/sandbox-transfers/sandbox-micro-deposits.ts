import { sha256Hex } from "@payrail/runtime";
import { insertOrGet, type Collection } from "@payrail/store";
import type { MicroDeposits } from "../../domain/transfers/ports/transfer.port.ts";
import { SANDBOX_URL, type SandboxTransferRecord } from "./sandbox-transfer.records.ts";
import { notFound } from "./sandbox-transfer.rules.ts";

export const SANDBOX_MICRO_DEPOSITS = "sandbox_micro_deposits";

/** One pair of micro-deposits the simulator sent; unique per idempotency key. */
export interface SandboxMicroDepositsRecord {
  _id: string;
  idempotencyKey: string;
  fundingSourceUrl: string;
  amountsCents: [number, number];
  createdAt: string;
}

/** Where the simulated deposits come from and their offsetting debit goes to. */
const VERIFICATION_ACCOUNT = "sandbox://payrail/account-verification";

/**
 * Two different amounts from 1 to 99 cents, drawn from the key (the same key, the same pair: a
 * repeated or racing initiation shows the consumer the amounts that were sent).
 */
export function sandboxMicroAmounts(idempotencyKey: string): [number, number] {
  const h = sha256Hex(`sandbox-micro-deposits:${idempotencyKey}`);
  const first = (parseInt(h.slice(0, 8), 16) % 99) + 1;
  let second = (parseInt(h.slice(8, 16), 16) % 99) + 1;
  if (second === first) second = (first % 99) + 1;
  return [first, second];
}

/**
 * The simulator's micro-deposits: the pair is recorded once per key (a unique index decides
 * between racing callers), and the two credits and their offsetting debit are recorded as
 * sandbox transfers, settled at once (the sandbox settles nothing on a bank's schedule).
 */
export async function initiateSandboxMicroDeposits(
  c: { microDeposits: Collection<SandboxMicroDepositsRecord>; transfers: Collection<SandboxTransferRecord>; fundingSourceExists(url: string): Promise<boolean> },
  input: { fundingSourceUrl: string; idempotencyKey: string },
  at: string,
  newId: () => string,
): Promise<MicroDeposits> {
  if (!(await c.fundingSourceExists(input.fundingSourceUrl))) throw notFound("funding source");
  const { doc } = await insertOrGet(
    c.microDeposits,
    { _id: newId(), idempotencyKey: input.idempotencyKey, fundingSourceUrl: input.fundingSourceUrl, amountsCents: sandboxMicroAmounts(input.idempotencyKey), createdAt: at },
    { idempotencyKey: input.idempotencyKey },
  );
  const [a, b] = doc.amountsCents;
  const legs: [string, string, string, number][] = [
    ["credit-1", VERIFICATION_ACCOUNT, doc.fundingSourceUrl, a],
    ["credit-2", VERIFICATION_ACCOUNT, doc.fundingSourceUrl, b],
    ["debit", doc.fundingSourceUrl, VERIFICATION_ACCOUNT, a + b],
  ];
  for (const [leg, source, destination, amountCents] of legs) {
    const key = `${doc.idempotencyKey}:${leg}`;
    await insertOrGet(
      c.transfers,
      {
        _id: newId(),
        idempotencyKey: key,
        correlationId: key,
        sourceFundingSource: source,
        destinationFundingSource: destination,
        amountCents,
        currency: "USD",
        metadata: [{ key: "company_entry_description", value: "ACCTVERIFY" }],
        status: "completed",
        createdAt: at,
        updatedAt: at,
      },
      { idempotencyKey: key },
    );
  }
  return { reference: SANDBOX_URL.microDeposits(doc._id), sandboxAmountsCents: [a, b] };
}

/** `verified` when the two amounts are the pair sent (in any order); `wrong` otherwise. */
export async function verifySandboxMicroDeposits(
  microDeposits: Collection<SandboxMicroDepositsRecord>,
  input: { fundingSourceUrl: string; reference: string; amountsCents: readonly [number, number] },
): Promise<"verified" | "wrong"> {
  const id = /^sandbox:\/\/micro-deposits\/([0-9a-f-]{36})$/.exec(input.reference)?.[1];
  const record = id ? await microDeposits.findOne({ _id: id }) : null;
  if (!record || record.fundingSourceUrl !== input.fundingSourceUrl) throw notFound("micro-deposits");
  const sent = [...record.amountsCents].sort((x, y) => x - y);
  const given = [...input.amountsCents].sort((x, y) => x - y);
  return sent[0] === given[0] && sent[1] === given[1] ? "verified" : "wrong";
}
