/** Which webhook URLs a deployment takes (docs/api-notes.md, Events and webhooks). */
export interface UrlRules {
  /** Live mode: https only, and hosts must resolve. */
  httpsOnly: boolean;
  /** Only public unicast addresses (live mode, or WEBHOOK_ALLOW_PRIVATE_URLS off). */
  publicOnly: boolean;
}

/** Decides whether a webhook URL may be registered. */
export interface UrlGuardPort {
  /**
   * Throws `parameter_invalid` (param `url`) when the URL may not receive webhooks under `rules`:
   * http where https is required, or a host with an address the rules refuse (link-local and
   * cloud metadata addresses always).
   */
  check(url: string, rules: UrlRules): Promise<void>;
}
