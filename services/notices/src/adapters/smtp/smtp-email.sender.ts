import nodemailer from "nodemailer";
import { smtpTransportOptions } from "@payrail/runtime";
import type { EmailMessage, EmailPort, SendOutcome } from "../../domain/ports/senders.port.ts";

export interface SmtpOptions {
  /** SMTP_URL: `smtp://host:port` (or `smtps://user:pass@host:465`). */
  url: string;
  /** SMTP_FROM: the sender every notice carries. */
  from: string;
  /** How long to wait for a connection, the greeting and each reply. Default 10 s. */
  timeoutMs?: number;
}

/**
 * Email over SMTP with nodemailer. A 5xx reply (a bounce at RCPT TO, a refused message) is
 * permanent; a server that is down, slow or answers 4xx is a failure that may pass, retried on
 * the notice's schedule. The Message-ID is the notice's id, so a resend after a crash is
 * recognisably the same message.
 */
export class SmtpEmailSender implements EmailPort {
  private readonly transporter;

  constructor(private readonly options: SmtpOptions) {
    this.transporter = nodemailer.createTransport(smtpTransportOptions(options.url, options.timeoutMs));
  }

  async send(message: EmailMessage): Promise<SendOutcome> {
    try {
      const info = await this.transporter.sendMail({
        from: this.options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        messageId: `<${message.noticeId}@payrail>`,
        // RFC 8058: a mail client's one-click unsubscribe POSTs to the link, no page needed.
        ...(message.unsubscribeUrl ? { list: { unsubscribe: message.unsubscribeUrl }, headers: { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } } : {}),
      });
      return { ok: true, providerMessageId: info.messageId };
    } catch (err) {
      const e = err as { responseCode?: number; code?: string; message?: string };
      const permanent = typeof e.responseCode === "number" && e.responseCode >= 500 && e.responseCode < 600;
      return { ok: false, permanent, error: `${e.code ?? "SMTP"}${e.responseCode ? ` ${e.responseCode}` : ""}: ${e.message ?? String(err)}` };
    }
  }

  close(): void {
    this.transporter.close();
  }
}
