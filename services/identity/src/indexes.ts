import { OUTBOX_INDEX, type Store } from "@payrail/store";
import { API_KEYS_COLLECTION, MERCHANTS_COLLECTION, MerchantRepository } from "./data-access/merchant.repository.ts";
import { UserRepository } from "./data-access/user.repository.ts";
import { AuthTokenRepository } from "./data-access/auth-token.repository.ts";
import { OPERATORS_COLLECTION, OperatorRepository } from "./data-access/operator.repository.ts";
import { ConsumerMerchantRepository } from "./data-access/consumer-merchant.repository.ts";
import { SendBudgetRepository } from "./data-access/send-budget.repository.ts";
import { MERCHANT_USERS_COLLECTION, MerchantUserRepository } from "./data-access/merchant-user.repository.ts";
import { DashboardSessionRepository } from "./data-access/dashboard-session.repository.ts";
import { SignInFailureRepository } from "./data-access/sign-in-failure.repository.ts";
import { SignInChallengeRepository } from "./data-access/sign-in-challenge.repository.ts";
import { RequestBudgetRepository } from "./data-access/request-budget.repository.ts";

/** The collections whose documents carry audit entries to publish. */
export const IDENTITY_OUTBOXES = [API_KEYS_COLLECTION, MERCHANT_USERS_COLLECTION, MERCHANTS_COLLECTION, OPERATORS_COLLECTION] as const;

/**
 * Every index the identity service queries by, created if missing: by `start` before it consumes (so no
 * request meets a missing index), and by `payrail indexes` (the Helm chart's pre-upgrade Job) before
 * a rollout, so a new index over a large collection is built there, not in a starting pod.
 */
export async function createIndexes(store: Store): Promise<void> {
  await new MerchantRepository(store).ensureIndexes();
  await new UserRepository(store).ensureIndexes();
  await new AuthTokenRepository(store).ensureIndexes();
  await new OperatorRepository(store).ensureIndexes();
  await new ConsumerMerchantRepository(store).ensureIndexes();
  await new SendBudgetRepository(store).ensureIndexes();
  await new MerchantUserRepository(store).ensureIndexes();
  await new DashboardSessionRepository(store).ensureIndexes();
  await new SignInFailureRepository(store).ensureIndexes();
  await new SignInChallengeRepository(store).ensureIndexes();
  await new RequestBudgetRepository(store).ensureIndexes();
  // The outbox relay of the audit entries keys, team, merchant and operator changes carry.
  for (const name of IDENTITY_OUTBOXES) await store.collection(name).createIndex(OUTBOX_INDEX);
}
