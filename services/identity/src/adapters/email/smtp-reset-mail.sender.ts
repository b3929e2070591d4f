import type { Transporter } from "nodemailer";
import { smtpTransportOptions, type Logger } from "@payrail/runtime";
import type { ResetMailPort } from "../../domain/ports/reset-mail.port.ts";

/**
 * Password-reset mail over SMTP (SMTP_URL, SMTP_FROM) with nodemailer, the library and settings
 * of the notices service's email. One try: a lost mail is asked for again from the page, and the
 * link in it must not wait in a retry queue.
 */
export class SmtpResetMailSender implements ResetMailPort {
  private transporter: Promise<Transporter> | null = null;

  constructor(
    private readonly url: string,
    private readonly from: string,
    private readonly logger: Logger,
  ) {}

  /** nodemailer is loaded with the first mail: identity starts, and the command line runs its commands, without it. */
  private transport(): Promise<Transporter> {
    return (this.transporter ??= import("nodemailer").then((m) => m.default.createTransport(smtpTransportOptions(this.url))));
  }

  async send(message: { to: string; link: string; expiresInMinutes: number }): Promise<void> {
    try {
      await (await this.transport()).sendMail({ from: this.from, to: message.to, subject: "Reset your Payrail dashboard password", text: resetMailText(message) });
    } catch (err) {
      // Neither the address nor the link is logged: the error's code says what failed.
      const e = err as { code?: string; responseCode?: number };
      this.logger.warn({ smtpError: e.code, responseCode: e.responseCode }, "password reset mail failed");
    }
  }
}

/** The mail's words: the link, how long it lasts, and what to do if it was not asked for. */
export function resetMailText(message: { link: string; expiresInMinutes: number }): string {
  return [
    "Someone asked to reset the password of your Payrail dashboard account.",
    "",
    `Open this link within ${message.expiresInMinutes} minutes to choose a new password (it works once):`,
    message.link,
    "",
    "If it was not you, ignore this mail: your password stays as it is.",
  ].join("\n");
}
