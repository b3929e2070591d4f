/** Decides whether a webhook URL may be registered. */
export interface UrlGuardPort {
  /**
   * Throws `parameter_invalid` (param `url`) when the URL may not receive webhooks: in live
   * mode, anything but https to a host whose every address is public.
   */
  check(url: string, livemode: boolean): Promise<void>;
}
