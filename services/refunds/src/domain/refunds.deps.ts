import type { Logger, SharedCalls } from "@payrail/runtime";
import type { OperatorsPort } from "./ports/operators.port.ts";
import type { PaymentsPort } from "./ports/payments.port.ts";
import type { RefundEventsPort } from "./ports/refund-events.port.ts";
import type { RefundLedgersPort } from "./ports/refund-ledgers.port.ts";
import type { RefundsPort } from "./ports/refunds.port.ts";
import type { RefundDoc } from "./refund.entity.ts";

/** What the refund use cases need. */
export interface RefundsDeps {
  refunds: RefundsPort;
  /** What the refunds of each transaction hold of its amount. */
  ledgers: RefundLedgersPort;
  payments: PaymentsPort;
  operators: OperatorsPort;
  /** Told after every write that stored events, so they are published at once. */
  events: RefundEventsPort;
  /** Whether this deployment moves real money: the `livemode` of the refund events. */
  livemode: boolean;
  logger: Logger;
  now(): Date;
  /** Payouts asked of payments from this process, by refund and attempt, while one is on its way. */
  payoutCalls: SharedCalls<RefundDoc>;
}
