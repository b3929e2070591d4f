/** Where a password-reset link is sent: SMTP, or the sandbox's log. */
export interface ResetMailPort {
  /** Never throws: a failure is logged by the adapter (the answer must not tell whether mail went out). */
  send(message: { to: string; link: string; expiresInMinutes: number }): Promise<void>;
}
