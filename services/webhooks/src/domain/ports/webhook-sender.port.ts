/** One HTTP attempt's result: a status when the endpoint answered, else the error. */
export interface SendResult {
  httpStatus: number | null;
  durationMs: number;
  /** The start of the response body (read up to 64 KiB, kept shorter). */
  responseBody: string | null;
  /**
   * Whether the answer came from a public unicast address (the socket's peer): a private
   * target's body is never kept or shown (docs/decisions/0005-webhook-targets.md).
   */
  fromPublicAddress: boolean;
  error: string | null;
}

/** Sends a signed webhook: POST `body` with `headers` to `url`, within `timeoutMs`. */
export interface WebhookSenderPort {
  /**
   * Never throws: failures come back as `error`. With `publicOnly` the request is refused
   * unless every address the host resolves to is public (checked on the connection itself).
   */
  send(request: { url: string; headers: Record<string, string>; body: string; timeoutMs: number; publicOnly: boolean }): Promise<SendResult>;
}
