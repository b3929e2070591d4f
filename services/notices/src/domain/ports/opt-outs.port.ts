import type { OptOutKey } from "../unsubscribe-token.ts";

/** Consumers' opt-outs of a merchant's optional notices, per channel. */
export interface OptOutsPort {
  /** Records the opt-out (one conditional write); false when it was recorded before. */
  add(key: OptOutKey, at: string): Promise<boolean>;
  has(key: OptOutKey): Promise<boolean>;
}
