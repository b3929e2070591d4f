import { AppError, getVerificationCodeOp } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { silentLogger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { afterAll, beforeAll } from "vitest";
import type { InfraVariant } from "../../../../test/support/infra.ts";
import { start, type IdentityServiceDeps } from "../../src/index.ts";

/** A clock the tests move instead of sleeping. */
export class TestClock {
  constructor(public t = Date.now()) {}
  now = () => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

export const anonymous = { requestId: "req_test", principal: { kind: "anonymous" as const } };
export const aMerchant = {
  requestId: "req_test",
  principal: { kind: "merchant" as const, merchantId: `mer_${"a".repeat(32)}`, keyPrefix: "sk_test_abcdefgh", livemode: false },
};

/** Identity on the variant's bus and store with a movable clock, and a client transport. */
export async function startIdentity(
  variant: InfraVariant,
  extra: Partial<IdentityServiceDeps> = {},
): Promise<{ client: Transport; store: Store; clock: TestClock }> {
  const clock = new TestClock();
  const store = await variant.store();
  await start({ transport: await variant.transport(), store, logger: silentLogger(), livemode: false, now: clock.now, ...extra });
  return { client: await variant.transport(), store, clock };
}

/**
 * For a `describe` per variant: identity started before its tests (unless the variant is
 * skipped), the variant cleaned up after. The fields are set by then.
 */
export function withIdentity(variant: InfraVariant): { client: Transport; store: Store; clock: TestClock } {
  const world = {} as { client: Transport; store: Store; clock: TestClock };
  beforeAll(async () => {
    if (variant.skipReason) return;
    Object.assign(world, await startIdentity(variant));
  });
  afterAll(() => variant.cleanup());
  return world;
}

/** The error code a call rejects with, or "resolved". */
export const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => "resolved",
    (e: unknown) => (e instanceof AppError ? e.code : String(e)),
  );

/** The AppError a call rejects with. */
export async function errorOf(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error("expected the call to fail");
}

let counter = 0;
/** A fresh, possible US number per call (the fictional 555-01xx range). */
export function freshPhone(): string {
  counter += 1;
  return `+1415555${String(counter % 10_000).padStart(4, "0")}`;
}

/** The last code the sandbox "texted" to the phone. */
export async function lastCode(client: Transport, phone: string): Promise<string> {
  return (await client.call(getVerificationCodeOp, { phone }, aMerchant)).code;
}

/** The session a sign-in opened (a user without two-factor); fails the test on a challenge. */
export async function sessionOf<T extends object>(signedIn: Promise<T>): Promise<Extract<T, { session_token: string }>> {
  const result = await signedIn;
  if (!("session_token" in result)) throw new Error("expected a session, got a two-factor challenge");
  return result as Extract<T, { session_token: string }>;
}
