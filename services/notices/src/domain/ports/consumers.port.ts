/** Whose checkout is whose: learnt from payments' events (a checkout's consumer never changes). */
export interface ConsumersPort {
  /** Remembers the checkout's consumer; a second time changes nothing. */
  remember(checkoutId: string, userId: string): Promise<void>;
  /** The checkout's consumer, or null when no event told it yet. */
  userOf(checkoutId: string): Promise<string | null>;
}
