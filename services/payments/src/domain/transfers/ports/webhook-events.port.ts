/** Provider event ids already acted on, so a replayed webhook is acknowledged and ignored. */
export interface WebhookEventsPort {
  seen(eventId: string): Promise<boolean>;
  /** Records the id; false when it was recorded already. */
  remember(eventId: string, at: string): Promise<boolean>;
}
