import type { Logger } from "@payrail/runtime";
import type { ResetMailPort } from "../../domain/ports/reset-mail.port.ts";

/**
 * The sandbox without SMTP_URL: the reset link is written to the identity service's log, where
 * the developer running it reads it (nothing leaves the machine). Never used with live
 * providers, whose links are secrets that must not reach a log.
 */
export class LogResetMailSender implements ResetMailPort {
  constructor(private readonly logger: Logger) {}

  async send(message: { to: string; link: string; expiresInMinutes: number }): Promise<void> {
    this.logger.info({ sandboxResetLink: message.link }, "sandbox password reset mail (no SMTP_URL): the link is in this line");
  }
}
