import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { AppError, createCheckoutOp, generateLinkTokenOp, type MerchantPrincipal, type Principal, type UserPrincipal } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { createLogger, loadConfig, type Logger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
// Through the launcher's wiring: a service never imports another service, not even in tests.
import { startServices } from "../../../../bin/wiring.ts";
import { merchantPrincipal, sampleCheckout } from "../../../../test/support/fixtures.ts";
import type { InfraVariant } from "../../../../test/support/infra.ts";
import { SandboxBankDataAdapter } from "../../src/adapters/sandbox/sandbox-bank-data.adapter.ts";
import { start } from "../../src/index.ts";

/** A clock the test moves, to expire tokens without waiting. */
export class TestClock {
  offsetMs = 0;
  now = () => Date.now() + this.offsetMs;
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface PaymentsHarness {
  client: Transport;
  store: Store;
  secretsKey: Buffer;
  clock: TestClock;
  /** Everything the services logged so far. */
  logs(): string;
  merchant: MerchantPrincipal;
  /** Creates a checkout for the harness's merchant and a merchant link token for it. */
  checkout(overrides?: Record<string, unknown>): Promise<{ id: string; linkToken: string }>;
}

/** Checkout and payments (sandbox bank data on a test clock) on one variant's bus and store. */
export async function startPayments(variant: InfraVariant): Promise<PaymentsHarness> {
  const { logger, lines } = memoryLogger();
  const store = await variant.store();
  const secretsKey = randomBytes(32);
  const clock = new TestClock();
  await startServices(["checkout"], { config: loadConfig({}), logger, transport: await variant.transport(), store });
  await start({
    transport: await variant.transport(),
    store,
    logger,
    secretsKey,
    providers: loadConfig({}),
    bankData: new SandboxBankDataAdapter(store, clock.now),
  });
  const client = await variant.transport();
  const merchant = merchantPrincipal();
  return {
    client,
    store,
    secretsKey,
    clock,
    logs: lines,
    merchant,
    async checkout(overrides = {}) {
      const meta = { requestId: "req_test", principal: merchant };
      const { id } = await client.call(createCheckoutOp, { checkout: sampleCheckout(overrides) as never }, meta);
      const { link_token } = await client.call(generateLinkTokenOp, { checkout_id: id }, meta);
      return { id, linkToken: link_token };
    },
  };
}

export function consumer(): UserPrincipal {
  return { kind: "user", userId: randomBytes(16).toString("hex"), phone: "+15555550100" };
}

export const as = (principal: Principal) => ({ requestId: `req_${randomBytes(4).toString("hex")}`, principal });

/** The AppError code a call fails with, or "resolved". */
export const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => "resolved",
    (e: unknown) => (e instanceof AppError ? e.code : String(e)),
  );

function memoryLogger(): { logger: Logger; lines: () => string } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString("utf8"));
      done();
    },
  });
  return { logger: createLogger({ level: "debug", destination }), lines: () => chunks.join("") };
}
