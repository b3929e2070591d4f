import type { SignInChallengeRecord } from "../merchant-user.entity.ts";

/** Storage of the challenges between a right password and the second factor. */
export interface SignInChallengesPort {
  insert(challenge: SignInChallengeRecord): Promise<void>;
  /** The challenge with this hash if unexpired at `now`. */
  findActive(hash: string, now: string): Promise<SignInChallengeRecord | null>;
  /** Spends the challenge; false when another request spent it first. */
  spend(hash: string): Promise<boolean>;
  /** Deletes up to `limit` challenges that expired before `now`; answers how many. */
  purge(now: string, limit: number): Promise<number>;
}
