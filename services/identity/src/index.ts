import type { DomainEvent } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { SecretBox, type Logger } from "@payrail/runtime";
import { OutboxRelay, type Store } from "@payrail/store";
import { createSmsProvider, type TwilioConfig } from "./adapters/sms-provider.ts";
import { AuthTokenRepository } from "./data-access/auth-token.repository.ts";
import { ConsumerMerchantRepository } from "./data-access/consumer-merchant.repository.ts";
import { loadCodeKey, loadTotpKey } from "./data-access/code-key.repository.ts";
import { SmtpResetMailSender } from "./adapters/email/smtp-reset-mail.sender.ts";
import { LogResetMailSender } from "./adapters/sandbox/log-reset-mail.sender.ts";
import { SignInChallengeRepository } from "./data-access/sign-in-challenge.repository.ts";
import { DashboardSessionRepository } from "./data-access/dashboard-session.repository.ts";
import { MerchantUserRepository } from "./data-access/merchant-user.repository.ts";
import { SignInFailureRepository } from "./data-access/sign-in-failure.repository.ts";
import { MerchantRepository } from "./data-access/merchant.repository.ts";
import { OperatorRepository } from "./data-access/operator.repository.ts";
import { UserRepository } from "./data-access/user.repository.ts";
import { SendBudgetRepository } from "./data-access/send-budget.repository.ts";
import { RequestBudgetRepository } from "./data-access/request-budget.repository.ts";
import { VerificationCodeRepository } from "./data-access/verification-code.repository.ts";
import { phoneCountry } from "./domain/phone-number.ts";
import { sendCodeBudgets, sendCodeLimitStats, type SendCodeBudgets } from "./domain/send-code-limits.ts";
import { subscribeIdentityEvents } from "./entry-points/events/identity.subscriber.ts";
import { identityHandlers } from "./entry-points/rpc/handlers.ts";
import { createIndexes, IDENTITY_OUTBOXES } from "./indexes.ts";

export { sendCodeLimitStats, type SendCodeLimit } from "./domain/send-code-limits.ts";

/**
 * The defaults (docs/guide/operator.md, Configuration): 20 codes per address an hour with live providers, 1,000 in the sandbox
 * (texts cost nothing there); 5,000 to new numbers in total, a quarter of it per calling code.
 */
export function defaultSendCodeBudgets(livemode: boolean): Omit<SendCodeBudgets, "perCountryPerHour"> {
  return { perAddressPerHour: livemode ? 20 : 1_000, perHour: 5_000 };
}

const HOUR_MS = 3_600_000;

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
  /** send_code budgets (SEND_CODE_PER_ADDRESS_PER_HOUR, SEND_CODE_PER_COUNTRY_PER_HOUR, SEND_CODE_PER_HOUR); `defaultSendCodeBudgets` unset. */
  sendCodeBudgets?: Partial<SendCodeBudgets> | undefined;
  /** DEFAULT_PHONE_COUNTRY (two letters, default US): the country of a number written without `+` and its code. */
  defaultPhoneCountry?: string | undefined;
  /** SMTP_URL: password-reset mail goes out over SMTP. Unset: the log in the sandbox, none in live mode. */
  smtpUrl?: string | undefined;
  /** SMTP_FROM: the sender of the reset mail. */
  smtpFrom?: string | undefined;
  /** Where users reach the gateway (PUBLIC_URL): reset links point there. */
  publicUrl?: string | undefined;
  /** The clock (ms since the epoch); tests pass one they can move. */
  now?: () => number;
}

/** Composition root of the identity service: adapters and indexes first, then the queue and the event subscription. */
export async function start(deps: IdentityServiceDeps): Promise<{ name: string; stop(): Promise<void> }> {
  const now = deps.now ?? Date.now;
  const defaultPhoneCountry = phoneCountry(deps.defaultPhoneCountry);
  const { sms, outbox } = await createSmsProvider({ livemode: deps.livemode, twilio: deps.twilio, store: deps.store, logger: deps.logger, now });
  const merchants = new MerchantRepository(deps.store);
  const users = new UserRepository(deps.store);
  const authTokens = new AuthTokenRepository(deps.store);
  await createIndexes(deps.store);
  const operators = new OperatorRepository(deps.store);
  const consumerMerchants = new ConsumerMerchantRepository(deps.store);
  const budgets = new SendBudgetRepository(deps.store);
  const requestBudgets = new RequestBudgetRepository(deps.store);
  const merchantUsers = new MerchantUserRepository(deps.store);
  const dashboardSessions = new DashboardSessionRepository(deps.store);
  const signInFailures = new SignInFailureRepository(deps.store);
  const signInChallenges = new SignInChallengeRepository(deps.store);
  const codeKey = await loadCodeKey(deps.store, deps.secretsKey);
  const totpBox = new SecretBox(await loadTotpKey(deps.store, deps.secretsKey));
  const resetMail = deps.smtpUrl
    ? new SmtpResetMailSender(deps.smtpUrl, deps.smtpFrom ?? "Payrail <notices@localhost>", deps.logger)
    : deps.livemode
      ? null
      : new LogResetMailSender(deps.logger);
  if (!resetMail) deps.logger.warn("SMTP_URL is not set: dashboard password reset links cannot be sent");
  // The audit entries of key and team changes travel in those documents' outbox.
  const relay = new OutboxRelay({
    store: deps.store,
    collections: IDENTITY_OUTBOXES,
    // Only the use cases write these outboxes, with audit entries; publish checks each against its schema again.
    publish: (event) => deps.transport.publish(event as DomainEvent),
    logger: deps.logger,
  });
  await relay.start();
  await deps.transport.serve(
    "identity",
    identityHandlers({
      merchants,
      merchantUsers,
      dashboardSessions,
      signInFailures,
      signInChallenges,
      totpBox,
      resetMail,
      publicUrl: (deps.publicUrl ?? "http://127.0.0.1:3000").replace(/\/+$/, ""),
      operators,
      livemode: deps.livemode,
      events: { written: () => relay.notify() },
      ping: () => deps.store.ping(),
      users,
      consumerMerchants,
      codes: new VerificationCodeRepository(deps.store),
      authTokens,
      sms,
      outbox,
      codeKey,
      budgets,
      requestBudgets,
      limits: sendCodeBudgets({ ...defaultSendCodeBudgets(deps.livemode), ...definedOnly(deps.sendCodeBudgets) }),
      stats: sendCodeLimitStats,
      authTokenTtlMs: (deps.authTokenTtlHours ?? 24) * 60 * 60 * 1000,
      defaultPhoneCountry,
      now,
    }),
  );
  await subscribeIdentityEvents(deps.transport, consumerMerchants);
  // Spent send_code slots, one document per bucket and 5 minutes: swept hourly in batches
  // until none is left (bounded, so a flood of addresses cannot keep one sweep running).
  // Expired dashboard sessions, sign-in challenges, spent sign-in failure counters and the
  // gateways' ended request windows go the same way.
  const sweep = async () => {
    for (const purge of [budgets, dashboardSessions, signInFailures, signInChallenges, requestBudgets]) {
      for (let batch = 0; batch < 100; batch++) {
        if ((await purge.purge(new Date(now()).toISOString(), 1_000)) < 1_000) break;
      }
    }
  };
  const purge = setInterval(() => {
    sweep().catch((err: unknown) => deps.logger.warn({ err }, "send_code budget purge failed; next time"));
  }, HOUR_MS);
  purge.unref();
  deps.logger.info("identity service started");
  return {
    name: "identity",
    stop: async () => {
      clearInterval(purge);
      await relay.stop();
    },
  };
}

function definedOnly<T extends object>(value: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export { createIndexes } from "./indexes.ts";
