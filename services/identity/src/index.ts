import type { Transport } from "@payrail/messaging";
import type { Logger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { createSmsProvider, type TwilioConfig } from "./adapters/sms-provider.ts";
import { AuthTokenRepository } from "./data-access/auth-token.repository.ts";
import { loadCodeKey } from "./data-access/code-key.repository.ts";
import { MerchantRepository } from "./data-access/merchant.repository.ts";
import { OperatorRepository } from "./data-access/operator.repository.ts";
import { UserRepository } from "./data-access/user.repository.ts";
import { VerificationCodeRepository } from "./data-access/verification-code.repository.ts";
import { identityHandlers } from "./entry-points/rpc/handlers.ts";

export interface IdentityServiceDeps {
  transport: Transport;
  store: Store;
  logger: Logger;
  /** PROVIDERS=live: `sk_live_` keys and Twilio for SMS; otherwise `sk_test_` and the sandbox. */
  livemode: boolean;
  /** AUTH_TOKEN_TTL_HOURS (default 24). */
  authTokenTtlHours?: number;
  /** TWILIO_ACCOUNT_SID / TWILIO_AUTH_TOKEN / TWILIO_FROM_NUMBER; required in live mode. */
  twilio?: TwilioConfig;
  /** SECRETS_KEY (text or bytes), from which the verification-code HMAC key is derived when set. */
  secretsKey?: string | Buffer | undefined;
  /** The clock (ms since the epoch); tests pass one they can move. */
  now?: () => number;
}

/** Composition root of the identity service: adapters and indexes first, then the queue. */
export async function start(deps: IdentityServiceDeps): Promise<{ name: string; stop(): Promise<void> }> {
  const now = deps.now ?? Date.now;
  const { sms, outbox } = await createSmsProvider({ livemode: deps.livemode, twilio: deps.twilio, store: deps.store, logger: deps.logger, now });
  const merchants = new MerchantRepository(deps.store);
  const users = new UserRepository(deps.store);
  const authTokens = new AuthTokenRepository(deps.store);
  await merchants.ensureIndexes();
  await users.ensureIndexes();
  await authTokens.ensureIndexes();
  const operators = new OperatorRepository(deps.store);
  await operators.ensureIndexes();
  const codeKey = await loadCodeKey(deps.store, deps.secretsKey);
  await deps.transport.serve(
    "identity",
    identityHandlers({
      merchants,
      operators,
      livemode: deps.livemode,
      ping: () => deps.store.ping(),
      users,
      codes: new VerificationCodeRepository(deps.store),
      authTokens,
      sms,
      outbox,
      codeKey,
      authTokenTtlMs: (deps.authTokenTtlHours ?? 24) * 60 * 60 * 1000,
      now,
    }),
  );
  deps.logger.info("identity service started");
  return { name: "identity", stop: async () => {} };
}
